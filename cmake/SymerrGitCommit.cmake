# Run at build time (cmake -P) by the symerr_git_commit target: writes OUTPUT,
# a header defining SYMERR_GIT_COMMIT as the short commit hash of SOURCE_DIR
# ("unknown" without git or outside a git checkout). The file is rewritten
# only when the hash changes, so a build without a new commit recompiles nothing.
execute_process(COMMAND git rev-parse --short HEAD
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE rc ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT commit MATCHES "^[0-9a-f]+$")
  set(commit "unknown")
endif()
set(text "// Generated at build time by cmake/SymerrGitCommit.cmake; do not edit.\n#define SYMERR_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE ${OUTPUT} "${text}")
