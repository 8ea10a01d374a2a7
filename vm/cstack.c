/*
 * cstack.c -- the C stack under nested coroutine.close.
 *
 * Lua counts nested C calls per thread (LUAI_MAXCCALLS, "C stack
 * overflow") and carries the count into a coroutine it resumes.  Closing
 * a suspended coroutine runs its pending __close handlers, but Lua 5.4.4
 * (Debian 12's, unpatched; fixed in 5.4.6 by lua_closethread) starts them
 * at the closed thread's own count: a __close that closes another
 * coroutine whose __close closes another ... recurses in C without limit,
 * and a script segfaults its host:
 *
 *     local co = false
 *     for i = 1, 1e5 do
 *       local prev = co
 *       co = coroutine.create(function()
 *         local _ <close> = setmetatable({}, {__close = function()
 *           if prev then coroutine.close(prev) end end})
 *         coroutine.yield()
 *       end)
 *       coroutine.resume(co)
 *     end
 *     coroutine.close(co)
 *
 * Every state gets coroutine.close wrapped: it measures the C stack the
 * running call has used so far (from the frame recorded when it began:
 * cutelua_run_*, or the program's call) and refuses to close past
 * CUTELUA_MAX_CSTACK bytes, with an error the script can catch.  Lua's own
 * count keeps ordinary C recursion (pcall, metamethods, resume) far below
 * that figure, so only this recursion meets it.  coroutine.wrap's
 * functions close their coroutine on error too, but inside a resume,
 * which carries the count: they need no wrapper.
 */
#include <stdint.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cutelua_internal.h"

static uintptr_t frame_here(void) {
  return (uintptr_t)__builtin_frame_address(0);
}

uintptr_t cutelua_stack_enter(cutelua_state *S) {
  uintptr_t outer = S->stack_base;
  if (outer == 0)
    S->stack_base = frame_here();
  return outer;
}

void cutelua_stack_leave(cutelua_state *S, uintptr_t outer) {
  S->stack_base = outer;
}

/* Bytes of C stack between the frame recorded for the running call and
 * the caller of this function (0 when no call recorded one). */
static size_t stack_used(const cutelua_state *S, uintptr_t here) {
  uintptr_t base = S->stack_base;
  if (base == 0)
    return 0;
  return base > here ? base - here : here - base;
}

/* coroutine.close(co), refused past CUTELUA_MAX_CSTACK bytes of C stack. */
static int guarded_close(lua_State *L) {
  cutelua_state *S = *(cutelua_state **)lua_getextraspace(L);
  size_t used = stack_used(S, frame_here());
  luaL_checktype(L, 1, LUA_TTHREAD);
  if (used > CUTELUA_MAX_CSTACK)
    return luaL_error(L, "coroutine.close: nested too deeply (%d KiB of C "
                         "stack used, the limit is %d KiB)",
                      (int)(used >> 10), CUTELUA_MAX_CSTACK >> 10);
  lua_pushvalue(L, lua_upvalueindex(1));  /* Lua's own close */
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

void cutelua_guard_cstack(lua_State *L) {
  lua_getglobal(L, LUA_COLIBNAME);
  lua_getfield(L, -1, "close");
  lua_pushcclosure(L, guarded_close, 1);
  lua_setfield(L, -2, "close");
  lua_pop(L, 1);
}
