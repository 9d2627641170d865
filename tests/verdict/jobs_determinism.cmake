# `check` must not depend on --jobs: the fixture's vonoswald family (the real
# properties, one test-only property that holds, one that fails at case 0 and one that fails in
# some cases only, late in the run, and is shrunk) with --jobs 1, 2 and 3 gives the same stdout
# and the same --json file once the "seconds" timings are removed.
#   -DEXE=iclproof_verdict_fixture -DWORK=dir -DCASES=n -DSEED=s
include(${CMAKE_CURRENT_LIST_DIR}/report_json_reading.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(sometimes "vonoswald.fixture_fails_in_some_cases")
foreach(jobs IN ITEMS 1 2 3)
  execute_process(COMMAND ${EXE} check --property "vonoswald.*" --cases ${CASES} --seed ${SEED}
                          --jobs ${jobs} --json ${WORK}/jobs${jobs}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out_${jobs} ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "check --jobs ${jobs} exited '${rc}', expected 1 (two properties fail "
                        "on purpose)\n${out_${jobs}}${err}")
  endif()
  file(READ ${WORK}/jobs${jobs}.json json_${jobs})
  string(REGEX REPLACE "\n *\"seconds\": [^\n]*" "" json_${jobs} "${json_${jobs}}")
  file(WRITE ${WORK}/jobs${jobs}.stripped.json "${json_${jobs}}")
endforeach()
foreach(jobs IN ITEMS 2 3)
  if(NOT json_${jobs} STREQUAL json_1)
    execute_process(COMMAND diff -u ${WORK}/jobs1.stripped.json ${WORK}/jobs${jobs}.stripped.json
                    OUTPUT_VARIABLE d)
    message(FATAL_ERROR "check --json differs between --jobs 1 and --jobs ${jobs}:\n${d}")
  endif()
  if(NOT out_${jobs} STREQUAL out_1)
    message(FATAL_ERROR "check's output differs between --jobs 1 and --jobs ${jobs}:\n"
                        "--- jobs 1\n${out_1}\n--- jobs ${jobs}\n${out_${jobs}}")
  endif()
endforeach()
# The run holds what this test is about: a failure found late and shrunk, and passing rows.
json_property_index(i "${json_1}" ${sometimes} "check --json")
string(JSON verdict GET "${json_1}" properties ${i} verdict)
string(JSON failure GET "${json_1}" properties ${i} failure)
string(JSON example GET "${json_1}" properties ${i} counterexample)
if(NOT verdict STREQUAL "fail" OR NOT failure MATCHES "first failing case: case ([0-9]+)")
  message(FATAL_ERROR "${sometimes} did not fail with seed ${SEED}: pick another seed\n"
                      "${failure}")
endif()
set(first ${CMAKE_MATCH_1})
# The shrunk draws (RapidCheck's "int = v" lines) and the body's notes of the shrunk case.
if(first LESS 10 OR NOT example MATCHES "int = [0-9]+\nint = [0-9]+"
   OR NOT failure MATCHES "x = [0-9]+\ny = [0-9]+")
  message(FATAL_ERROR "${sometimes}: first failing case ${first}, counterexample '${example}'"
                      "; expected a failure late in the run with a shrunk x, y")
endif()
if(NOT out_1 MATCHES " PASS ")
  message(FATAL_ERROR "no property passed:\n${out_1}")
endif()
message(STATUS "check identical for --jobs 1, 2, 3; ${sometimes} first fails at case ${first}")

# --certified runs each property in its strongest mode: for akyurek.* that is Arb balls (the
# interval mode where a ball body exists), exact rationals and MPFR in one run, so the workers
# must set the balls' precision too.
foreach(jobs IN ITEMS 1 2)
  execute_process(COMMAND ${EXE} check --certified --property "akyurek.*" --cases 10
                          --seed ${SEED} --jobs ${jobs} --json ${WORK}/certified${jobs}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE cout_${jobs} ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)  # akyurek.test_only_fails_on_purpose fails; the real ones hold
    message(FATAL_ERROR "check --certified --jobs ${jobs} exited '${rc}', expected 1\n"
                        "${cout_${jobs}}${err}")
  endif()
  file(READ ${WORK}/certified${jobs}.json cjson_${jobs})
  string(REGEX REPLACE "\n *\"seconds\": [^\n]*" "" cjson_${jobs} "${cjson_${jobs}}")
endforeach()
if(NOT cjson_1 STREQUAL cjson_2 OR NOT cout_1 STREQUAL cout_2)
  message(FATAL_ERROR "check --certified differs between --jobs 1 and --jobs 2")
endif()
foreach(kind IN ITEMS ball rational mpfr)
  if(NOT cjson_1 MATCHES "\"scalar\": \"${kind}\"")
    message(FATAL_ERROR "check --certified ran no akyurek property in ${kind}")
  endif()
endforeach()
message(STATUS "check --certified (ball, rational, mpfr) identical for --jobs 1 and 2")
