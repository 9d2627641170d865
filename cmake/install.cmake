# Install rules and the iclproof CMake package (find_package(iclproof): a project outside the
# tree builds its own families on iclproof as a library).
#
# Layout under the prefix:
#   include/iclproof/<src layout>/*.hpp      core/, harness/, lsa/, ... as in src/ (not trainer/)
#   include/iclproof/properties/*.hpp        the built-in families' property helpers
#   lib/libiclproof_core.a, libiclproof_cli.a, libiclproof_main.a
#   lib/iclproof/properties/...              the built-in properties' object files
#   bin/iclproof (and bin/iclproof-train when it is built)
#   lib/cmake/iclproof/iclproofConfig.cmake, iclproofConfigVersion.cmake, iclproofTargets.cmake
#
# Exported targets (namespace iclproof::):
#   core        the verifier library (scalars, linear algebra, tasks, references, harness,
#               constructions, report, compare)
#   cli         the subcommands (check, list, report, compare) and run_command_line()
#   main        main() = iclproof::run_command_line(argc, argv), as a static library
#   properties  the built-in properties, an OBJECT library: its objects go straight into the
#               executable that links it, so their static registrars are never dropped
#   iclproof    the installed executable
#   warnings    the project's warning flags (a link-only dependency of the static libraries)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ICLPROOF_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/iclproof)

set_target_properties(iclproof_core PROPERTIES EXPORT_NAME core)
set_target_properties(iclproof_cli PROPERTIES EXPORT_NAME cli)
set_target_properties(iclproof_main PROPERTIES EXPORT_NAME main)
set_target_properties(iclproof_properties PROPERTIES EXPORT_NAME properties)
set_target_properties(iclproof_warnings PROPERTIES EXPORT_NAME warnings)

install(TARGETS iclproof_core iclproof_cli iclproof_main iclproof_warnings iclproof
        EXPORT iclproofTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS iclproof_properties EXPORT iclproofTargets
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/iclproof/properties)
if(TARGET iclproof-train)
  # The trainer is a program, not part of the package's targets (it would drag LibTorch in).
  install(TARGETS iclproof-train RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/iclproof
        FILES_MATCHING PATTERN "*.hpp" PATTERN "trainer" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/properties/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/iclproof/properties FILES_MATCHING PATTERN "*.hpp")

install(EXPORT iclproofTargets NAMESPACE iclproof:: DESTINATION ${ICLPROOF_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/iclproofConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/iclproofConfig.cmake
                              INSTALL_DESTINATION ${ICLPROOF_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/iclproofConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/iclproofConfig.cmake
              ${PROJECT_BINARY_DIR}/iclproofConfigVersion.cmake
        DESTINATION ${ICLPROOF_INSTALL_CMAKEDIR})

# Installs into a fresh prefix, builds examples/external_family against it (find_package) and
# runs its family through the installed CLI: check --ci passes, the mutant fails, the report
# shows the family's section.
if(BUILD_TESTING)
  add_test(NAME install.external_family_builds_and_runs_against_installed_package
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR}
                   -DEXAMPLE=${PROJECT_SOURCE_DIR}/examples/external_family
                   -DWORK=${PROJECT_BINARY_DIR}/install_test
                   -DCXX=${CMAKE_CXX_COMPILER} -DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}
                   -DBUILD_TYPE=${CMAKE_BUILD_TYPE} "-DCXX_FLAGS=${CMAKE_CXX_FLAGS}"
                   "-DLINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS}"
                   -P ${CMAKE_CURRENT_LIST_DIR}/install_test.cmake)
  set_tests_properties(install.external_family_builds_and_runs_against_installed_package
                       PROPERTIES LABELS install TIMEOUT 600)
endif()
