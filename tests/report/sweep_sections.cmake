# `iclproof report --seed-sweep ... --trajectory ...`: with the checked-in single-layer
# CI weights as a one-seed sweep and a one-snapshot trajectory, the report passes its own schema
# check, and report.md has the sweep table and the crossing table.
#   -DEXE=iclproof -DWEIGHTS=vonoswald_single_lsa_ci.json -DOUT=<dir>
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${EXE} report --property "population_optima.step_size*" --no-sweep
                        --cases 5 --compare-tasks 200 --seed-sweep ${WEIGHTS}
                        --trajectory ${WEIGHTS} --trajectory-tasks 200 --out ${OUT} --no-plots
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "report exited ${rc}: ${out}${err}")
endif()
file(READ ${OUT}/report.md md)
foreach(needle "### Seed sweep: vonoswald_single_lsa (1 seeds): 1 of 1 pass every gated metric"
               "| weights.KQ_relative_distance | 1/1 |"
               "### Convergence along training: vonoswald_single_lsa (ci preset)"
               "| 1 | 3000 | 3000 |")
  string(FIND "${md}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "report.md lacks '${needle}'")
  endif()
endforeach()
file(READ ${OUT}/report.json js)
string(JSON n LENGTH "${js}" trajectories 0 points)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "report.json: ${n} trajectory points, expected 1")
endif()
