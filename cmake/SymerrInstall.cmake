include(CMakePackageConfigHelpers)
install(DIRECTORY lib/include/ domains/include/ verify/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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
