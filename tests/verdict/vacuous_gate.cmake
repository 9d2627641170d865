# The sharpness gate (src/harness/sharpness.hpp) on sharpness.test_only_vacuous, whose tolerance
# is 10^10 times its error: at 100 cases check prints VACUOUS and exits 0, check --ci exits 1;
# below 100 cases the gate does not judge (PASS). sharpness.test_only_vacuous_second_check has a
# tight worst check (margin +0.6) and a second check 10^10 too loose: check --ci must fail it
# through the per-check gate and name the loose check.   -DEXE=iclproof_verdict_fixture
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
set(p sharpness.test_only_vacuous_second_check)
execute_process(COMMAND ${EXE} check --ci --property ${p} --scalar double --cases 100
                        --json ${OUT_DIR}/vacuous_second_check.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT out MATCHES "${p} [^\n]* \\+0\\.6 +VACUOUS"
   OR NOT out MATCHES "vacuous check 'eps <= 10\\^10 eps [^\n]*': margin \\+10\\.0 > \\+4\\.0"
   OR NOT out MATCHES "0 passed, 1 failed")
  message(FATAL_ERROR "check --ci, a vacuous second check: expected exit 1, margin +0.6, VACUOUS "
                      "naming the loose check, got '${rc}'\n${out}${err}")
endif()
file(READ ${OUT_DIR}/vacuous_second_check.json json)
string(JSON n LENGTH "${json}" properties 0 vacuous_checks)
string(JSON label GET "${json}" properties 0 vacuous_checks 0 label)
string(JSON nchecks LENGTH "${json}" properties 0 check_margins)
if(NOT n EQUAL 1 OR NOT label MATCHES "^eps <= 10\\^10" OR NOT nchecks EQUAL 2)
  message(FATAL_ERROR "--json: expected 1 vacuous check (the loose one) of 2, got ${n} (${label}) "
                      "of ${nchecks}\n${json}")
endif()
