# ctest fuzz.weights_reader: builds the libFuzzer harness with clang (tests/fuzz/CMakeLists.txt)
# and runs it for SECONDS seconds from the seed corpus. New inputs go to a scratch corpus in the
# build tree (libFuzzer writes into its first corpus directory), never into the sources. A crash,
# a sanitizer report or an exception other than weights_file_error with a one-line message fails.
#   -DSOURCE=tests/fuzz -DBINARY=<dir> -DSECONDS=10
foreach(step IN ITEMS configure build)
  if(step STREQUAL configure)
    set(cmd ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -DCMAKE_CXX_COMPILER=clang++
            -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  else()
    set(cmd ${CMAKE_COMMAND} --build ${BINARY})
  endif()
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fuzz harness: ${step} failed (${rc}):\n${out}${err}")
  endif()
endforeach()
file(MAKE_DIRECTORY ${BINARY}/corpus)
execute_process(COMMAND ${BINARY}/weights_reader_fuzz -max_total_time=${SECONDS} -max_len=65536
                        -print_final_stats=1 ${BINARY}/corpus ${SOURCE}/corpus
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${err}")
message(STATUS "fuzz.weights_reader: ${SECONDS} s, ${runs}, exit ${rc}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the weights reader failed under the fuzzer (${rc}):\n${err}")
endif()
