# Reading check.json and report.json in the verdict tests' cmake -P scripts, written once
# (include()d by certified_gate.cmake, verdict_fails.cmake, jobs_determinism.cmake and
# vacuous_report_and_merge.cmake).

# json_property_index(<out> <json> <name> <what>): the index in "properties" of the entry whose
# "name" is <name>; a FATAL_ERROR naming <what> (the file or command) when there is none.
function(json_property_index out json name what)
  string(JSON n LENGTH "${json}" properties)
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON pname GET "${json}" properties ${i} name)
      if(pname STREQUAL name)
        set(${out} ${i} PARENT_SCOPE)
        return()
      endif()
    endforeach()
  endif()
  message(FATAL_ERROR "${what} lacks ${name}")
endfunction()

# require_report_summary(<json> <what> <verdict> <failed> [<passed>]): report.json's summary has
# that verdict and that many failed (and passed) properties.
function(require_report_summary json what want_verdict want_failed)
  string(JSON verdict GET "${json}" summary verdict)
  string(JSON failed GET "${json}" summary failed)
  set(got "verdict '${verdict}', ${failed} failed")
  set(want "${want_verdict}, ${want_failed} failed")
  set(ok ON)
  if(NOT verdict STREQUAL want_verdict OR NOT failed EQUAL want_failed)
    set(ok OFF)
  endif()
  if(ARGC GREATER 4)
    string(JSON passed GET "${json}" summary passed)
    string(APPEND got ", ${passed} passed")
    string(APPEND want ", ${ARGV4} passed")
    if(NOT passed EQUAL ARGV4)
      set(ok OFF)
    endif()
  endif()
  if(NOT ok)
    message(FATAL_ERROR "${what} summary: ${got}; expected ${want}")
  endif()
endfunction()
