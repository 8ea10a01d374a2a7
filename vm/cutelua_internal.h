/*
 * cutelua_internal.h -- what the cutelua program (main.c, repl.c) shares with
 * the embedding library (cutelua.c): the state's layout, the embedded stdlib,
 * the error message handler.  Not installed.
 */
#ifndef CUTELUA_INTERNAL_H
#define CUTELUA_INTERNAL_H

#include <stdint.h>

#include <lua.h>

#include "cutelua.h"

/* Free lists of a state's small blocks by 16-byte size class (pool.c):
 * blocks of at most POOL_MAX bytes, at most POOL_KEEP kept a class. */
#define POOL_MAX 1088                /* a Layout userdata is ~1 KB      */
#define POOL_CLASSES (POOL_MAX / 16)
#define POOL_KEEP 64
typedef struct cutelua_pool {
  void *head[POOL_CLASSES + 1];
  unsigned count[POOL_CLASSES + 1];
} cutelua_pool;

/* realloc as lua_Alloc defines it (ptr NULL: osize is the object's kind;
 * nsize 0: free), through the pool; cutelua_pool_clear frees the blocks
 * the pool keeps. */
void *cutelua_pool_realloc(cutelua_pool *P, void *ptr, size_t osize,
                           size_t nsize);
void cutelua_pool_clear(cutelua_pool *P);

struct cutelua_state {
  lua_State *L;
  cutelua_pool pool;       /* its blocks' free lists                      */
  size_t used, limit;      /* Lua heap bytes in use / allowed (0: any)   */
  int refused;             /* an allocation was refused in this call     */
  uint64_t budget;         /* instructions per run call (0: any)         */
  int64_t remaining;       /* instructions left in this run call         */
  int budget_hit;          /* set once the budget ran out in this call   */
  char why[200];           /* ... and the message it stopped with        */
  int nresults;            /* results of the last run: stack slots 1..n  */
  char *err;               /* last error message (malloc'd), or NULL     */
  uintptr_t stack_base;    /* C frame where the running call began, or 0 */
};

/* C stack a running call may use before coroutine.close refuses to nest
 * further (cstack.c).  Lua's own count of nested C calls keeps ordinary
 * recursion well below it; a host thread needs this much stack and some. */
#define CUTELUA_MAX_CSTACK (1 << 20)

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

/* The instruction budget, for library calls that work outside the VM
 * (guard.c).  cutelua_budget_left: what the running call of cutelua_run_*
 * may still execute (HUGE_VAL without a budget).  cutelua_budget_stop:
 * stops that call as a spent budget does (CUTELUA_EBUDGET, pcall cannot
 * swallow it) with a message formatted like lua_pushfstring's.
 * cutelua_budget_take: spends n instructions' worth of work done by
 * `what`, or stops the call when fewer are left. */
double cutelua_budget_left(lua_State *L);
int cutelua_budget_stop(lua_State *L, const char *fmt, ...);
void cutelua_budget_take(lua_State *L, double n, const char *what);

/* Wraps the string and table functions whose work the count hook cannot
 * see, refuses finalizers (setmetatable with __gc: the count hook is off
 * in them) and charges cute.core's C work (CUTELUA_CHARGE) to the budget
 * (guard.c); for states with an instruction budget. */
void cutelua_guard(lua_State *L);

/* Records the C frame where a call into the state begins, unless a call
 * is already running (returns its frame, or 0); cutelua_stack_leave puts
 * that back when the call returns (cstack.c). */
uintptr_t cutelua_stack_enter(cutelua_state *S);
void cutelua_stack_leave(cutelua_state *S, uintptr_t outer);

/* Wraps coroutine.close so that nested closes cannot overflow the C stack
 * (cstack.c); for every state. */
void cutelua_guard_cstack(lua_State *L);

/* Message handler for lua_pcall: the error as text (__tostring honoured)
 * followed by a stack traceback. */
int cutelua_msghandler(lua_State *L);

#endif
