include(CMakePackageConfigHelpers)
install(DIRECTORY lib/include/ domains/include/ verify/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# the accuracy statements shipped as data (docs/statements.md)
install(DIRECTORY verify/statements/ DESTINATION ${CMAKE_INSTALL_DATADIR}/symerr/statements)
# symerr_build_flags (-Werror, the sanitizers) is symerr's own build policy: it is
# not installed, and the libraries link it as $<BUILD_INTERFACE:...> only.
install(TARGETS symerr_core symerr_domains symerr_verify
        EXPORT symerrTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT symerrTargets NAMESPACE symerr::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/symerr)
configure_package_config_file(cmake/symerrConfig.cmake.in
        ${CMAKE_CURRENT_BINARY_DIR}/symerrConfig.cmake
        INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/symerr)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/symerrConfigVersion.cmake
        COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/symerrConfig.cmake
              ${CMAKE_CURRENT_SOURCE_DIR}/cmake/SymerrSubstitute.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/symerrConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/symerr)

# pkg-config (symerr.pc, beside the CMake package's directory): the same
# libraries and include directory for builds without CMake, relocatable
# (${pcfiledir}). Boost is header-only and found in the compiler's default
# include path; the ONNX component has no pkg-config file.
set(_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(SYMERR_PC_PREFIX_FROM_PCDIR "")
  set(SYMERR_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
  set(SYMERR_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
else()
  file(RELATIVE_PATH SYMERR_PC_PREFIX_FROM_PCDIR /symerr-prefix/${_pcdir} /symerr-prefix)
  set(SYMERR_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
  set(SYMERR_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
configure_file(cmake/symerr.pc.in ${CMAKE_CURRENT_BINARY_DIR}/symerr.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/symerr.pc DESTINATION ${_pcdir})
# The licence (Apache-2.0), also named in symerr.pc.
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
