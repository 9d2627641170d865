# check.json against reports/check.schema.json with python3-jsonschema (tests/report/
# validate_schema.py, which also requires the schema to reject a copy with a required field
# removed and one with a property's "cases" as a string). The runs cover a pass, a failure with
# its shrunk counterexample, a VACUOUS property, the not-applicable entries of --scalar rational,
# and --certified with a proof audit.
# With -DPLANT=ON the schema is first narrowed to allow only "verdict": "pass" (a planted
# violation: the runs hold failures), and the validation must fail.
#   -DEXE=iclproof_verdict_fixture -DWORK=dir -DSOURCE=<iclproof tree> [-DPLANT=ON]
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(SCHEMA ${SOURCE}/reports/check.schema.json)
if(PLANT)
  file(READ ${SCHEMA} text)
  string(REPLACE "\"enum\": [\"pass\", \"fail\"]" "\"enum\": [\"pass\"]" planted "${text}")
  if(planted STREQUAL text)
    message(FATAL_ERROR "PLANT: the verdict enum was not found in ${SCHEMA}")
  endif()
  set(SCHEMA ${WORK}/planted.schema.json)
  file(WRITE ${SCHEMA} "${planted}")
endif()
set(runs
    "double|check --property *.test_only_* --scalar double --cases 100"
    "rational|check --property references.* --scalar rational --cases 3"
    "certified|check --certified --property vonoswald.* --cases 3")
set(files "")
foreach(run IN LISTS runs)
  string(REPLACE "|" ";" parts "${run}")
  list(GET parts 0 name)
  list(GET parts 1 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  execute_process(COMMAND ${EXE} ${args} --json ${WORK}/${name}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT (rc EQUAL 0 OR rc EQUAL 1) OR NOT EXISTS ${WORK}/${name}.json)
    message(FATAL_ERROR "${name}: exit ${rc}, no check.json\n${out}${err}")
  endif()
  list(APPEND files ${WORK}/${name}.json)
endforeach()
execute_process(COMMAND /usr/bin/python3 ${SOURCE}/tests/report/validate_schema.py ${SCHEMA} ${files}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check.json does not validate against ${SCHEMA}")
endif()
