# CI seed sweep: trains one preset over seeds FIRST..LAST with snapshots along training,
# compares the final weights as a sweep and the snapshots as trajectories, and requires at least
# MIN_PASS seeds to pass every gated metric (the acceptance criterion ">= 80% of seeds").
#   -DTRAIN_SEEDS=scripts/train-seeds.sh -DBUILD=<build dir> -DCONFIG=... -DPRESET=ci
#   -DFIRST=1 -DLAST=5 -DMIN_PASS=4 -DPOINTS=6 [-DFULL_POINTS=12] -DOUT=<dir> -DEXE=<iclproof>
# POINTS snapshots per seed; FULL_POINTS instead when the environment has ICLPROOF_FULL_TESTS=1
# (scripts/run-tests.sh --full). Prints the sweep table (seeds passing, median/min/max per
# metric), each seed's trajectory and crossing step, and the wall-clock seconds of the training
# and of the comparisons.
if(DEFINED FULL_POINTS AND "$ENV{ICLPROOF_FULL_TESTS}" STREQUAL "1")
  set(POINTS ${FULL_POINTS})
  message(STATUS "ICLPROOF_FULL_TESTS=1: ${POINTS} snapshots per seed")
else()
  message(STATUS "${POINTS} snapshots per seed (ICLPROOF_FULL_TESTS=1: ${FULL_POINTS})")
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
string(TIMESTAMP t0 "%s" UTC)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ICLPROOF_BUILD_DIR=${BUILD}
                        bash ${TRAIN_SEEDS} ${CONFIG} ${PRESET} ${FIRST} ${LAST} ${OUT}
                        --device cpu --trajectory ${POINTS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP t1 "%s" UTC)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)
  message(FATAL_ERROR "the seed sweep did not run (exit ${rc})")
endif()
file(READ ${OUT}/sweep.json sweep)
string(JSON passed GET "${sweep}" files_passed)
string(JSON files GET "${sweep}" files)
file(GLOB snapshots ${OUT}/seed-*.step-*.json)
execute_process(COMMAND ${EXE} compare --trajectory ${snapshots} --tasks 1000
                        --json ${OUT}/trajectory.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP t2 "%s" UTC)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compare --trajectory failed (exit ${rc})")
endif()
math(EXPR train_compare "${t1} - ${t0}")
math(EXPR trajectory "${t2} - ${t1}")
message(STATUS "wall clock: training + sweep comparison ${train_compare} s, trajectories ${trajectory} s")
if(passed LESS MIN_PASS)
  message(FATAL_ERROR "${passed} of ${files} seeds pass every gated metric; at least ${MIN_PASS} must")
endif()
message(STATUS "${passed} of ${files} seeds pass every gated metric (at least ${MIN_PASS} required)")
