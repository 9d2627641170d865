# check_families.cmake -- the lists derived from families.cmake agree with the tree (ctest
# families.lists_agree), or, with -DWRITE=ON, rewrites the two derived files kept in the tree.
# Run as: cmake -DSOURCE=<iclproof tree> [-DEXE=<iclproof>] [-DFIXTURE=<iclproof_verdict_fixture>]
#               [-DDROP_FAMILY=<id>] [-DWRITE=ON] -P check_families.cmake
# Fails (listing every disagreement) when
#   - proofs/_CoqProject or proofs/real_analysis_files.txt is not the text the registrations give;
#   - a proofs/*.v belongs to no family, or a registered theory file does not exist;
#   - a proofs/statements/*.v is not <id>.v or <id>_check.v of a registered family <id>, or a
#     check file has no statement file;
#   - (with EXE) a property prefix of `iclproof list` is not a registered family, or a registered
#     family has no property;
#   - (with FIXTURE) a registered family has not both test-only properties <id>.test_only_holds
#     and <id>.test_only_fails_on_purpose in `FIXTURE list` (the verdict tests run them:
#     tests/verdict/deliberately_failing_properties.cpp derives them from the registrations);
#   - a registered family has no properties/<id>.cpp or no tests/unit/<id>_test.cpp;
#   - a trained experiment has no src/trainer/configs/<name>.json, or a config is not registered.
# DROP_FAMILY=<id> drops one registration first: the ctest
# families.lists_agree_fails_without_a_registration shows the check failing on it.
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE)
  message(FATAL_ERROR "check_families.cmake: -DSOURCE=<iclproof tree> is required")
endif()
include(${SOURCE}/cmake/iclproof_families.cmake)
include(${SOURCE}/families.cmake)
if(DROP_FAMILY)
  get_property(ids GLOBAL PROPERTY ICLPROOF_FAMILY_IDS)
  list(REMOVE_ITEM ids ${DROP_FAMILY})
  set_property(GLOBAL PROPERTY ICLPROOF_FAMILY_IDS ${ids})
endif()

iclproof_coqproject_text(${SOURCE}/proofs coqproject)
iclproof_real_analysis_text(${SOURCE}/proofs real_analysis)
if(WRITE)
  file(WRITE ${SOURCE}/proofs/_CoqProject "${coqproject}")
  file(WRITE ${SOURCE}/proofs/real_analysis_files.txt "${real_analysis}")
  message(STATUS "wrote proofs/_CoqProject and proofs/real_analysis_files.txt from families.cmake")
  return()
endif()

set(errors "")
function(disagree)
  string(JOIN "" text ${ARGN})
  set(errors ${errors} "${text}" PARENT_SCOPE)
endfunction()

# The derived files kept in the tree.
foreach(pair "_CoqProject;coqproject" "real_analysis_files.txt;real_analysis")
  list(GET pair 0 name)
  list(GET pair 1 var)
  file(READ ${SOURCE}/proofs/${name} have)
  if(NOT have STREQUAL ${var})
    disagree("proofs/${name} is not the list families.cmake gives (run `cmake --build <build> "
             "--target update_family_lists`), which writes:\n${${var}}")
  endif()
endforeach()

# Every theory belongs to exactly one family (iclproof_family rejects a second owner) and exists.
iclproof_family_ids(ids)
set(registered_proofs "")
foreach(id IN LISTS ids)
  iclproof_family_get(${id} PROOFS p)
  iclproof_family_get(${id} REAL_ANALYSIS_PROOFS r)
  list(APPEND registered_proofs ${p} ${r})
endforeach()
file(GLOB theories RELATIVE ${SOURCE}/proofs ${SOURCE}/proofs/*.v)
foreach(v IN LISTS theories)
  if(NOT v IN_LIST registered_proofs)
    disagree("proofs/${v} belongs to no family (add it to PROOFS or REAL_ANALYSIS_PROOFS)")
  endif()
endforeach()
foreach(v IN LISTS registered_proofs)
  if(NOT EXISTS ${SOURCE}/proofs/${v})
    disagree("proofs/${v} is registered but does not exist")
  endif()
endforeach()

# Every statement file is proofs/statements/<id>.v or <id>_check.v of a registered family <id>
# (discovered by name), and a check file has its statement file.
file(GLOB statement_files RELATIVE ${SOURCE}/proofs/statements ${SOURCE}/proofs/statements/*.v)
foreach(v IN LISTS statement_files)
  string(REGEX REPLACE "(_check)?\\.v$" "" id "${v}")
  if(NOT id IN_LIST ids)
    disagree("proofs/statements/${v} is not <family>.v or <family>_check.v of a family of "
             "families.cmake")
  elseif(v MATCHES "_check\\.v$" AND NOT EXISTS ${SOURCE}/proofs/statements/${id}.v)
    disagree("proofs/statements/${v} has no statement file proofs/statements/${id}.v")
  endif()
endforeach()

# Every family's SOURCES folder exists; every src/ folder with a CMakeLists.txt is a family's
# SOURCES or an infrastructure folder that src/CMakeLists.txt adds by name.
iclproof_family_source_dirs(family_dirs)
foreach(dir IN LISTS family_dirs)
  if(NOT EXISTS ${SOURCE}/src/${dir}/CMakeLists.txt)
    disagree("a family's SOURCES folder src/${dir} has no CMakeLists.txt")
  endif()
endforeach()
file(READ ${SOURCE}/src/CMakeLists.txt src_lists)
string(REGEX MATCHALL "add_subdirectory\\(([a-z0-9_]+)\\)" named "${src_lists}")
set(infrastructure_dirs "")
foreach(n IN LISTS named)
  string(REGEX REPLACE "add_subdirectory\\(([a-z0-9_]+)\\)" "\\1" n "${n}")
  list(APPEND infrastructure_dirs ${n})
endforeach()
file(GLOB src_lists_files RELATIVE ${SOURCE}/src ${SOURCE}/src/*/CMakeLists.txt)
foreach(f IN LISTS src_lists_files)
  get_filename_component(dir ${f} DIRECTORY)
  if(NOT dir IN_LIST family_dirs AND NOT dir IN_LIST infrastructure_dirs)
    disagree("src/${dir} has a CMakeLists.txt but is neither a family's SOURCES (families.cmake) "
             "nor added by src/CMakeLists.txt")
  endif()
endforeach()

# Every family has its properties file and its unit tests; every experiment its config.
set(registered_experiments "")
foreach(id IN LISTS ids)
  if(NOT EXISTS ${SOURCE}/properties/${id}.cpp)
    disagree("family ${id} has no properties/${id}.cpp")
  endif()
  if(NOT EXISTS ${SOURCE}/tests/unit/${id}_test.cpp)
    disagree("family ${id} has no tests/unit/${id}_test.cpp (its unit and mutation tests)")
  endif()
  iclproof_family_get(${id} EXPERIMENTS experiments)
  foreach(e IN LISTS experiments)
    string(REGEX REPLACE "=.*" "" name "${e}")
    list(APPEND registered_experiments ${name})
    if(NOT EXISTS ${SOURCE}/src/trainer/configs/${name}.json)
      disagree("experiment ${name} (family ${id}) has no src/trainer/configs/${name}.json")
    endif()
  endforeach()
endforeach()
file(GLOB configs RELATIVE ${SOURCE}/src/trainer/configs ${SOURCE}/src/trainer/configs/*.json)
foreach(c IN LISTS configs)
  string(REGEX REPLACE "\\.json$" "" name "${c}")
  if(NOT name IN_LIST registered_experiments)
    disagree("src/trainer/configs/${c} is an experiment of no family (EXPERIMENTS)")
  endif()
endforeach()

# <out> = the property names `<exe> list` prints (one a line, first on the line).
function(listed_properties exe out)
  execute_process(COMMAND ${exe} list OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_families.cmake: `${exe} list` exited ${rc}")
  endif()
  string(REGEX MATCHALL "(^|\n)[a-z][a-z0-9_]*\\.[a-z0-9_]+" names "${listing}")
  set(stripped "")
  foreach(n IN LISTS names)
    string(STRIP "${n}" n)
    list(APPEND stripped ${n})
  endforeach()
  set(${out} ${stripped} PARENT_SCOPE)
endfunction()

# The property prefixes of the built executable against the registered families.
if(EXE)
  listed_properties(${EXE} names)
  set(prefixes "")
  foreach(n IN LISTS names)
    string(REGEX REPLACE "\\..*" "" prefix "${n}")
    list(APPEND prefixes ${prefix})
  endforeach()
  list(REMOVE_DUPLICATES prefixes)
  if(prefixes STREQUAL "")
    message(FATAL_ERROR "check_families.cmake: `${EXE} list` printed no property")
  endif()
  foreach(p IN LISTS prefixes)
    if(NOT p IN_LIST ids)
      disagree("properties ${p}.* are listed by iclproof but ${p} is not registered in "
               "families.cmake")
    endif()
  endforeach()
  foreach(id IN LISTS ids)
    if(NOT id IN_LIST prefixes)
      disagree("family ${id} is registered but iclproof lists no property ${id}.*")
    endif()
  endforeach()
endif()

# Every registered family's deliberately failing property (and its passing twin) in the verdict
# fixture, which tests/verdict runs family by family.
if(FIXTURE)
  listed_properties(${FIXTURE} fixture_names)
  foreach(id IN LISTS ids)
    foreach(p IN ITEMS test_only_holds test_only_fails_on_purpose)
      if(NOT "${id}.${p}" IN_LIST fixture_names)
        disagree("family ${id} has no test-only property ${id}.${p} in `${FIXTURE} list` "
                 "(tests/verdict/deliberately_failing_properties.cpp)")
      endif()
    endforeach()
  endforeach()
endif()

list(LENGTH ids n_families)
list(LENGTH registered_proofs n_proofs)
if(errors)
  foreach(e IN LISTS errors)
    message(SEND_ERROR "families: ${e}")
  endforeach()
  message(FATAL_ERROR "families: the registrations of families.cmake and the tree disagree")
endif()
message(STATUS "families: ${n_families} families, ${n_proofs} theories, experiments "
               "${registered_experiments}: every derived list agrees")
