# Runs EXE with ARGS and requires: exit code 2, exactly one line on stderr starting with
# "iclproof: error:" (or -DPREFIX=..., for a script of the tests: "render_html: error:"), nothing
# that looks like a crash.
# Optional -DMKFIFO=path: make a named pipe there first (nobody ever writes to it).
# Optional -DEMPTY_STDOUT=ON: nothing on stdout, i.e. rejected before any work began.
if(DEFINED MKFIFO)
  file(REMOVE ${MKFIFO})
  execute_process(COMMAND mkfifo ${MKFIFO} RESULT_VARIABLE fifo_rc)
  if(NOT fifo_rc EQUAL 0)
    message(FATAL_ERROR "mkfifo ${MKFIFO} failed")
  endif()
endif()
if(NOT DEFINED PREFIX)
  set(PREFIX "iclproof: error: ")
endif()
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(STRIP "${err}" err_stripped)
string(REGEX MATCHALL "\n" newlines "${err_stripped}")
list(LENGTH newlines extra_lines)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit code 2, got '${rc}'\nstdout: ${out}\nstderr: ${err}")
endif()
string(FIND "${err_stripped}" "${PREFIX}" prefix_at)
if(NOT prefix_at EQUAL 0 OR extra_lines GREATER 0)
  message(FATAL_ERROR "expected one '${PREFIX}' line on stderr, got:\n${err}")
endif()
message(STATUS "rejected as expected: ${err_stripped}")
# Optional -DMATCH=regex: the error line must say what was wrong (not some other error).
if(DEFINED MATCH AND NOT err_stripped MATCHES "${MATCH}")
  message(FATAL_ERROR "the error line does not match '${MATCH}':\n${err}")
endif()
if(EMPTY_STDOUT AND NOT out STREQUAL "")
  message(FATAL_ERROR "expected rejection before any work, but stdout has:\n${out}")
endif()
