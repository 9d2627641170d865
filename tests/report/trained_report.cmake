# `iclproof report --weights FILE` end to end: runs the report on a weights file and checks the
# exit code and, in the report.json it wrote (which the report validates against
# reports/report.schema.json before writing it; a mismatch would be exit 2), the comparison's
# verdict and the trained model's figures.
#   -DEXE=iclproof -DWEIGHTS=file -DOUT=dir -DEXPECT_RC=0|1 -DEXPECT_VERDICT=pass|fail
#   -DEXPERIMENT=name "-DARGS=more;report;arguments"
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} report --out ${OUT} --weights ${WEIGHTS} ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "iclproof report exited ${rc}, expected ${EXPECT_RC}")
endif()
file(READ ${OUT}/report.json report)
string(JSON version GET "${report}" schema_version)
string(JSON count LENGTH "${report}" trained_models)
string(JSON verdict GET "${report}" trained_models 0 verdict)
string(JSON experiment GET "${report}" trained_models 0 experiment)
string(JSON metrics LENGTH "${report}" trained_models 0 comparison metrics)
string(JSON summary GET "${report}" summary verdict)
string(JSON plots LENGTH "${report}" trained_models 0 plots)
string(JSON first_plot GET "${report}" trained_models 0 plots 0)
if(NOT version EQUAL 3 OR NOT count EQUAL 1 OR NOT verdict STREQUAL EXPECT_VERDICT
   OR NOT experiment STREQUAL EXPERIMENT OR metrics LESS 1 OR plots LESS 1)
  message(FATAL_ERROR "report.json: schema_version ${version}, ${count} trained models, verdict "
                      "'${verdict}' (expected '${EXPECT_VERDICT}'), experiment '${experiment}', "
                      "${metrics} metrics, ${plots} plots")
endif()
if(EXPECT_VERDICT STREQUAL "fail" AND NOT summary STREQUAL "fail")
  message(FATAL_ERROR "a failed trained model must fail summary.verdict, got '${summary}'")
endif()
# Every gated metric's verdict agrees with the model's.
math(EXPR last "${metrics} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${report}" trained_models 0 comparison metrics ${i} name)
  string(JSON m_verdict GET "${report}" trained_models 0 comparison metrics ${i} verdict)
  message(STATUS "  ${name}: ${m_verdict}")
  if(EXPECT_VERDICT STREQUAL "pass" AND m_verdict STREQUAL "fail")
    message(FATAL_ERROR "gated metric ${name} failed")
  endif()
endforeach()
# The training curve is drawn and inlined in the HTML, next to the section.
if(NOT first_plot MATCHES "\\.loss_curve$")
  message(FATAL_ERROR "first plot of the model is '${first_plot}', expected its loss curve")
endif()
string(REPLACE "." "_" stem "${first_plot}")
file(READ ${OUT}/report.html html)
string(FIND "${html}" "Trained models vs constructions" section)
string(FIND "${html}" "id=\"plot-${stem}\"" figure)
if(section EQUAL -1 OR figure EQUAL -1)
  message(FATAL_ERROR "report.html lacks the trained-models section or the figure plot-${stem}")
endif()
if(NOT EXISTS ${OUT}/plots/${stem}.svg)
  find_program(GNUPLOT gnuplot)
  if(GNUPLOT)
    message(FATAL_ERROR "plots/${stem}.svg was not drawn")
  endif()
endif()
