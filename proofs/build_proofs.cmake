# build_proofs.cmake -- builds the Coq theories of proofs/ OUT of the source tree.
# Run as: cmake -DSRC_DIR=<proofs> -DOUT_DIR=<build>/proofs/coq -DCOQ_MAKEFILE=<path>
#               -DMAKE_PROGRAM=<GNU make> [-DJOBS=1] -P build_proofs.cmake
# Copies _CoqProject and the .v files it lists into OUT_DIR (timestamps kept, so the build is
# incremental), runs coq_makefile there and then make.  Used by the `proofs_build` target, for
# development only: the audit (audit.sh) never reuses these .vo files, it builds from clean.
cmake_minimum_required(VERSION 3.25)
foreach(var SRC_DIR OUT_DIR COQ_MAKEFILE MAKE_PROGRAM)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "build_proofs.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED JOBS)
  set(JOBS 1)
endif()

file(STRINGS "${SRC_DIR}/_CoqProject" project_lines)
set(theories "")
foreach(line IN LISTS project_lines)
  string(STRIP "${line}" line)
  if(line MATCHES "^[A-Za-z0-9_/]+\\.v$")
    list(APPEND theories "${line}")
  endif()
endforeach()
if(theories STREQUAL "")
  message(FATAL_ERROR "build_proofs.cmake: no .v files listed in ${SRC_DIR}/_CoqProject")
endif()

file(MAKE_DIRECTORY "${OUT_DIR}")
foreach(f IN LISTS theories ITEMS _CoqProject)
  if(NOT EXISTS "${SRC_DIR}/${f}")
    message(FATAL_ERROR "build_proofs.cmake: ${SRC_DIR}/${f} (listed in _CoqProject) is missing")
  endif()
  get_filename_component(sub "${f}" DIRECTORY)
  file(COPY "${SRC_DIR}/${f}" DESTINATION "${OUT_DIR}/${sub}")
endforeach()

if(NOT EXISTS "${OUT_DIR}/Makefile.coq" OR "${OUT_DIR}/_CoqProject" IS_NEWER_THAN "${OUT_DIR}/Makefile.coq")
  execute_process(COMMAND "${COQ_MAKEFILE}" -f _CoqProject -o Makefile.coq
                  WORKING_DIRECTORY "${OUT_DIR}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "build_proofs.cmake: coq_makefile failed (${rc})")
  endif()
endif()

string(TIMESTAMP t0 "%s")
# TIMED=1: one line per theory compiled, "File.vo (real: s, user: s, ...)".
execute_process(COMMAND "${MAKE_PROGRAM}" -f Makefile.coq -j${JOBS} TIMED=1
                WORKING_DIRECTORY "${OUT_DIR}" RESULT_VARIABLE rc)
string(TIMESTAMP t1 "%s")
math(EXPR secs "${t1} - ${t0}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "build_proofs.cmake: the Coq build failed (${rc}) after ${secs} s")
endif()
message(STATUS "Coq theories built in ${OUT_DIR} (${secs} s)")
