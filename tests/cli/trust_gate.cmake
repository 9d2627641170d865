# The trust-level gate fails on a lowered level. Copies the recorded levels (LEVELS), raises the
# recorded level of PROPERTY to "proved + exact" (a measured property never reaches it), and
# requires `iclproof check --ci --certified` on that property to exit 1 and say the level fell;
# then requires the undoctored file to pass. -DEXE -DLEVELS -DPROPERTY -DOUT (scratch file)
file(READ ${LEVELS} text)
string(REGEX REPLACE "(\n${PROPERTY}) [^\n]*" "\\1 proved + exact" doctored "${text}")
if(doctored STREQUAL text)
  message(FATAL_ERROR "${PROPERTY} is not recorded in ${LEVELS} (or already proved + exact)")
endif()
file(WRITE ${OUT} "${doctored}")
execute_process(COMMAND ${EXE} check --ci --certified --property ${PROPERTY} --cases 3
                        --trust-levels ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "trust level fell from 'proved \\+ exact'")
  message(FATAL_ERROR "the gate did not fail on a lowered level (exit ${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND ${EXE} check --ci --certified --property ${PROPERTY} --cases 3
                        --trust-levels ${LEVELS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the gate failed on the recorded levels (exit ${rc}):\n${out}\n${err}")
endif()
message(STATUS "the gate fails on a lowered level and passes on the recorded one")
