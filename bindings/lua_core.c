/*
 * lua_core.c -- the loader of `cute.core`: one table holding the functions
 * of every part (tuples, layouts, algebra, swizzles), and the metatables
 * registered under their CUTELUA_* names so other C modules share them.
 *
 * The Lua-facing module is `cute` (stdlib/cute/init.lua), which builds
 * tilers, divides, products and printing on top of this table.
 */
#include "lua_internal.h"

#include <string.h>

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

/* core.metatables = {Layout = mt, Swizzle = mt, ComposedLayout = mt, E = mt,
 * Tuple = mt, LinearLayout = mt}: the stdlib adds operator sugar (A * B) that needs tilers,
 * written in Lua, and marks the tuples it builds itself. */
static void push_metatables(lua_State *L)
{
  static const char *const names[] = {CUTELUA_LAYOUT, CUTELUA_SWIZZLE,
                                      CUTELUA_COMPOSED, CUTELUA_BASIS,
                                      CUTELUA_TUPLE, CUTELUA_LINEAR};
  size_t i;
  lua_createtable(L, 0, 6);
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

/* Is the frame ar a Lua function of the stdlib: a chunk whose source
 * starts with dir (n bytes), the directory of cute/error.lua? */
static int in_stdlib(const lua_Debug *ar, const char *dir, size_t n)
{
  return ar->what[0] != 'C' && strncmp(ar->source, dir, n) == 0;
}

/* core.raise(msg), called by cute/error.lua only: raises msg at the line
 * that called into the stdlib, wherever in it the error was found, so no
 * stdlib function counts levels or re-raises.  The chunks sharing
 * error.lua's directory ("@stdlib/cute/", "@/usr/share/lua/5.4/cute/")
 * are the stdlib; the walk goes up past their frames and past C
 * functions they called (pcall, table.sort).  The first other frame is the
 * caller: a Lua line puts "file:line: " before msg; a C caller (the user's
 * pcall(cute.f, ...)) puts nothing, as luaL_error does.  Needs no debug
 * library: a sandboxed state gets the same positions. */
static int core_raise(lua_State *L)
{
  lua_Debug ar, up;
  const char *dir;
  size_t n;
  int level = 2;
  luaL_checkstring(L, 1);
  lua_settop(L, 1);
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "S", &ar))
    return lua_error(L);
  dir = ar.source;
  n = strrchr(dir, '/') ? (size_t)(strrchr(dir, '/') - dir) + 1 : 0;
  for (;; level++) {
    if (!lua_getstack(L, level, &ar)) return lua_error(L);
    lua_getinfo(L, "Sl", &ar);
    if (in_stdlib(&ar, dir, n)) continue;
    if (ar.what[0] == 'C' && lua_getstack(L, level + 1, &up) &&
        lua_getinfo(L, "S", &up) && in_stdlib(&up, dir, n))
      continue;
    break;
  }
  if (ar.currentline > 0) {
    lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
    lua_insert(L, 1);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

int luaopen_cute_core(lua_State *L)
{
  luaL_checkversion(L);
  lua_newtable(L);
  cutelua_open_tuple(L);
  cutelua_open_layout(L);
  cutelua_open_swizzle(L);
  cutelua_open_algebra(L);
  cutelua_open_tuple_arith(L);
  cutelua_open_tiler(L);
  cutelua_open_linear(L);
  push_metatables(L);
  push_limits(L);
  lua_pushcfunction(L, core_raise);
  lua_setfield(L, -2, "raise");
  return 1;
}
