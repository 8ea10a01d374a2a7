# install.cmake -- install rules of vm/ (included by vm/CMakeLists.txt):
#   bin/cutelua
#   lib/libcutelua.so*, lib/libcutelua.a      include/cutelua.h, cute.h,
#                                              cute_linear.h, cute_lua.h
#   lib/pkgconfig/cutelua.pc                   lib/cmake/cutelua/ (package)
# (the plain-Lua module files are installed by vm/CMakeLists.txt).
# Every file that names a path computes it from its own location, so an
# install tree can be moved (and `cmake --install --prefix` works).
include(CMakePackageConfigHelpers)

set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/cutelua)

install(TARGETS cutelua RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS cutelua_shared cutelua_static EXPORT cuteluaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# cute_lua.h is for hosts that write their own C modules on top of the
# `cute` values (it needs Lua 5.4's headers, e.g. pkg-config lua5.4).
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/cutelua.h
              ${CMAKE_SOURCE_DIR}/algebra/cute.h
              ${CMAKE_SOURCE_DIR}/algebra/cute_linear.h
              ${CMAKE_SOURCE_DIR}/bindings/cute_lua.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT cuteluaTargets NAMESPACE cutelua:: DESTINATION ${cmake_dir})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/cuteluaConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/cuteluaConfig.cmake
  INSTALL_DESTINATION ${cmake_dir}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/cuteluaConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cuteluaConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/cuteluaConfigVersion.cmake
        DESTINATION ${cmake_dir})

# cutelua.pc finds the prefix from its own directory (${pcfiledir}).
file(RELATIVE_PATH CUTELUA_PC_TO_PREFIX
  /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${CMAKE_SOURCE_DIR}/cutelua.pc.in
  ${CMAKE_CURRENT_BINARY_DIR}/cutelua.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cutelua.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
