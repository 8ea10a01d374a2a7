-- LuaRocks package of cutelua: the `cute` module for Lua 5.4 (cute/core.so
-- plus the stdlib's .lua files) and, where liblua5.4.a is present, the
-- cutelua program (bin/) and libcutelua with cutelua.h, cutelua.pc and the
-- CMake package (in the rock's embed/ folder; `luarocks show cutelua`).
--   luarocks --lua-version 5.4 make cutelua-0.1.0-1.rockspec   (a checkout)
rockspec_format = "3.0"
package = "cutelua"
version = "0.1.0-1"
source = {
   -- `luarocks make` builds the checkout it runs in and never fetches this;
   -- point it at the published repository before `luarocks pack`/upload.
   url = "git+file://.",
}
description = {
   summary = "CuTe GPU tensor layouts and their algebra, scripted in Lua 5.4",
   detailed = [[
The layout algebra of CuTe (composition, complement, inverses, divides,
products, swizzles) as the Lua module `cute`, with CuTe's text forms; an
embeddable interpreter (cutelua) with a REPL and a C embedding API.]],
   license = "MIT",
   labels = { "cuda", "gpu", "layout", "cute" },
}
dependencies = {
   "lua >= 5.4, < 5.5",
}
build = {
   type = "cmake",
   variables = {
      CMAKE_BUILD_TYPE = "RelWithDebInfo",
      CMAKE_INSTALL_PREFIX = "$(PREFIX)",
      CUTELUA_LUA_INCLUDE_DIR = "$(LUA_INCDIR)",
      CUTELUA_LUA_CDIR = "$(LIBDIR)",
      CUTELUA_LUA_LDIR = "$(LUADIR)",
      -- LuaRocks deploys lib/ as Lua C modules: the embedding library,
      -- its header and package files go beside it, under embed/.
      CMAKE_INSTALL_LIBDIR = "embed/lib",
      CMAKE_INSTALL_INCLUDEDIR = "embed/include",
   },
}
