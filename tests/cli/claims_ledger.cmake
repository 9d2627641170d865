# The checked-in claims ledger (proofs/CLAIMS.md) must equal what `iclproof list --claims-md`
# generates from the citations in properties/*.cpp. -DEXE=iclproof -DLEDGER=proofs/CLAIMS.md
# -DOUT=scratch file. To update: iclproof list --claims-md > proofs/CLAIMS.md
execute_process(COMMAND ${EXE} list --claims-md RESULT_VARIABLE rc OUTPUT_FILE ${OUT}
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "iclproof list --claims-md failed (${rc}): ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${LEDGER} ${OUT} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "${LEDGER} differs from the generated ledger ${OUT}: a citation or "
                      "coverage changed without regenerating it; run\n"
                      "  iclproof list --claims-md > proofs/CLAIMS.md\nand review the diff")
endif()
message(STATUS "${LEDGER} is the generated ledger")
