/*
 * prog.h -- the pieces of the cutelua program that main.c (the runner) and
 * repl.c (the interactive loop) share.  Not part of libcutelua.
 */
#ifndef CUTELUA_PROG_H
#define CUTELUA_PROG_H

#include <lua.h>

#define PROG_NAME "cutelua"

/* lua_pcall with a traceback and Ctrl-C armed: SIGINT while the call runs
 * stops it with "interrupted!" (in whichever coroutine is running, and
 * again at once if a pcall catches it) instead of killing the program.  A
 * second SIGINT during the same call says that C code or a finalizer is
 * running (Lua cannot stop those); only a third ends the program. */
int prog_docall(lua_State *L, int narg, int nres);

/* From now on Ctrl-C outside prog_docall is ignored (the REPL's prompt)
 * instead of ending the program. */
void prog_keep_sigint(void);
/* Was Ctrl-C pressed outside prog_docall since the last call?  (Clears.) */
int prog_idle_sigint(void);

/* Prints the error at the top of the stack (status != LUA_OK) to stderr as
 * "cutelua: message" and pops it; returns status. */
int prog_report(lua_State *L, int status);

/* The interactive loop: reads statements until end of input. */
void prog_repl(lua_State *L);

#endif
