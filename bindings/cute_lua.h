/*
 * cute_lua.h -- the Lua 5.4 face of the CuTe layout algebra (module
 * `cute.core`), for C code that talks to Lua about layouts: the CUDA bridge,
 * the cutelua program and embedding hosts.
 *
 * Values as Lua sees them:
 *   Layout          full userdata holding one cute_layout at its start
 *                   (a tag of the bindings follows it), metatable
 *                   CUTELUA_LAYOUT; Swizzle and ComposedLayout likewise.
 *   tuple           a Lua integer (a leaf) or a table of tuples {4,{2,2}};
 *                   a scaled-basis leaf a@i is a cute.E userdata, the slice
 *                   marker `_` a light userdata (cutelua_pushunderscore).
 * Every algebra error is raised as a Lua error whose message is exactly the
 * C message (cute_error.msg): operation, operands as CuTe text, condition.
 *
 * Userdata are plain value copies: pushing a layout copies it, so C code
 * never keeps pointers into Lua objects beyond the stack slot's lifetime.
 */
#ifndef CUTE_LUA_H
#define CUTE_LUA_H

#include <lua.h>

#include "cute.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUTELUA_LAYOUT   "cute.Layout"
#define CUTELUA_SWIZZLE  "cute.Swizzle"
#define CUTELUA_COMPOSED "cute.ComposedLayout"
#define CUTELUA_BASIS    "cute.E"
/* The metatable of the tables cute.core returns as tuples (A:shape(),
 * idx2crd, cute.tuple): printing one gives its CuTe text, "(4,(2,2))".
 * Tables read as tuples need none. */
#define CUTELUA_TUPLE    "cute.Tuple"

/* The module loader: returns the `cute.core` table (also registers the
 * metatables above, so the check/push functions work after it ran once in
 * this state). */
int luaopen_cute_core(lua_State *L);

/* Raise err->msg as a Lua error (never returns). */
int cutelua_error(lua_State *L, const cute_error *err);

/* ----------------------------------------------------------- C work -- */
/* Where a host meters the work cute.core does in C.  Nearly every call
 * does work bounded by the constants of cute.h (leaves, tokens, text);
 * the one that may do more -- cosize of a swizzled layout walks up to
 * CUTE_MAX_WALK elements -- first calls registry[CUTELUA_CHARGE], if the
 * host put a function there, with (n, what): n steps of work about to be
 * done (a number), what names the call ("cosize").  The function may raise
 * to refuse the work (vm/cutelua.c charges it to the instruction budget).
 * Without one, nothing is charged (a plain lua5.4). */
#define CUTELUA_CHARGE "cute.charge"

/* The metatables above are the module's own: scripts see them read-only.
 * getmetatable(A) gives a view that reads through to the metatable and
 * its __index table but refuses writes ("cute.Layout's metatable is
 * read-only"), so a script cannot set __gc, __index or an operator on
 * every layout of the state.  C code (luaL_getmetatable, lua_getmetatable)
 * still gets the metatable itself. */

/* ---------------------------------------------------------------- tuples */
/* Lua value at idx -> tuple.  Leaves: integers (floats with an exact
 * integer value too), cute.E values, the marker `_`.  Returns CUTE_OK or a
 * status with err filled ("tuple: ..."): a value that is not a tuple is
 * reported, not raised.  It still raises where the Lua API it uses does:
 * the stack cannot grow for a deep table, memory runs out, or a bad key's
 * __tostring fails while it is named; call it where such an error may
 * propagate (or under pcall). */
int cutelua_totuple(lua_State *L, int idx, cute_tuple *out, cute_error *err);
/* Pushes an integer for a plain integer leaf, else a (nested) table; a
 * scaled-basis leaf a@i becomes a cute.E value, a CUTE_UNDERSCORE leaf
 * the marker `_` (cutelua_pushunderscore), so cutelua_totuple reads the
 * result back as t. */
void cutelua_pushtuple(lua_State *L, const cute_tuple *t);
void cutelua_pushunderscore(lua_State *L);
int cutelua_isunderscore(lua_State *L, int idx);

/* --------------------------------------------------------------- layouts */
/* Element types (cute.h) of index < below, under every spelling: a table
 * {i32 = entry, s32 = the same entry, ...} whose entries fields() fills,
 * and the spellings in one space-separated string ("f16 bf16 ... s64"),
 * the list an unknown-type message gives. */
void cutelua_pushdtypes(lua_State *L, int below,
                        void (*fields)(lua_State *L, cute_dtype t));
void cutelua_pushdtypenames(lua_State *L, int below);

cute_layout *cutelua_checklayout(lua_State *L, int idx);
cute_layout *cutelua_testlayout(lua_State *L, int idx);   /* NULL if not */
/* New Layout userdata on the stack, a copy of l (or zeroed if l is NULL,
 * for an algebra function to write into). */
cute_layout *cutelua_pushlayout(lua_State *L, const cute_layout *l);
/* Argument idx as a layout operand: a Layout, or an integer n meaning the
 * layout n:1 (the paper's integer tiles), built in *buf. */
const cute_layout *cutelua_checkoperand(lua_State *L, int idx,
                                        cute_layout *buf);

/* ------------------------------------------------- swizzles and composed */
cute_swizzle *cutelua_checkswizzle(lua_State *L, int idx);
cute_swizzle *cutelua_pushswizzle(lua_State *L, cute_swizzle sw);
cute_composed *cutelua_checkcomposed(lua_State *L, int idx);
cute_composed *cutelua_testcomposed(lua_State *L, int idx);
cute_composed *cutelua_pushcomposed(lua_State *L, const cute_composed *c);

#ifdef __cplusplus
}
#endif
#endif /* CUTE_LUA_H */
