cmake_minimum_required(VERSION 3.25)
# Driven by ctest (install/examples): the README's and the tutorials' commands,
# run as a newcomer runs them. A sandbox stands for the newcomer's machine:
# HOME is <WORK_DIR>/home, symerr is installed into ~/symerr, and the
# repository's examples/ is copied to <WORK_DIR>/examples; then each script
# listed in SCRIPTS (examples/<dir>/<name>.sh, the tutorials' command blocks)
# runs with `sh -e` from <WORK_DIR>: its output must hold every line of its
# expected-output file (the pages show that file: examples/<dir>/<name>.out),
# or match its pattern.
set(scripts
  # script                            expected output (a file of lines, or a pattern)
  examples/cpp_kernel/commands.sh     examples/cpp_kernel/first_bound.out
  examples/c_kernel/commands.sh       examples/c_kernel/check.out
  examples/campaign/commands.sh       examples/campaign/commands.out
  examples/campaign/rerender.sh       "symerr exit status: 1"
  examples/source_campaign/commands.sh examples/source_campaign/commands.out)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/home)
set(ENV{HOME} ${WORK_DIR}/home)
# a newcomer's build: no build type, no flags of symerr's own build
unset(ENV{CXXFLAGS})
unset(ENV{CFLAGS})
unset(ENV{CMAKE_PREFIX_PATH})
function(run)
  execute_process(COMMAND ${ARGV} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGV}\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${SYMERR_BUILD_DIR} --prefix ${WORK_DIR}/home/symerr)
file(COPY ${SYMERR_SOURCE_DIR}/examples DESTINATION ${WORK_DIR})
list(LENGTH scripts n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last} 2)
  math(EXPR j "${i} + 1")
  list(GET scripts ${i} script)
  list(GET scripts ${j} expected)
  string(TIMESTAMP t0 "%s")
  run(sh -e ${script})
  string(TIMESTAMP t1 "%s")
  math(EXPR seconds "${t1} - ${t0}")
  message("== ${script} (${seconds} s)\n${out}")
  if(expected MATCHES "^examples/")
    # lines as list elements, with their ';' held as '<sc>' meanwhile
    file(READ ${SYMERR_SOURCE_DIR}/${expected} text)
    foreach(v IN ITEMS text out)
      string(REPLACE ";" "<sc>" ${v} "${${v}}")
      string(REPLACE "\n" ";" ${v} "${${v}}")
    endforeach()
    set(got "${out}")
    set(lines "${text}")
    list(REMOVE_ITEM lines "")
    foreach(line IN LISTS lines)
      if(NOT line IN_LIST got)
        string(REPLACE "<sc>" ";" line "${line}")
        message(FATAL_ERROR "${script}: no output line\n  ${line}\n(the page shows ${expected})")
      endif()
    endforeach()
  elseif(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "${script}: the output does not match '${expected}'")
  endif()
endforeach()
