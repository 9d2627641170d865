# Runs EXE with ARGS and requires exit code EXPECTED (0: PASS, 1: FAIL, 3: INCONCLUSIVE) and a
# stdout line "verdict: PASS...", "verdict: FAIL" or "verdict: INCONCLUSIVE"; a signal
# (execute_process reports it as text, e.g.
# "Segmentation fault") or any other code fails the test.
# Optional -DMATCH=regex: stdout must match it (e.g. the gated metric that fails).
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "expected exit code ${EXPECTED}, got '${rc}'\nstdout: ${out}\nstderr: ${err}")
endif()
if(EXPECTED STREQUAL "0")
  set(verdict "verdict: PASS")
elseif(EXPECTED STREQUAL "3")
  set(verdict "verdict: INCONCLUSIVE")
else()
  set(verdict "verdict: FAIL")
endif()
if(NOT out MATCHES "${verdict}")
  message(FATAL_ERROR "expected '${verdict}' on stdout, got:\n${out}")
endif()
if(DEFINED MATCH AND NOT out MATCHES "${MATCH}")
  message(FATAL_ERROR "stdout does not match '${MATCH}':\n${out}")
endif()
message(STATUS "${verdict} as expected")
