/*
 * runner.c -- cutelua-gpu, the smallest host that runs the CUDA bridge's
 * checks and benchmark on a GPU machine that has no Lua: Lua 5.4 linked
 * statically, `cute.core` and `cute.cuda.core` preloaded, the stdlib read
 * from the source tree that travels with the build (stdlib/, spec/lua/).
 *
 *     cutelua-gpu script.lua args...      arg = {[0] = script, args...}
 *
 * run.sh prefers build/vm/cutelua when that program preloads
 * cute.cuda.core; this runner keeps the device run independent of it.
 */
#include <stdio.h>
#include <stdlib.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cute_lua.h"

int luaopen_cute_cuda_core(lua_State *L);

static int traceback(lua_State *L)
{
  luaL_traceback(L, L, lua_tostring(L, 1), 1);
  return 1;
}

int main(int argc, char **argv)
{
  lua_State *L;
  int i, status;
  if (argc < 2) {
    fprintf(stderr, "usage: %s script.lua [args...]\n", argv[0]);
    return 2;
  }
  L = luaL_newstate();
  if (L == NULL) return 1;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_cute_core);
  lua_setfield(L, -2, "cute.core");
  lua_pushcfunction(L, luaopen_cute_cuda_core);
  lua_setfield(L, -2, "cute.cuda.core");
  lua_pop(L, 1);
  /* Sources from the tree, unless LUA_PATH says otherwise. */
  if (getenv("LUA_PATH") == NULL) {
    lua_getglobal(L, "package");
    lua_pushstring(L, "stdlib/?.lua;stdlib/?/init.lua;spec/lua/?.lua;"
                      "bench/gpu/?.lua");
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
  }
  lua_createtable(L, argc, 0);
  for (i = 1; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - 1);
  }
  lua_setglobal(L, "arg");
  lua_pushcfunction(L, traceback);
  status = luaL_loadfile(L, argv[1]);
  if (status == LUA_OK) {
    for (i = 2; i < argc; i++) lua_pushstring(L, argv[i]);
    status = lua_pcall(L, argc - 2, 0, 1);
  }
  if (status != LUA_OK) fprintf(stderr, "%s\n", lua_tostring(L, -1));
  lua_close(L);
  return status == LUA_OK ? 0 : 1;
}
