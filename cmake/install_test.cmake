# ctest install.external_family_builds_and_runs_against_installed_package (cmake/install.cmake):
# installs the build into a fresh prefix, configures and builds examples/external_family against
# it with find_package(iclproof), then runs the installed family through the CLI.
#   -DBUILD_DIR=<iclproof build> -DEXAMPLE=<example source> -DWORK=<scratch folder>
#   -DCXX=<compiler> -DLAUNCHER=<compiler launcher or empty> -DBUILD_TYPE=<config>
#   -DCXX_FLAGS=... -DLINKER_FLAGS=...  the build's own (a sanitizer build's libraries need the
#                                       sanitizer runtime in the example's link too)
function(run what expected_rc)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL expected_rc)
    message(FATAL_ERROR "${what}: exit '${rc}', expected ${expected_rc}\n${ARGN}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(require what text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what} does not match '${regex}':\n${text}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run("cmake --install" 0 ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

set(configure_args -S ${EXAMPLE} -B ${WORK}/build -DCMAKE_PREFIX_PATH=${prefix}
                   -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
                   "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
if(LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run("configure the example" 0 ${CMAKE_COMMAND} ${configure_args})
run("build the example" 0 ${CMAKE_COMMAND} --build ${WORK}/build -j2)

set(exe ${WORK}/build/iclproof-diagpgd)
set(property diagpgd.lsa_layer_is_diagonal_preconditioned_gd_step)
# The family's property and the built-in ones are in one executable.
run("list" 0 ${exe} list)
require("list" "${out}" "${property}")
require("list" "${out}" "vonoswald\\.")
# It holds for every scalar, and the CI gate passes.
foreach(scalar IN ITEMS double long-double mpfr)
  run("check --ci --scalar ${scalar}" 0 ${exe} check --ci --property "diagpgd.*" --cases 200
      --scalar ${scalar} --seed 20261123)
  require("check --scalar ${scalar}" "${out}" "${property} [^\n]* exact +PASS +tolerance under a rounding model\n")
  require("check --scalar ${scalar}" "${out}" "\n1 passed, 0 failed; [^\n]*\n$")
endforeach()
# The same check fed a broken construction fails, in plain and gate mode.
foreach(flag IN ITEMS --seed --ci)
  set(args check --property "diagpgd.*" --cases 100 --seed 20261123)
  if(flag STREQUAL "--ci")
    list(APPEND args --ci)
  endif()
  run("mutant check ${flag}" 1 ${WORK}/build/iclproof-diagpgd-mutant ${args})
  require("mutant check" "${out}" "diagpgd.mutant_preconditioner_squared_must_fail [^\n]* FAIL +[^\n]*\n")
  require("mutant check" "${out}" "\n0 passed, 1 failed; [^\n]*\n$")
endforeach()
# The report has the family's section, titled by its ICLPROOF_FAMILY, and says pass.
run("report" 0 ${exe} report --out ${WORK}/report --property "diagpgd.*" --cases 20 --no-sweep
    --no-plots)
file(READ ${WORK}/report/report.md md)
require("report.md" "${md}"
        "\n## Diagonally preconditioned LSA: one layer = one diagonally preconditioned GD step {#family-diagpgd}\n")
require("report.md" "${md}" "von Oswald et al. 2023, Proposition 1, with W_K's x-block")
file(READ ${WORK}/report/report.json json)
string(JSON verdict GET "${json}" summary verdict)
string(JSON passed GET "${json}" summary passed)
if(NOT verdict STREQUAL "pass" OR NOT passed EQUAL 1)
  message(FATAL_ERROR "report.json: verdict '${verdict}', ${passed} passed; expected pass, 1")
endif()
