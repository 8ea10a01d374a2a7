/*
 * cuda_lua.h -- helpers shared by the translation units of cute.cuda.core
 * (cuda_module.c: device, cache, codegen, binaries, launches, events,
 * streams, the plan; cuda_buffer.c: device buffers).  Not installed, and
 * not in libcutelua's export map, so these names stay local to the library.
 */
#ifndef CUTELUA_CUDA_LUA_H
#define CUTELUA_CUDA_LUA_H

#include <lauxlib.h>
#include <lua.h>

#include "cute_cuda.h"

/* Metatable names of the module's userdata. */
#define CUDA_LUA_BUFFER "cute.cuda.Buffer"
#define CUDA_LUA_BINARY "cute.cuda.Binary"
#define CUDA_LUA_LAUNCH "cute.cuda.Launch"
#define CUDA_LUA_EVENT "cute.cuda.Event"
#define CUDA_LUA_STREAM "cute.cuda.Stream"

/* Raise err's message (the bridge's, e.g. "cute.cuda: libcuda.so.1 not
 * found ...") as a Lua error naming the module function that failed
 * ("cute.cuda.buffer: libcuda.so.1 not found ..."); clears err.  Does not
 * return. */
int cuda_lua_raise(lua_State *L, cute_cuda_error *err);

/* TRY(L, f(..., ERR)): on failure raise f's message. */
#define TRY(L, call)                                              \
  do {                                                            \
    cute_cuda_error e_ = {0};                                     \
    if ((call) != CUTE_CUDA_OK) return cuda_lua_raise(L, &e_);    \
  } while (0)
#define ERR (&e_)

/* luaL_check-style dtype name argument ("f16", "u32", ...). */
cute_cuda_dtype cuda_lua_check_dtype(lua_State *L, int arg);

/* The driver handle (CUstream, CUevent) inside a userdata of class mt. */
void *cuda_lua_handle(lua_State *L, int i, const char *mt);

/* t[k] = v for the table on top of the stack. */
void cuda_lua_setint(lua_State *L, const char *k, lua_Integer v);

/* The device address of the live Buffer at index i (0 for 0 elements);
 * raises for a freed one (cuda_buffer.c). */
cute_cuda_ptr cuda_lua_buffer_ptr(lua_State *L, int i);

/* Adds buffer, compare, check_copy and memcpy to the table on top of the
 * stack and registers the Buffer metatable (cuda_buffer.c). */
void cuda_lua_open_buffer(lua_State *L);

#endif
