# The API reference check (tests docs/api-reference and
# docs/api-reference-planted; cmake -P this file):
#   -DDOXYGEN=<doxygen> -DDOXYFILE=<configured docs/Doxyfile> -DOUT=<scratch dir>
# Runs doxygen with the project's Doxyfile, output and warnings log redirected
# to OUT, and fails when doxygen fails or its warnings log is not empty,
# printing the log (every undocumented public entity, with file and line).
#
# With -DSOURCE_DIR=<source tree> it also checks that every namespace of the
# headers is documented in docs/namespaces.dox or internal: doxygen reports
# the undocumented members of documented namespaces only, so a function in a
# new, undocumented namespace would otherwise pass unseen.
#
# With -DPLANTED=<header> -DNAMESPACES=<docs/namespaces.dox> it is the twin
# that shows the check can fail: doxygen runs on a copy of that (documented)
# header alone, which must give no warning, then on the copy with an
# undocumented public function appended, which must give a warning naming it.
cmake_minimum_required(VERSION 3.20)
foreach(var DOXYGEN DOXYFILE OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "SymerrDocsCheck.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DOXYGEN OR NOT EXISTS "${DOXYGEN}")
  message(FATAL_ERROR "doxygen is not installed (Debian package doxygen: bash .ci/deps.sh doxygen), "
                      "so the API reference cannot be checked; reconfigure after installing it")
endif()

# run_doxygen(<dir> <extra config lines> <result var> <log var>)
function(run_doxygen dir extra result_var log_var)
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}")
  file(WRITE "${dir}/Doxyfile"
       "@INCLUDE = ${DOXYFILE}\nOUTPUT_DIRECTORY = ${dir}\nWARN_LOGFILE = ${dir}/warnings.log\n${extra}")
  execute_process(COMMAND "${DOXYGEN}" "${dir}/Doxyfile" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(log "")
  if(EXISTS "${dir}/warnings.log")
    file(READ "${dir}/warnings.log" log)
  endif()
  set(${result_var} "${rc}" PARENT_SCOPE)
  set(${log_var} "${out}${err}${log}" PARENT_SCOPE)
endfunction()

if(NOT DEFINED PLANTED)
  set(undocumented_namespaces "")
  if(DEFINED SOURCE_DIR)
    file(READ "${SOURCE_DIR}/docs/namespaces.dox" dox)
    file(GLOB_RECURSE headers "${SOURCE_DIR}/lib/include/*.hpp" "${SOURCE_DIR}/domains/include/*.hpp"
         "${SOURCE_DIR}/verify/include/*.hpp" "${SOURCE_DIR}/verify/onnx/include/*.hpp")
    # internal (EXCLUDE_SYMBOLS of docs/Doxyfile.in, and namespaces nested in them)
    set(internal detail symerr_std_math elementary lin table std)
    foreach(h IN LISTS headers)
      file(STRINGS "${h}" decls REGEX "^[ \t]*namespace [A-Za-z_][A-Za-z0-9_:]* *{")
      foreach(d IN LISTS decls)
        string(REGEX REPLACE "^[ \t]*namespace ([A-Za-z0-9_:]+).*" "\\1" qname "${d}")
        string(REPLACE "::" ";" parts "${qname}")
        set(is_internal FALSE)
        foreach(p IN LISTS parts)
          if(p IN_LIST internal OR p MATCHES "_detail$")
            set(is_internal TRUE)
          endif()
        endforeach()
        if(NOT is_internal)
          foreach(p IN LISTS parts)
            if(NOT dox MATCHES "namespace ${p} ")
              string(APPEND undocumented_namespaces "  ${h}: namespace ${qname} (${p})\n")
            endif()
          endforeach()
        endif()
      endforeach()
    endforeach()
  endif()
  if(NOT undocumented_namespaces STREQUAL "")
    message(FATAL_ERROR "namespaces not documented in docs/namespaces.dox (doxygen would not check "
                        "their members):\n${undocumented_namespaces}")
  endif()
  run_doxygen("${OUT}" "" rc log)
  string(STRIP "${log}" log)
  if(NOT rc EQUAL 0 OR NOT log STREQUAL "")
    message(FATAL_ERROR "the API reference has warnings (doxygen exit status ${rc}); every public "
                        "entity of the installed headers needs its /// comment (docs/api-reference.md):\n${log}")
  endif()
  message(STATUS "API reference: doxygen reports no warning")
  return()
endif()

# The planted twin.
get_filename_component(name "${PLANTED}" NAME)
set(tree "${OUT}/tree")
file(REMOVE_RECURSE "${tree}")
file(MAKE_DIRECTORY "${tree}")
file(COPY "${PLANTED}" DESTINATION "${tree}")
set(input "INPUT = ${NAMESPACES} ${tree}\nSTRIP_FROM_PATH = ${tree}\nGENERATE_HTML = YES\n")
run_doxygen("${OUT}/clean" "${input}" rc log)
string(STRIP "${log}" log)
if(NOT rc EQUAL 0 OR NOT log STREQUAL "")
  message(FATAL_ERROR "the unplanted copy of ${name} already gives warnings (exit status ${rc}):\n${log}")
endif()
file(APPEND "${tree}/${name}"
     "\nnamespace symerr {\nint planted_undocumented_function(int x);\n}  // namespace symerr\n")
run_doxygen("${OUT}/planted" "${input}" rc log)
if(rc EQUAL 0)
  message(FATAL_ERROR "doxygen accepted ${name} with an undocumented public function planted "
                      "(exit status 0); its log:\n${log}")
endif()
if(NOT log MATCHES "planted_undocumented_function")
  message(FATAL_ERROR "doxygen failed on the planted ${name} but its log does not name the planted "
                      "function:\n${log}")
endif()
message(STATUS "planted undocumented function caught (doxygen exit status ${rc}):\n${log}")
