# A failure in family FAMILY, end to end (see CMakeLists.txt beside this file).
#   -DEXE=iclproof_verdict_fixture -DFAMILY=name -DOUT=dir
include(${CMAKE_CURRENT_LIST_DIR}/report_json_reading.cmake)
set(glob "${FAMILY}.test_only_*")
set(failing "${FAMILY}.test_only_fails_on_purpose")
set(holding "${FAMILY}.test_only_holds")

# The last line of a check run must start "1 passed, 1 failed" (then the coverage and trust-level
# counts): one holds, one fails on purpose. Each row ends with the verdict and its trust level.
foreach(mode IN ITEMS plain ci)
  set(args check --property ${glob} --cases 3 --seed 20261122)
  if(mode STREQUAL "ci")
    list(APPEND args --ci)
  endif()
  execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "check (${mode}) exited '${rc}', expected 1\n${out}${err}")
  endif()
  string(STRIP "${out}" stripped)
  if(NOT stripped MATCHES "\n1 passed, 1 failed;[^\n]*$")
    message(FATAL_ERROR "check (${mode}) does not end with '1 passed, 1 failed':\n${out}")
  endif()
  if(NOT out MATCHES "${failing} [^\n]* FAIL +tolerance under a rounding model\n"
     OR NOT out MATCHES "${holding} [^\n]* PASS +tolerance under a rounding model\n")
    message(FATAL_ERROR "check (${mode}) rows do not say ${failing} FAIL, ${holding} PASS:\n${out}")
  endif()
endforeach()

file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} report --out ${OUT} --property ${glob} --cases 3 --seed 20261122
                        --no-sweep --no-plots
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "report exited '${rc}', expected 1\n${out}${err}")
endif()
string(STRIP "${out}" stripped)
if(NOT stripped MATCHES "\n1 passed, 1 failed$")
  message(FATAL_ERROR "report does not end with '1 passed, 1 failed':\n${out}")
endif()

file(READ ${OUT}/report.json report)
require_report_summary("${report}" "report.json" fail 1 1)
foreach(row IN ITEMS "failing|fail" "holding|pass")
  string(REPLACE "|" ";" row "${row}")
  list(GET row 0 which)
  list(GET row 1 want)
  set(name ${${which}})
  json_property_index(i "${report}" ${name} "report.json")
  string(JSON v GET "${report}" properties ${i} verdict)
  string(JSON gate GET "${report}" properties ${i} gate)
  if(NOT v STREQUAL want OR NOT gate STREQUAL want)
    message(FATAL_ERROR "report.json: ${name} verdict '${v}', gate '${gate}'; expected ${want}")
  endif()
endforeach()

# A finding whose evidence property failed is "not reproduced", whatever its measurement says
# (deliberately_failing_properties.cpp: references.test_only_failed_evidence).
if(FAMILY STREQUAL "references")
  string(JSON nf LENGTH "${report}" findings)
  math(EXPR last "${nf} - 1")
  set(status "")
  foreach(i RANGE ${last})
    string(JSON id GET "${report}" findings ${i} id)
    if(id STREQUAL "references.test_only_failed_evidence")
      string(JSON status GET "${report}" findings ${i} status)
    endif()
  endforeach()
  if(NOT status STREQUAL "not reproduced")
    message(FATAL_ERROR "report.json: references.test_only_failed_evidence, whose evidence "
                        "property failed, has status '${status}'; expected 'not reproduced'")
  endif()
endif()

file(READ ${OUT}/report.md md)
string(REPLACE "." "\\." failing_re "${failing}")
if(NOT md MATCHES "\\*\\*1 of 2 properties FAILED\\.")
  message(FATAL_ERROR "report.md headline does not say '1 of 2 properties FAILED.'")
endif()
# ... the verdict, then its trust level with the sizes it was reached at (the last cell).
if(NOT md MATCHES "\n\\| `${failing_re}` \\|[^\n]*\\| \\*\\*FAIL\\*\\* \\| [a-z +-]+ at [^|\n]+ \\|\n")
  message(FATAL_ERROR "report.md summary row of ${failing} does not say FAIL")
endif()

file(READ ${OUT}/report.html html)
if(NOT html MATCHES "<div class=\"banner fail\">1 of 2 properties FAILED\\.")
  message(FATAL_ERROR "report.html banner does not say '1 of 2 properties FAILED.'")
endif()
# The summary table's row: name links to #prop-<name>, then the verdict and its trust level.
if(NOT html MATCHES
   "<tr><td class=\"name\"><a href=\"#prop-${failing_re}\">[^\n]*<td class=\"v-fail\">FAIL</td><td>[a-z +-]+ at [^<\n]+</td></tr>\n")
  message(FATAL_ERROR "report.html summary row of ${failing} does not say FAIL")
endif()
message(STATUS "${FAMILY}: check, check --ci and report all say FAIL and exit 1")
