# The certified run alone decides (certified_only_failing_properties.cpp): two test-only
# properties that pass in floating point and fail in their certified mode.
#   1. check (MPFR) passes them: exit 0, "2 passed, 0 failed";
#   2. check --certified fails them: exit 1, and --json names the mode each ran in, against the
#      mode expected from the property's claim and bodies (an exact identity with an exact body:
#      "rational" / "exact rational"; an approximation with an interval body and no exact one:
#      "interval" / "interval"; a property with floating-point bodies only: "mpfr" / "floating
#      point");
#   3. report fails them: exit 1, summary verdict fail, each property's main verdict pass, its
#      gate fail and its certified run fail in the expected scalar.
#   -DEXE=iclproof_verdict_fixture -DOUT=dir
include(${CMAKE_CURRENT_LIST_DIR}/report_json_reading.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(glob "certified.fixture_fails_only_in_*")
set(rational certified.fixture_fails_only_in_rational)
set(interval certified.fixture_fails_only_in_interval)

execute_process(COMMAND ${EXE} check --property ${glob} --cases 3 --seed 20261122
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\n2 passed, 0 failed")
  message(FATAL_ERROR "check (MPFR): expected exit 0 and 2 passed, got '${rc}'\n${out}${err}")
endif()

# name;expected scalar;expected check_mode;expected verdict
function(expect_modes json)
  foreach(row IN LISTS ARGN)
    string(REPLACE "|" ";" row "${row}")
    list(GET row 0 name)
    list(GET row 1 want_scalar)
    list(GET row 2 want_mode)
    list(GET row 3 want_verdict)
    json_property_index(i "${json}" ${name} "check --certified --json")
    string(JSON scalar GET "${json}" properties ${i} scalar)
    string(JSON mode GET "${json}" properties ${i} check_mode)
    string(JSON verdict GET "${json}" properties ${i} verdict)
    if(NOT scalar STREQUAL want_scalar OR NOT mode STREQUAL want_mode
       OR NOT verdict STREQUAL want_verdict)
      message(FATAL_ERROR "check --certified --json: ${name} ran in scalar '${scalar}', mode "
                          "'${mode}', verdict '${verdict}'; expected '${want_scalar}', "
                          "'${want_mode}', '${want_verdict}'")
    endif()
  endforeach()
endfunction()

execute_process(COMMAND ${EXE} check --certified --property ${glob} --cases 3 --seed 20261122
                        --json ${OUT}/certified.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "\n0 passed, 2 failed")
  message(FATAL_ERROR "check --certified: expected exit 1 and 0 passed 2 failed, got '${rc}'\n"
                      "${out}${err}")
endif()
file(READ ${OUT}/certified.json json)
expect_modes("${json}" "${rational}|rational|exact rational|fail"
             "${interval}|interval|interval|fail")
execute_process(COMMAND ${EXE} check --certified --property vonoswald.test_only_holds --cases 3
                        --seed 20261122 --json ${OUT}/floating.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check --certified vonoswald.test_only_holds: exit '${rc}'\n${out}${err}")
endif()
file(READ ${OUT}/floating.json json)
expect_modes("${json}" "vonoswald.test_only_holds|mpfr|floating point|pass")

execute_process(COMMAND ${EXE} report --out ${OUT}/report --property ${glob} --cases 3
                        --seed 20261122 --no-sweep --no-plots
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "report: expected exit 1 (both certified runs fail), got '${rc}'\n"
                      "${out}${err}")
endif()
file(READ ${OUT}/report/report.json report)
require_report_summary("${report}" "report.json" fail 2)
foreach(want IN ITEMS rational interval)
  set(name ${${want}})
  json_property_index(i "${report}" ${name} "report.json")
  string(JSON main GET "${report}" properties ${i} verdict)
  string(JSON gate GET "${report}" properties ${i} gate)
  string(JSON cverdict GET "${report}" properties ${i} certified verdict)
  string(JSON cscalar GET "${report}" properties ${i} certified scalar)
  if(NOT main STREQUAL "pass" OR NOT gate STREQUAL "fail" OR NOT cverdict STREQUAL "fail"
     OR NOT cscalar STREQUAL want)
    message(FATAL_ERROR "report.json ${name}: main verdict '${main}', gate '${gate}', certified "
                        "'${cverdict}' in '${cscalar}'; expected pass, fail, fail in ${want}")
  endif()
endforeach()
# The headline leads with what was proved: each property's strongest verified level (its
# certified run) comes before the levels of the MPFR run, in report.md and report.html.
foreach(form IN ITEMS md html)
  file(READ ${OUT}/report/report.${form} text)
  string(FIND "${text}" "2 of 2 properties FAILED. Strongest verified level per property (its certified run" strongest)
  string(FIND "${text}" "Levels of the mpfr run:" mpfr_levels)
  if(strongest LESS 0 OR NOT mpfr_levels GREATER strongest)
    message(FATAL_ERROR "report.${form}: the headline does not lead with the strongest verified "
                        "levels (the certified run's) before the MPFR run's levels")
  endif()
endforeach()
message(STATUS "the certified runs alone fail check --certified and the report")
