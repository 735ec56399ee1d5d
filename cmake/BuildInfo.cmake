# qs_build_info: an interface library whose users can #include "qs_build_info.h" (QS_VERSION,
# QS_REVISION, QS_VERSION_TEXT). The header is regenerated on every build by
# cmake/build_info.cmake and rewritten only when the revision (or version) changes: a new
# commit recompiles the two files that print it (app/gui/main.cpp, app/cli/command_line.cpp),
# nothing else; a build without git (a release tarball) says "unknown". -DQS_REVISION=... fixes the revision instead.
find_package(Git QUIET)
set(QS_REVISION "" CACHE STRING "Revision to report in --version (empty: ask git at build time)")
set(QS_BUILD_INFO_DIR ${PROJECT_BINARY_DIR}/generated)
set(QS_BUILD_INFO_HEADER ${QS_BUILD_INFO_DIR}/qs_build_info.h)
add_custom_target(qs_build_info_header
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${QS_BUILD_INFO_HEADER}
          -DVERSION=${PROJECT_VERSION} -DGIT=${GIT_EXECUTABLE} -DREVISION=${QS_REVISION}
          -P ${CMAKE_CURRENT_LIST_DIR}/build_info.cmake
  BYPRODUCTS ${QS_BUILD_INFO_HEADER}
  VERBATIM)
add_library(qs_build_info INTERFACE)
target_include_directories(qs_build_info INTERFACE ${QS_BUILD_INFO_DIR})
add_dependencies(qs_build_info qs_build_info_header)
