# Trains a preset with iclproof-train, then requires `compare` to pass (exit 0).
#   -DTRAIN=... -DCOMPARE="exe;args" -DCONFIG=... -DPRESET=ci -DOUT=...
execute_process(COMMAND ${TRAIN} --config ${CONFIG} --preset ${PRESET} --out ${OUT} --device cpu --quiet
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "iclproof-train failed (${rc})")
endif()
execute_process(COMMAND ${COMPARE} ${OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message(STATUS "${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compare did not pass (${rc})")
endif()
