# The API reference: `cmake --build <dir> --target docs` runs Debian's doxygen
# (`bash .ci/deps.sh` installs it) on the installed headers (docs/Doxyfile.in)
# into <dir>/docs/api/html; warnings go to <dir>/docs/api/warnings.log and fail
# the target (WARN_AS_ERROR = FAIL_ON_WARNINGS). The tests docs/api-reference
# and docs/api-reference-planted (tests/docs/CMakeLists.txt,
# cmake/SymerrDocsCheck.cmake) run the same check in the test command.
# See docs/api-reference.md.
find_program(SYMERR_DOXYGEN doxygen)
set(SYMERR_DOCS_OUTPUT ${PROJECT_BINARY_DIR}/docs/api)
configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${PROJECT_BINARY_DIR}/docs/Doxyfile @ONLY)
if(SYMERR_DOXYGEN)
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E make_directory ${SYMERR_DOCS_OUTPUT}
    COMMAND ${SYMERR_DOXYGEN} ${PROJECT_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "API reference (doxygen) into ${SYMERR_DOCS_OUTPUT}/html"
    VERBATIM)
endif()
