# install.cmake -- install rules of vm/ (included by vm/CMakeLists.txt):
#   bin/cutelua
#   lib/libcutelua.so*, lib/libcutelua.a      include/cutelua.h, cute.h
#   lib/pkgconfig/cutelua.pc                   lib/cmake/cutelua/ (package)
#   lib/lua/5.4/cute/core.so, share/lua/5.4/cute/*.lua   for a plain lua5.4
# Every file that names a path computes it from its own location, so an
# install tree can be moved (and `cmake --install --prefix` works).
include(CMakePackageConfigHelpers)

set(CUTELUA_LUA_CDIR ${CMAKE_INSTALL_LIBDIR}/lua/5.4 CACHE STRING
    "where the cute.core module for a plain lua5.4 is installed")
set(CUTELUA_LUA_LDIR ${CMAKE_INSTALL_DATADIR}/lua/5.4 CACHE STRING
    "where the stdlib's .lua files are installed")
set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/cutelua)

install(TARGETS cutelua RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS cutelua_shared cutelua_static EXPORT cuteluaTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/cutelua.h
              ${CMAKE_SOURCE_DIR}/algebra/cute.h
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

# The `cute` module as plain files, for lua5.4 and luarocks.
install(DIRECTORY ${CMAKE_SOURCE_DIR}/stdlib/ DESTINATION ${CUTELUA_LUA_LDIR}
        FILES_MATCHING PATTERN "*.lua")
if(TARGET cute_core_lua)
  install(TARGETS cute_core_lua LIBRARY DESTINATION ${CUTELUA_LUA_CDIR}/cute)
endif()
