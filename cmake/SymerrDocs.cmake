# The API reference: `cmake --build <dir> --target docs` runs Debian's doxygen
# (`bash .ci/deps.sh doxygen` installs it) on the installed headers
# (docs/Doxyfile.in) into <dir>/docs/api; its warnings go to
# <dir>/docs/api/warnings.log. Defined only when doxygen is found; not part of
# the default build or of the tests yet (it becomes a check, with doxygen in
# the test command's packages, once every public entity is documented).
find_program(SYMERR_DOXYGEN doxygen)
if(SYMERR_DOXYGEN)
  set(SYMERR_DOCS_OUTPUT ${PROJECT_BINARY_DIR}/docs/api)
  configure_file(${PROJECT_SOURCE_DIR}/docs/Doxyfile.in ${PROJECT_BINARY_DIR}/docs/Doxyfile @ONLY)
  add_custom_target(docs
    COMMAND ${CMAKE_COMMAND} -E make_directory ${SYMERR_DOCS_OUTPUT}
    COMMAND ${SYMERR_DOXYGEN} ${PROJECT_BINARY_DIR}/docs/Doxyfile
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    COMMENT "API reference (doxygen) into ${SYMERR_DOCS_OUTPUT}"
    VERBATIM)
endif()
