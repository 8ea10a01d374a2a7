/*
 * sandbox.c -- what a state opened without io (cutelua_options.open_io 0)
 * takes away from scripts: every road to the file system and to code that
 * Lua does not verify.
 *
 *   - loadfile, dofile, package.loadlib, package.searchpath: gone;
 *     package.searchers keeps package.preload's searcher only, and
 *     package.path / cpath are "";
 *   - load: text only.  Lua 5.4 does not verify bytecode, so a crafted
 *     binary chunk can crash the host; load(s, name, "b") fails with
 *     "attempt to load a binary chunk (mode is 't')";
 *   - string.dump: gone (bytecode is of no use without a loader for it);
 *   - cute.cuda and cute.cuda.core (so cute.cuda, cute.gemm's kernels):
 *     require raises "cute.cuda is disabled in a state opened without io".
 */
#include <lauxlib.h>

#include "cutelua_internal.h"

/* load(chunk [, chunkname [, mode [, env]]]) with mode "t" whatever the
 * script asked.  An absent env must stay absent (load tells "no env" from
 * an env of nil), so only the mode slot is filled in.  The arguments are
 * checked here: raised inside Lua's load, called from C, an argument error
 * could not name load. */
static int load_text(lua_State *L) {
  int n = lua_gettop(L);
  if (!lua_isstring(L, 1))
    luaL_checktype(L, 1, LUA_TFUNCTION);
  luaL_optstring(L, 2, NULL);
  if (n < 2)
    lua_settop(L, 2);
  lua_pushliteral(L, "t");
  if (n >= 3)
    lua_replace(L, 3);
  lua_pushvalue(L, lua_upvalueindex(1));  /* Lua's own load */
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

static void text_only(lua_State *L) {
  lua_getglobal(L, "load");
  lua_pushcclosure(L, load_text, 1);
  lua_setglobal(L, "load");
  lua_getglobal(L, "string");
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_pop(L, 1);
}

/* No loadfile/dofile, no package.loadlib or package.searchpath (it probes
 * files), and require searches package.preload only.  package.path and
 * cpath become "": they name nothing a script could open, and they would
 * show the host's LUA_PATH / LUA_CPATH. */
static void no_files(lua_State *L) {
  lua_pushnil(L);
  lua_setglobal(L, "loadfile");
  lua_pushnil(L);
  lua_setglobal(L, "dofile");
  lua_getglobal(L, "package");
  lua_pushnil(L);
  lua_setfield(L, -2, "loadlib");
  lua_pushnil(L);
  lua_setfield(L, -2, "searchpath");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "path");
  lua_pushliteral(L, "");
  lua_setfield(L, -2, "cpath");
  lua_getfield(L, -1, "searchers");
  lua_rawgeti(L, -1, 1);
  lua_createtable(L, 1, 0);
  lua_insert(L, -2);
  lua_rawseti(L, -2, 1);
  lua_setfield(L, -3, "searchers");
  lua_pop(L, 2);
}

/* The CUDA bridge writes its kernel cache to disk and loads libcuda and
 * NVRTC: require finds a loader that says so instead. */
static int cuda_disabled(lua_State *L) {
  return luaL_error(L, "cute.cuda is disabled in a state opened without io "
                       "(require '%s')", lua_tostring(L, 1));
}

static void no_cuda(lua_State *L) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, cuda_disabled);
  lua_setfield(L, -2, "cute.cuda");
  lua_pushcfunction(L, cuda_disabled);
  lua_setfield(L, -2, "cute.cuda.core");
  lua_pop(L, 1);
}

void cutelua_sandbox(lua_State *L) {
  no_files(L);
  text_only(L);
  no_cuda(L);
}
