/*
 * lua_internal.h -- helpers shared by the translation units of cute.core.
 * Not installed; cute_lua.h is the public face.
 */
#ifndef CUTELUA_INTERNAL_H
#define CUTELUA_INTERNAL_H

#include <lauxlib.h>

#include "cute_lua.h"

/* Each part of the module adds its functions to the table on top of the
 * stack and registers the metatables of the types it owns. */
void cutelua_open_tuple(lua_State *L);
void cutelua_open_layout(lua_State *L);
void cutelua_open_algebra(lua_State *L);
void cutelua_open_tiler(lua_State *L);
/* composition(A, T) for a tiler T at index 2 (A a Layout at index 1). */
int cutelua_composition_tiler(lua_State *L);
void cutelua_open_swizzle(lua_State *L);
void cutelua_open_tuple_arith(lua_State *L);
void cutelua_open_linear(lua_State *L);

/* The LinearLayout metatable's name (lua_linear.c owns the type). */
#define CUTELUA_LINEAR "cute.LinearLayout"

/* Registers metatable `name` with metamethods `meta` and, as its __index,
 * a table of methods (may be NULL); scripts see it through a read-only
 * view (its __metatable).  Leaves the stack as it was. */
void cutelua_newclass(lua_State *L, const char *name, const luaL_Reg *meta,
                      const luaL_Reg *methods);

/* The classes of cute.core, numbered (lua_core.c lists their names). */
enum cutelua_class {
  CUTELUA_CLASS_LAYOUT = 1, CUTELUA_CLASS_SWIZZLE, CUTELUA_CLASS_COMPOSED,
  CUTELUA_CLASS_BASIS, CUTELUA_CLASS_TUPLE, CUTELUA_CLASS_LINEAR
};
/* luaL_testudata, luaL_checkudata and luaL_setmetatable (on the value on
 * top) for class cls: the same results and messages, the tests by a mark
 * in the metatable (cheaper than finding it by name). */
void *cutelua_testclass(lua_State *L, int idx, int cls);
void *cutelua_checkclass(lua_State *L, int idx, int cls);
void cutelua_setclass(lua_State *L, int cls);
/* cutelua_pushlayout(L, NULL) for an operation whose argument 1 passed
 * the Layout class test: the result takes that argument's metatable,
 * which is the class's (~150 instructions less than finding it in the
 * registry by name, on every result), or the class's by name when the
 * debug library removed it. */
cute_layout *cutelua_newresult(lua_State *L);

/* Raises an error about argument `arg` (2 = the first after the callee)
 * of a call A(...) on the Layout, Swizzle or ComposedLayout at index 1:
 * "layout(4:1): bad argument #1 (msg)". */
int cutelua_callerror(lua_State *L, int arg, const char *msg);

/* A swizzle acts on integer offsets: raises "op(C): a swizzle needs an
 * integral layout" where a composed layout whose layout has a@i strides
 * (an identity layout) would be made, not at its first evaluation. */
void cutelua_checkintegral(lua_State *L, const cute_composed *c,
                           const char *op);

/* CuTe's rule for a composed layout F o off o B: a layout operation
 * (divide, product, tiling, partitioning, coalesce, flatten ...) applies
 * to B, the layout that is the domain, and keeps F and off.  When the
 * value at index 1 is composed -- a cute.ComposedLayout, or a value whose
 * metatable has __layout_b(C, op, name, ...) -- runs op that way over the
 * arguments and returns its number of results; -1 when it is not
 * (lua_swizzle.c).  `name` is op's, for errors.  An operation starts with
 * it, before its type checks: CUTELUA_ON_COMPOSED(L, self, "name"). */
int cutelua_composed_op(lua_State *L, lua_CFunction op, const char *name);
#define CUTELUA_ON_COMPOSED(L, self, name) do { \
    int n_; \
    if (!cutelua_testlayout(L, 1) && \
        (n_ = cutelua_composed_op(L, self, name)) >= 0) return n_; \
  } while (0)
/* The same for an operation that reads a Layout at index 1: A = that
 * Layout (tested once), else the composed value's result is returned,
 * else the usual argument error: CUTELUA_LAYOUT_ARG(L, A, self, "name"). */
#define CUTELUA_LAYOUT_ARG(L, A, self, name) do { \
    int n_; \
    if (((A) = cutelua_testlayout(L, 1)) != NULL) break; \
    if ((n_ = cutelua_composed_op(L, self, name)) >= 0) return n_; \
    (A) = cutelua_checklayout(L, 1); \
  } while (0)
/* An operation that is not op(layout_b) on a composed layout (the
 * inverses): when the value at index 1 is composed, calls
 * cute.composed_layout's function `name` over the arguments and returns
 * its number of results; -1 when it is not composed. */
int cutelua_composed_lua(lua_State *L, const char *name);

/* The __mul of layouts, swizzles and composed layouts: composition. */
int cutelua_compose_op(lua_State *L);

/* Calls the host's meter of C work, if any (cute_lua.h: CUTELUA_CHARGE),
 * before a call does n steps of work beyond cute.h's constant bounds. */
void cutelua_charge(lua_State *L, double n, const char *what);
/* Charges the walk a swizzled cosize makes (its size, up to CUTE_MAX_WALK
 * elements) before a call that computes it: cute.cosize, codegen. */
void cutelua_charge_cosize(lua_State *L, const cute_composed *c,
                           const char *what);

/* luaL_argerror, naming a function called from C (pcall(cute.size, x))
 * by its key in `cute`, else in `cute.core` -- 'cute.size' in every state
 * -- where luaL's search of package.loaded follows the hash seed; and a
 * metamethod by the operation it stands for, where Lua names its event:
 * "bad argument #2 to 'make_layout'" for A .. nil, 'operator-' for
 * cute.E(0) - nil (not 'concat', 'sub').  The
 * bindings raise every argument error through it (cutelua_argcheck, the
 * checks below), never through luaL_argerror or a luaL_check function. */
int cutelua_badarg(lua_State *L, int arg, const char *msg);
#define cutelua_argcheck(L, cond, arg, msg) \
  ((void)((cond) || cutelua_badarg((L), (arg), (msg))))
/* luaL_typeerror, luaL_checkany, luaL_checktype(L, arg, LUA_TTABLE) and
 * luaL_checkudata through cutelua_badarg: the same messages. */
int cutelua_typeerror(lua_State *L, int arg, const char *tname);
void cutelua_checkany(lua_State *L, int arg);
void cutelua_checktable(lua_State *L, int arg);
void *cutelua_checkudata(lua_State *L, int arg, const char *tname);

/* Raise err as "bad argument #arg to 'f' (msg)" -- for malformed arguments
 * (a tuple that does not convert), as opposed to inadmissible algebra. */
int cutelua_argerror(lua_State *L, int arg, const cute_error *err);

/* Is the value at idx a number with an exact integer value (3 or 3.0, not
 * 2.5, not the string "3")?  Then *v is that integer.  Every integer the
 * bindings read goes through here, so floats are treated alike. */
int cutelua_tointeger(lua_State *L, int idx, lua_Integer *v);
/* luaL_checkinteger with that rule: "bad argument #k to 'f' (2.5 is not an
 * integer)". */
lua_Integer cutelua_checkint(lua_State *L, int arg);
/* A string argument for the parsers, which stop at a NUL byte: text with
 * an embedded NUL is refused rather than read up to it. */
const char *cutelua_checktext(lua_State *L, int arg);

/* cutelua_checkoperand without raising: the Layout at idx, or n:1 built in
 * *buf for an integer n > 0; NULL for anything else. */
const cute_layout *cutelua_testoperand(lua_State *L, int idx,
                                       cute_layout *buf);

/* The message cutelua_checkoperand raises for the value at idx, which
 * cutelua_testoperand refused: "cute.Layout or integer expected, got
 * string", or why n:1 is no layout for an integer n <= 0. */
const char *cutelua_operand_msg(lua_State *L, int idx);
/* luaL_typeerror's message, pushed: "expected expected, got T" (T the
 * value's __name, or its type). */
const char *cutelua_typemsg(lua_State *L, int arg, const char *expected);
/* Why the value at idx is no integer, pushed: "2.5 is not an integer" for
 * a number, else cutelua_typemsg's "integer expected, got T". */
const char *cutelua_intmsg(lua_State *L, int idx);

/* luaL_check-style tuple argument. */
void cutelua_checktuple(lua_State *L, int arg, cute_tuple *out);

/* Call arguments first..top as one coordinate: a single argument is the
 * coordinate itself (A(13), A({1,{1,1}})), several form a tuple (A(1,3)).
 * Returns whether the coordinate contains the slice marker `_`. */
int cutelua_callcoord(lua_State *L, int first, cute_tuple *crd);

#endif /* CUTELUA_INTERNAL_H */
