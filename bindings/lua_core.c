/*
 * lua_core.c -- the loader of `cute.core`: one table holding the functions
 * of every part (tuples, layouts, algebra, swizzles), and the metatables
 * registered under their CUTELUA_* names so other C modules share them.
 *
 * The Lua-facing module is `cute` (stdlib/cute/init.lua), which builds
 * tilers, divides, products and printing on top of this table.
 */
#include "lua_internal.h"

void cutelua_newclass(lua_State *L, const char *name, const luaL_Reg *meta,
                      const luaL_Reg *methods)
{
  if (!luaL_newmetatable(L, name)) {  /* already made by another loader */
    lua_pop(L, 1);
    return;
  }
  luaL_setfuncs(L, meta, 0);
  if (methods) {
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_setfield(L, -2, "__index");
  }
  lua_pop(L, 1);
}

/* core.metatables = {Layout = mt, Swizzle = mt, ComposedLayout = mt, E = mt}:
 * the stdlib adds operator sugar (A * B) that needs tilers, written in Lua. */
static void push_metatables(lua_State *L)
{
  static const char *const names[] = {CUTELUA_LAYOUT, CUTELUA_SWIZZLE,
                                      CUTELUA_COMPOSED, CUTELUA_BASIS};
  size_t i;
  lua_createtable(L, 0, 4);
  for (i = 0; i < sizeof names / sizeof names[0]; i++) {
    luaL_getmetatable(L, names[i]);
    lua_setfield(L, -2, names[i] + 5);  /* past "cute." */
  }
  lua_setfield(L, -2, "metatables");
}

/* core.limits = {leaves = 32, ...}: the constants of cute.h, for reading
 * (cute.limits lists them beside the stdlib's own limits). */
static void push_limits(lua_State *L)
{
  static const struct { const char *name; lua_Integer v; } limits[] = {
    {"leaves", CUTE_MAX_LEAVES}, {"tokens", CUTE_MAX_TOKENS},
    {"depth", CUTE_MAX_DEPTH}, {"basis_depth", CUTE_MAX_BASIS_DEPTH},
    {"basis_index", CUTE_MAX_BASIS_INDEX}, {"tiler", CUTE_MAX_TILER},
    {"text", CUTE_MAX_TEXT}, {"walk", CUTE_MAX_WALK}};
  size_t i;
  lua_createtable(L, 0, sizeof limits / sizeof limits[0]);
  for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    lua_pushinteger(L, limits[i].v);
    lua_setfield(L, -2, limits[i].name);
  }
  lua_setfield(L, -2, "limits");
}

int luaopen_cute_core(lua_State *L)
{
  luaL_checkversion(L);
  lua_newtable(L);
  cutelua_open_tuple(L);
  cutelua_open_layout(L);
  cutelua_open_swizzle(L);
  cutelua_open_algebra(L);
  cutelua_open_tiler(L);
  push_metatables(L);
  push_limits(L);
  return 1;
}
