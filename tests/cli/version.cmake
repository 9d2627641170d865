# `iclproof --version` exits 0 and names the version, the git commit, the compiler and the
# Boost, MPFR, Eigen and Coq versions (the same entries as report.json "tools").
execute_process(COMMAND ${EXE} --version RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message(STATUS "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "iclproof --version exited ${rc}\n${out}${err}")
endif()
foreach(re IN ITEMS "^iclproof [0-9]+\\.[0-9]+\\.[0-9]+\n"
                    "\ngit_commit: ([0-9a-f]+|unknown)"
                    "\ncompiler: (gcc|clang) [0-9]"
                    "\nboost: [0-9]+\\.[0-9]+\\.[0-9]+\n"
                    "\nmpfr: [0-9]+\\.[0-9]+\\.[0-9]+\n"
                    "\neigen: [0-9]+\\.[0-9]+\\.[0-9]+\n"
                    "\ncoq: ([0-9]+\\.[0-9]+|unavailable)")
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "iclproof --version does not match '${re}':\n${out}")
  endif()
endforeach()
