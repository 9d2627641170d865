# The sharpness gate (src/harness/sharpness.hpp) on sharpness.test_only_vacuous, whose tolerance
# is 10^10 times its error: at 100 cases check prints VACUOUS and exits 0, check --ci exits 1;
# below 100 cases the gate does not judge (PASS).   -DEXE=iclproof_verdict_fixture
set(p sharpness.test_only_vacuous)
execute_process(COMMAND ${EXE} check --property ${p} --scalar double --cases 100
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "${p} [^\n]* VACUOUS")
  message(FATAL_ERROR "check: expected exit 0 and VACUOUS, got '${rc}'\n${out}${err}")
endif()
execute_process(COMMAND ${EXE} check --ci --property ${p} --scalar double --cases 100
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "${p} [^\n]* VACUOUS" OR NOT out MATCHES "0 passed, 1 failed")
  message(FATAL_ERROR "check --ci: expected exit 1, VACUOUS, 0 passed 1 failed, got '${rc}'\n${out}${err}")
endif()
execute_process(COMMAND ${EXE} check --ci --property ${p} --scalar double --cases 99
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "${p} [^\n]* PASS")
  message(FATAL_ERROR "check --ci at 99 cases: expected exit 0 and PASS, got '${rc}'\n${out}${err}")
endif()
