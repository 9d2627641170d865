# Progress lines (src/harness/progress.hpp) of `check`, `report` and `compare`: on stderr only,
# in their format, and none at all with --quiet. ICLPROOF_PROGRESS_SECONDS=0 stands for a long
# run (every update is past the throttling interval), so a short run shows what a long one
# prints.
#   -DEXE=<iclproof> -DOUT=<scratch folder>
set(check_args check --property "references.*" --scalar double --cases 5 --jobs 1)
set(report_args report --property "references.*" --cases 3 --no-sweep --no-plots --jobs 1)
set(compare_args compare ${CMAKE_CURRENT_LIST_DIR}/../peers/ahn_L1_gaussian.json --tasks 40
                 --calibration-tasks 40)
function(run_iclproof)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ICLPROOF_PROGRESS_SECONDS=0 ${EXE} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "iclproof ${ARGN} exited ${rc}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
function(require text regex what)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${what}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()

# A long check: per property, cases done, rate and ETA (or "finished"), with the elapsed time.
run_iclproof(${check_args})
require("${err}"
        "iclproof check: \\[[0-9]+/8 done\\] references\\.[a-z_]+: [0-4]/5 cases, [0-9.e+]+ cases/s, ETA [0-9]+ s \\(elapsed [0-9]+ s\\)"
        "check's progress on stderr")
require("${err}" "iclproof check: \\[8/8 done\\] references\\.[a-z_]+: 5/5 cases, finished"
        "check's last progress line")
require("${out}" "8 passed, 0 failed" "check's summary on stdout")
if(out MATCHES "iclproof check: \\[")
  message(FATAL_ERROR "progress lines on stdout:\n${out}")
endif()
run_iclproof(${check_args} --quiet)
if(NOT err STREQUAL "")
  message(FATAL_ERROR "check --quiet wrote to stderr:\n${err}")
endif()
require("${out}" "8 passed, 0 failed" "check --quiet's summary on stdout")

# A report: a line per phase and family of property runs, and one when it writes the folder.
file(REMOVE_RECURSE ${OUT})
run_iclproof(${report_args} --out ${OUT}/loud)
require("${err}" "iclproof report: run references: references\\.[a-z_]+ \\(1 of [0-9]+, "
        "report's line for the family's runs")
require("${err}" "iclproof report: writing [^\n]*/loud \\(elapsed [0-9]+ s\\)"
        "report's line for writing the folder")
run_iclproof(${report_args} --out ${OUT}/quiet --quiet)
if(NOT err STREQUAL "")
  message(FATAL_ERROR "report --quiet wrote to stderr:\n${err}")
endif()

# A long compare: per phase, tasks done, rate and ETA (or "finished"), with the elapsed time
# (compare/task_progress.hpp). On 40 tasks its verdict may be anything (exit 0, 1 or 3).
function(run_compare)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ICLPROOF_PROGRESS_SECONDS=0 ${EXE} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc MATCHES "^[013]$")
    message(FATAL_ERROR "iclproof ${ARGN} exited ${rc}\n${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
run_compare(${compare_args})
require("${err}"
        "iclproof compare: forward passes of the learned model: [1-9][0-9]*/40 tasks, [0-9.e+]+ tasks/s, ETA [0-9]+ s \\(elapsed [0-9]+ s\\)"
        "compare's progress on stderr")
require("${err}"
        "iclproof compare: forward passes of the learned model: 40/40 tasks, finished \\(elapsed"
        "compare's line at the end of a phase")
require("${out}" "verdict: " "compare's verdict on stdout")
if(out MATCHES "/40 tasks")
  message(FATAL_ERROR "progress lines on stdout:\n${out}")
endif()
run_compare(${compare_args} --quiet)
if(NOT err STREQUAL "")
  message(FATAL_ERROR "compare --quiet wrote to stderr:\n${err}")
endif()
