# check_include_layers.cmake -- every #include "<folder>/..." in src/ and properties/ follows an
# allowed edge between folders (ctest layers.includes_point_down). The folders form layers, each
# using only those below it, so a construction never depends on the test harness, the harness
# never on the reports, and only the command line sees everything:
#
#   core                      scalars, precision, linear algebra, rounding-error constants
#   harness                   properties, their registry and runner, sharpness, tolerances
#   tasks                     in-context regression task generators (draw under harness sizes)
#   trust                     trust levels, the proof audit, the one verdict (trust/verdict.hpp)
#   references lsa memformer raw   the constructions and their closed-form references
#   compare                   learned weights against the constructions
#   report                    report.json / .md / .html, plots, findings and families registries
#   properties                the properties of each family (register findings, plots, families)
#   cli                       the command line: check, list, report, merge, compare
#   python                    the Python package's engine (iclproof.verify, iclproof.list)
#   trainer                   iclproof-train: talks to the rest only through weights files
#
# Run as: cmake -DSOURCE=<iclproof tree> [-DPLANT=<file>:<folder>] -P check_include_layers.cmake
# PLANT adds one include of <folder>/ to <file> (a path under SOURCE) before checking: the ctest
# layers.includes_point_down_fails_on_a_planted_include shows the check failing on it.
# A new src/ folder (a new family) must be added to the list below, with the folders it uses.
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE)
  message(FATAL_ERROR "check_include_layers.cmake: -DSOURCE=<iclproof tree> is required")
endif()

# allowed_<folder>: the folders a file in <folder> may include from (besides its own).
set(allowed_core "")
set(allowed_harness core)
set(allowed_tasks core harness)
set(allowed_trust core harness)
set(allowed_references core)
set(allowed_lsa core)
set(allowed_memformer core references)
set(allowed_raw core references)
set(allowed_newton_schulz core lsa)
set(allowed_iterative_newton core lsa newton_schulz)
set(allowed_implicit_weights core lsa)
set(allowed_gdpp_rate core lsa)
set(allowed_bai core lsa references)
# compare uses harness for the progress reporter of its task loops (harness/progress.hpp, as the
# trainer does); harness sits below compare, so the edge points down.
set(allowed_compare core harness tasks references lsa memformer implicit_weights)
set(allowed_report core harness tasks trust compare)
set(allowed_properties core harness tasks trust references lsa memformer raw newton_schulz
                         iterative_newton implicit_weights gdpp_rate bai report)
set(allowed_cli core harness tasks trust references lsa memformer raw newton_schulz
                  iterative_newton implicit_weights gdpp_rate bai compare report)
# The Python package's engine (src/python): a command line of its own beside cli's.
set(allowed_python core harness tasks trust references lsa memformer raw newton_schulz
                   iterative_newton implicit_weights gdpp_rate bai compare report cli)
# The trainer uses the progress reporter only (harness/progress.hpp: standard library alone).
set(allowed_trainer harness)
set(layers core harness tasks trust references lsa memformer raw newton_schulz iterative_newton
           implicit_weights gdpp_rate bai compare report properties cli python trainer)

# Edges between single files, inside a folder: "<file regex> => <include regex>" pairs that must
# not occur. The model-file readers of compare point one way (compare/model_files.hpp): the
# tensor-file readers (bytes -> tensors) and the weights-file parser know nothing of the peers'
# layouts (tensors -> models), and neither the layouts nor the readers know the dispatcher that
# reads files and calls them.
set(forbidden_file_edges
    "^src/compare/(weights_file|tensor_archives|archive_bytes|torch_checkpoint)\\.[ch]pp$ => ^compare/(peer_models|model_files)\\.hpp$"
    "^src/compare/weights_file\\.[ch]pp$ => ^compare/tensor_archives\\.hpp$"
    "^src/compare/peer_model[a-z_]*\\.[ch]pp$ => ^compare/model_files\\.hpp$")

file(GLOB_RECURSE sources RELATIVE ${SOURCE} ${SOURCE}/src/*.hpp ${SOURCE}/src/*.cpp
     ${SOURCE}/src/*.in ${SOURCE}/properties/*.hpp ${SOURCE}/properties/*.cpp)
set(planted_file "")
if(PLANT)
  string(REPLACE ":" ";" plant "${PLANT}")
  list(GET plant 0 planted_file)
  list(GET plant 1 planted_folder)
endif()

set(violations "")
set(checked 0)
foreach(rel IN LISTS sources)
  # The folder of a file: src/<folder>/... or properties/...
  if(rel MATCHES "^src/([^/]+)/")
    set(from ${CMAKE_MATCH_1})
  elseif(rel MATCHES "^properties/")
    set(from properties)
  else()
    continue()  # src/iclproof.hpp, the umbrella header: includes everything on purpose
  endif()
  if(NOT from IN_LIST layers)
    string(APPEND violations "\n  ${rel}: folder '${from}' is not in the layer list of "
                             "cmake/check_include_layers.cmake (add it with the folders it uses)")
    continue()
  endif()
  file(STRINGS ${SOURCE}/${rel} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"/]+/")
  if(rel STREQUAL planted_file)
    if(planted_folder MATCHES "/")  # a whole include path: a file edge
      list(APPEND includes "#include \"${planted_folder}\"")
    else()
      list(APPEND includes "#include \"${planted_folder}/planted.hpp\"")
    endif()
  endif()
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*$" "\\1" target "${line}")
    foreach(edge IN LISTS forbidden_file_edges)
      string(REGEX REPLACE "^(.*) => (.*)$" "\\1" file_regex "${edge}")
      string(REGEX REPLACE "^(.*) => (.*)$" "\\2" include_regex "${edge}")
      if(rel MATCHES "${file_regex}" AND target MATCHES "${include_regex}")
        string(APPEND violations "\n  ${rel}: ${line}   (a file edge against the one direction "
                                 "of the model-file readers: ${edge})")
      endif()
    endforeach()
  endforeach()
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"/]+)/.*$" "\\1" to "${line}")
    math(EXPR checked "${checked} + 1")
    if(to STREQUAL from OR NOT to IN_LIST layers)
      continue()  # own folder, or a library (<fmt/...> is <>, "nlohmann/..." is not ours)
    endif()
    if(NOT to IN_LIST allowed_${from})
      string(APPEND violations "\n  ${rel}: ${line}   ('${from}' may include only: "
                               "${allowed_${from}})")
    endif()
  endforeach()
endforeach()
list(LENGTH sources nfiles)
if(violations)
  message(FATAL_ERROR "includes that go up the layers (cmake/check_include_layers.cmake):"
                      "${violations}")
endif()
message(STATUS "${checked} includes of ${nfiles} files follow the allowed folder edges")
