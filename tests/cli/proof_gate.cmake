# The proof gate of `check --ci` and `report` alone decides: PROPERTY passes its cases either way;
# with a proof audit in which every theorem it cites is "closed" both pass (exit 0), with the
# same audit but ONE cited theorem "failed" both fail (exit 1): check prints "FAIL (proof failed:
# <name>)", report.json gives the property verdict pass and gate fail.
#   -DEXE=iclproof -DPROPERTY=name -DOUT=dir
cmake_policy(SET CMP0054 NEW)  # "closed" in if() is a string, not a variable
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(run --property ${PROPERTY} --cases 3 --seed 20261122)
execute_process(COMMAND ${EXE} check ${run} --json ${OUT}/plain.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check ${PROPERTY} without an audit: exit '${rc}'\n${out}${err}")
endif()
file(READ ${OUT}/plain.json plain)
string(JSON n LENGTH "${plain}" properties 0 theorems)
if(n LESS 1)
  message(FATAL_ERROR "${PROPERTY} cites no theorem: pick a property that does")
endif()
# Two audits: every cited theorem closed; the same with the last one failed.
math(EXPR last "${n} - 1")
set(closed_entries "")
set(one_failed_entries "")
foreach(i RANGE ${last})
  string(JSON file GET "${plain}" properties 0 theorems ${i} file)
  string(JSON name GET "${plain}" properties 0 theorems ${i} name)
  set(status closed)
  if(i EQUAL last)
    set(status failed)
    set(failed_name ${name})
  endif()
  string(APPEND closed_entries "${sep}{\"file\":\"${file}\",\"name\":\"${name}\",\"status\":\"closed\"}")
  string(APPEND one_failed_entries "${sep}{\"file\":\"${file}\",\"name\":\"${name}\",\"status\":\"${status}\"}")
  set(sep ",")
endforeach()
file(WRITE ${OUT}/closed.json "{\"theorems\":[${closed_entries}]}\n")
file(WRITE ${OUT}/one_failed.json "{\"theorems\":[${one_failed_entries}]}\n")

foreach(audit IN ITEMS closed one_failed)
  execute_process(COMMAND ${EXE} check --ci ${run} --proof-audit ${OUT}/${audit}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(audit STREQUAL "closed" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "check --ci, every cited theorem closed: exit '${rc}'\n${out}${err}")
  endif()
  if(audit STREQUAL "one_failed"
     AND (NOT rc EQUAL 1 OR NOT out MATCHES "FAIL \\(proof failed: ${failed_name}\\)"))
    message(FATAL_ERROR "check --ci, ${failed_name} failed in the audit: expected exit 1 and "
                        "'FAIL (proof failed: ${failed_name})', got '${rc}'\n${out}${err}")
  endif()
  execute_process(COMMAND ${EXE} report ${run} --no-sweep --no-plots --proof-audit
                          ${OUT}/${audit}.json --out ${OUT}/report_${audit}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(READ ${OUT}/report_${audit}/report.json report)
  string(JSON verdict GET "${report}" properties 0 verdict)
  string(JSON gate GET "${report}" properties 0 gate)
  string(JSON summary GET "${report}" summary verdict)
  if(audit STREQUAL "closed")
    set(want_rc 0)
    set(want_gate pass)
  else()
    set(want_rc 1)
    set(want_gate fail)
  endif()
  if(NOT rc EQUAL want_rc OR NOT verdict STREQUAL "pass" OR NOT gate STREQUAL want_gate
     OR NOT summary STREQUAL want_gate)
    message(FATAL_ERROR "report with the ${audit} audit: exit '${rc}', verdict '${verdict}', "
                        "gate '${gate}', summary '${summary}'; expected ${want_rc}, pass, "
                        "${want_gate}, ${want_gate}\n${out}${err}")
  endif()
endforeach()
message(STATUS "one failed theorem in the audit alone fails check --ci and the report")
