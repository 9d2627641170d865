# check's summary counts the fully proved properties the way CLAIMS.md does (issue 39: "42 fully
# proved of 62" in a double run against 44 of 62 in the ledger, the properties not applicable in
# the run left out of the numerator only). The summary must read
#     N fully proved of the M properties run (K of T in all)
# with M = passed + failed (not applicable ones are not run), N the number of run properties
# whose check.json entry says "fully_proved": true (and check.json's top-level count), and K of T
# the ledger's "**K fully proved of T properties.**" (`iclproof list --claims-md`).
#   -DEXE=iclproof -DWORK=dir
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${EXE} list --claims-md OUTPUT_VARIABLE ledger RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT ledger MATCHES "\\*\\*([0-9]+) fully proved of ([0-9]+) properties\\.\\*\\*")
  message(FATAL_ERROR "list --claims-md: exit ${rc}, no count line")
endif()
set(K ${CMAKE_MATCH_1})
set(T ${CMAKE_MATCH_2})
# references.* in rational: some properties run, some are not applicable (no exact body).
execute_process(COMMAND ${EXE} check --property "references.*" --scalar rational --cases 2
                        --json ${WORK}/check.json
                OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT (rc EQUAL 0 OR rc EQUAL 1))
  message(FATAL_ERROR "check exited ${rc}\n${out}")
endif()
set(re "([0-9]+) passed, ([0-9]+) failed, ([0-9]+) not applicable in rational[;] ([0-9]+) fully "
       "proved of the ([0-9]+) properties run \\(([0-9]+) of ([0-9]+) in all\\)")
string(CONCAT re ${re})
if(NOT out MATCHES "${re}")
  message(FATAL_ERROR "the summary does not read 'N fully proved of the M properties run (K of T "
                      "in all)' with not-applicable properties:\n${out}")
endif()
set(passed ${CMAKE_MATCH_1})
set(failed ${CMAKE_MATCH_2})
set(na ${CMAKE_MATCH_3})
set(N ${CMAKE_MATCH_4})
set(M ${CMAKE_MATCH_5})
set(K_run ${CMAKE_MATCH_6})
set(T_run ${CMAKE_MATCH_7})
math(EXPR run "${passed} + ${failed}")
if(NOT M EQUAL run OR na EQUAL 0)
  message(FATAL_ERROR "M = ${M}, passed + failed = ${run}, not applicable ${na} (the test needs "
                      "some): ${out}")
endif()
if(NOT K_run EQUAL K OR NOT T_run EQUAL T)
  message(FATAL_ERROR "check says ${K_run} of ${T_run} in all, CLAIMS.md ${K} of ${T}")
endif()
file(READ ${WORK}/check.json json)
string(JSON n_props LENGTH "${json}" properties)
set(fully 0)
math(EXPR last "${n_props} - 1")
foreach(i RANGE ${last})
  string(JSON verdict GET "${json}" properties ${i} verdict)
  if(NOT verdict STREQUAL "not-applicable")
    string(JSON f GET "${json}" properties ${i} fully_proved)
    if(f)
      math(EXPR fully "${fully} + 1")
    endif()
  endif()
endforeach()
string(JSON top GET "${json}" fully_proved)
if(NOT N EQUAL fully OR NOT top EQUAL fully)
  message(FATAL_ERROR "summary N = ${N}, check.json top-level ${top}, entries run and fully "
                      "proved: ${fully}")
endif()
message(STATUS "${N} fully proved of the ${M} run (${na} not applicable); ${K} of ${T} in all, "
               "as CLAIMS.md")
