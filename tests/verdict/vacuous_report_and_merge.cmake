# One judge (src/trust/verdict.hpp): `report` and `merge` fail a vacuous tolerance exactly where
# `check --ci` fails it. On sharpness.test_only_vacuous (tolerance 10^10 times its error) and
# sharpness.test_only_vacuous_second_check (one check 10^10 too loose) at 100 cases:
#   - `check --ci` exits 1 (0 passed);
#   - `report` exits 1; report.json has gate "fail", gate_text VACUOUS, summary verdict "fail";
#     report.md and report.html show VACUOUS in the summary row and "FAILED" in the headline;
#   - `report --shard k/2` then `merge` exits 1 with the same report.json gate;
#   - `check --ci --shard k/2 --json` then `merge` exits 1 (0 passed).
#   -DEXE=iclproof_verdict_fixture -DWORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/report_json_reading.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(sel --property "sharpness.test_only_vacuous*" --scalar double --cases 100)

function(run expect)
  execute_process(COMMAND ${EXE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL expect)
    message(FATAL_ERROR "'${ARGN}' exited '${rc}', expected ${expect}\n${out}${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
endfunction()

# The report folder DIR fails both vacuous properties, in every form.
function(report_fails dir)
  file(READ ${dir}/report.json j)
  require_report_summary("${j}" "${dir}/report.json" fail 2)
  foreach(i IN ITEMS 0 1)
    string(JSON gate GET "${j}" properties ${i} gate)
    string(JSON text GET "${j}" properties ${i} gate_text)
    string(JSON reason GET "${j}" properties ${i} gate_reasons 0)
    if(NOT gate STREQUAL "fail" OR NOT text MATCHES "^VACUOUS" OR NOT reason MATCHES "vacuous")
      message(FATAL_ERROR "${dir}/report.json property ${i}: gate '${gate}', text '${text}', "
                          "reason '${reason}'; expected fail, VACUOUS, a vacuous reason")
    endif()
  endforeach()
  file(READ ${dir}/report.md md)
  file(READ ${dir}/report.html html)
  if(NOT md MATCHES "2 of 2 properties FAILED" OR NOT md MATCHES "\\| VACUOUS \\(margin > \\+4\\.0\\)"
     OR NOT md MATCHES "\\| VACUOUS \\(a check's margin > \\+4\\.0\\)")
    message(FATAL_ERROR "${dir}/report.md: expected the FAILED headline and VACUOUS rows")
  endif()
  if(NOT html MATCHES "2 of 2 properties FAILED" OR NOT html MATCHES ">VACUOUS \\(margin &gt; \\+4\\.0\\)<")
    message(FATAL_ERROR "${dir}/report.html: expected the FAILED headline and a VACUOUS cell")
  endif()
endfunction()

run(1 check --ci ${sel})
if(NOT last_out MATCHES "0 passed, 2 failed")
  message(FATAL_ERROR "check --ci: expected 0 passed, 2 failed\n${last_out}")
endif()

run(1 report ${sel} --no-sweep --no-plots --out ${WORK}/report)
if(NOT last_out MATCHES "0 passed, 2 failed" OR NOT last_out MATCHES "VACUOUS")
  message(FATAL_ERROR "report: expected VACUOUS rows and 0 passed, 2 failed\n${last_out}")
endif()
report_fails(${WORK}/report)

foreach(k IN ITEMS 1 2)
  run(0 report ${sel} --no-sweep --no-plots --shard ${k}/2 --out ${WORK}/report_shard${k})
  run(0 check --ci ${sel} --shard ${k}/2 --json ${WORK}/check_shard${k}.json)
endforeach()
run(1 merge ${WORK}/report_shard1/shard.json ${WORK}/report_shard2/shard.json --no-plots
    --out ${WORK}/report_merged)
report_fails(${WORK}/report_merged)
run(1 merge ${WORK}/check_shard1.json ${WORK}/check_shard2.json --out ${WORK}/check_merged)
if(NOT last_out MATCHES "0 passed, 2 failed")
  message(FATAL_ERROR "merge of check --ci shards: expected 0 passed, 2 failed\n${last_out}")
endif()
message(STATUS "check --ci, report, merge (report and check shards) all fail both vacuous "
               "properties")
