/*
 * internal.h -- what the cutelua program (main.c, repl.c) shares with the
 * embedding library (cutelua.c): the state's layout, the embedded stdlib,
 * the error message handler.  Not installed.
 */
#ifndef CUTELUA_INTERNAL_H
#define CUTELUA_INTERNAL_H

#include <lua.h>

#include "cutelua.h"

struct cutelua_state {
  lua_State *L;
  size_t used, limit;      /* Lua heap bytes in use / allowed (0: any)   */
  int refused;             /* an allocation was refused in this call     */
  uint64_t budget;         /* instructions per run call (0: any)         */
  int64_t remaining;       /* instructions left in this run call         */
  int budget_hit;          /* set once the budget ran out in this call   */
  int nresults;            /* results of the last run: stack slots 1..n  */
  char *err;               /* last error message (malloc'd), or NULL     */
};

/* One Lua file of stdlib/, compiled into the binary by embed.cmake. */
typedef struct cutelua_module {
  const char *name;        /* "cute.tiler"                                */
  const char *chunkname;   /* "@stdlib/cute/tiler.lua", for tracebacks    */
  const unsigned char *code;
  size_t size;
} cutelua_module;

/* All of stdlib/, ending with an entry whose name is NULL. */
extern const cutelua_module cutelua_stdlib[];

/* Takes from a state opened without io what would reach files or run
 * unverified bytecode (sandbox.c); called once the libraries are open. */
void cutelua_sandbox(lua_State *L);

/* Message handler for lua_pcall: the error as text (__tostring honoured)
 * followed by a stack traceback. */
int cutelua_msghandler(lua_State *L);

#endif
