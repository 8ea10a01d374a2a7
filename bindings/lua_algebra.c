/*
 * lua_algebra.c -- the layout algebra of paper section 3 as functions of
 * cute.core: coalesce, filter, composition, complement, inverses, common
 * vectors, recasts, and the mode manipulations the stdlib builds divides
 * and products from (flatten, group_modes, take, select, replace,
 * make_layout = concatenation; append and prepend are in lua_tuple_arith.c).
 *
 * Here composition takes a layout, an integer n (= n:1) or, after a
 * Layout, a tiler (lua_tiler.c) on the right, and a Layout, Swizzle or
 * ComposedLayout on the left:
 *   composition(A, B)   -> A o B
 *   composition(sw, B)  -> Sw o 0 o B
 *   composition(C, B)   -> Sw o off o (L o B)
 */
#include "lua_internal.h"

#include <limits.h>

/* ------------------------------------------------------------ shapes -- */

typedef cute_status (*unary_fn)(cute_layout *, const cute_layout *,
                                cute_error *);
typedef cute_status (*binary_fn)(cute_layout *, const cute_layout *,
                                 const cute_layout *, cute_error *);

/* f(A) for the Layout A at index 1, which the caller tested (once: a
 * class test is a sixth of a small call's cost in Lua). */
static int unary(lua_State *L, const cute_layout *A, unary_fn f)
{
  cute_error err;
  cute_layout *u = cutelua_newresult(L);
  if (f(u, A, &err)) return cutelua_error(L, &err);
  return 1;
}

static int binary(lua_State *L, binary_fn f)
{
  cute_layout bbuf;
  cute_layout *A = cutelua_checklayout(L, 1);
  const cute_layout *B = cutelua_checkoperand(L, 2, &bbuf);
  cute_error err;
  cute_layout *u = cutelua_newresult(L);
  if (f(u, A, B, &err)) return cutelua_error(L, &err);
  return 1;
}

static int int_arg(lua_State *L, int arg)
{
  lua_Integer v = cutelua_checkint(L, arg);
  cutelua_argcheck(L, v >= INT_MIN && v <= INT_MAX, arg,
                   "integer out of range");
  return (int)v;
}

/* coalesce(A [, profile]) */
static int l_coalesce(lua_State *L)
{
  cute_layout *A, *u;
  cute_tuple profile;
  cute_error err;
  cute_status st;
  CUTELUA_LAYOUT_ARG(L, A, l_coalesce, "coalesce");
  if (lua_isnoneornil(L, 2)) return unary(L, A, cute_coalesce);
  cutelua_checktuple(L, 2, &profile);
  u = cutelua_newresult(L);
  st = cute_coalesce_profile(u, A, &profile, &err);
  return st ? cutelua_error(L, &err) : 1;
}

static int l_filter_zeros(lua_State *L)
{
  cute_layout *A;
  CUTELUA_LAYOUT_ARG(L, A, l_filter_zeros, "filter_zeros");
  return unary(L, A, cute_filter_zeros);
}
static int l_filter(lua_State *L)
{
  cute_layout *A;
  CUTELUA_LAYOUT_ARG(L, A, l_filter, "filter");
  return unary(L, A, cute_filter);
}

/* An inverse: of a Layout here, of a composed layout by the stdlib. */
static int inverse(lua_State *L, unary_fn f, const char *name)
{
  cute_layout *A = cutelua_testlayout(L, 1);
  int n;
  if (!A && (n = cutelua_composed_lua(L, name)) >= 0) return n;
  return unary(L, A ? A : cutelua_checklayout(L, 1), f);
}
static int l_right_inverse(lua_State *L)
{
  return inverse(L, cute_right_inverse, "right_inverse");
}
static int l_left_inverse(lua_State *L)
{
  return inverse(L, cute_left_inverse, "left_inverse");
}
static int l_flatten(lua_State *L)
{
  cute_layout *A;
  CUTELUA_LAYOUT_ARG(L, A, l_flatten, "flatten");
  return unary(L, A, cute_layout_flatten);
}
static int l_max_common_layout(lua_State *L)
{
  return binary(L, cute_max_common_layout);
}

/* --------------------------------------------------------- algebra -- */

/* An argument error of composition: Lua's own for a call, and the same
 * message naming composition at the caller's line for A * B, where Lua
 * would name the metamethod ("mul") or a module path. */
static int composition_argerror(lua_State *L, int as_op, int arg,
                                const char *msg)
{
  if (!as_op) return cutelua_badarg(L, arg, msg);
  return luaL_error(L, "bad argument #%d to 'composition' (%s)", arg, msg);
}

static int l_composition(lua_State *L);

static int composition(lua_State *L, int as_op)
{
  cute_layout bbuf, *A = cutelua_testlayout(L, 1);
  cute_composed *C = A ? NULL : cutelua_testcomposed(L, 1);
  const cute_layout *B;
  cute_error err;
  int tiler = cutelua_isunderscore(L, 2) ||
              (lua_type(L, 2) == LUA_TTABLE && !cutelua_testlayout(L, 2));
  if (!A && (tiler || !C))
    CUTELUA_ON_COMPOSED(L, l_composition, "composition");
  if (!A && !C && !cutelua_testclass(L, 1, CUTELUA_CLASS_SWIZZLE))
    return composition_argerror(L, as_op, 1, cutelua_typemsg(L, 1,
      "cute.Layout, cute.Swizzle or cute.ComposedLayout"));
  if (A && tiler)
    return cutelua_composition_tiler(L);   /* a tiler: lua_tiler.c */
  if ((B = cutelua_testoperand(L, 2, &bbuf)) == NULL)
    return composition_argerror(L, as_op, 2, cutelua_operand_msg(L, 2));
  if (A) {
    cute_layout *u = cutelua_newresult(L);
    if (cute_composition(u, A, B, &err)) return cutelua_error(L, &err);
  } else if (C) {
    cute_composed r;
    if (cute_composed_compose(&r, C, B, &err)) return cutelua_error(L, &err);
    cutelua_checkintegral(L, &r, "composition");
    cutelua_pushcomposed(L, &r);
  } else {
    cute_composed r;
    r.sw = *cutelua_checkswizzle(L, 1);
    r.offset = 0;
    r.layout = *B;
    cutelua_checkintegral(L, &r, "composition");
    cutelua_pushcomposed(L, &r);
  }
  return 1;
}

static int l_composition(lua_State *L)
{
  return composition(L, 0);
}

/* A * B for layouts, swizzles and composed layouts: composition(A, B),
 * run in the metamethod's own frame, so that its errors carry the line
 * of the expression. */
int cutelua_compose_op(lua_State *L)
{
  lua_settop(L, 2);
  return composition(L, 1);
}

/* complement(A [, cotarget]); the cotarget may be a shape (its size).
 * The C API reads a cotarget <= 0 as "none" (the minimal complement); from
 * Lua that is spelled by leaving it out, so an explicit one must be
 * positive rather than silently mean something else. */
static int l_complement(lua_State *L)
{
  /* of a composed layout: its layout's (CuTe's complement of layout_b) */
  cute_layout *A = cutelua_testlayout(L, 1), *u;
  cute_composed *C = A ? NULL : cutelua_testcomposed(L, 1);
  cute_tuple shape;
  cute_error err;
  lua_Integer v;
  int64_t m = 0;
  if (!A) A = C ? &C->layout : cutelua_checklayout(L, 1);
  if (cutelua_tointeger(L, 2, &v) && v > 0) {
    m = (int64_t)v;             /* the usual cotarget: its own size */
  } else if (!lua_isnoneornil(L, 2)) {
    cutelua_checktuple(L, 2, &shape);
    if (cute_tuple_size(&shape, &m, &err)) return cutelua_argerror(L, 2, &err);
    if (m <= 0)
      return cutelua_badarg(L, 2, lua_pushfstring(L, "cotarget %I is not a "
                            "positive integer (leave it out for the minimal "
                            "complement)", (lua_Integer)m));
  }
  u = C ? cutelua_pushlayout(L, NULL) : cutelua_newresult(L);
  if (cute_complement(u, A, m, &err)) return cutelua_error(L, &err);
  return 1;
}

static int l_max_common_vector(lua_State *L)
{
  cute_layout *A = cutelua_checklayout(L, 1), *B = cutelua_checklayout(L, 2);
  cute_error err;
  int64_t n;
  if (cute_max_common_vector(A, B, &n, &err)) return cutelua_error(L, &err);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

/* offset_range(A) -> lo, hi: every offset A reaches lies in [lo, hi]. */
static int l_offset_range(lua_State *L)
{
  cute_layout *A = cutelua_checklayout(L, 1);
  cute_error err;
  int64_t lo, hi;
  if (cute_layout_offset_range(A, &lo, &hi, &err))
    return cutelua_error(L, &err);
  lua_pushinteger(L, (lua_Integer)lo);
  lua_pushinteger(L, (lua_Integer)hi);
  return 2;
}

/* injective(A) -> whether A's offsets are distinct (exact, or an error). */
static int l_injective(lua_State *L)
{
  cute_layout *A = cutelua_checklayout(L, 1);
  cute_error err;
  int yes;
  if (cute_layout_injective(A, &yes, &err)) return cutelua_error(L, &err);
  lua_pushboolean(L, yes);
  return 1;
}

typedef cute_status (*cast_fn)(cute_layout *, const cute_layout *, int64_t,
                               cute_error *);

static int cast(lua_State *L, cast_fn f)
{
  cute_layout *A = cutelua_checklayout(L, 1);
  lua_Integer n = cutelua_checkint(L, 2);
  cute_error err;
  cute_layout *u = cutelua_newresult(L);
  if (f(u, A, (int64_t)n, &err)) return cutelua_error(L, &err);
  return 1;
}

static int l_upcast(lua_State *L) { return cast(L, cute_upcast); }
static int l_downcast(lua_State *L) { return cast(L, cute_downcast); }

static int l_recast(lua_State *L)
{
  cute_layout *A = cutelua_checklayout(L, 1);
  lua_Integer o = cutelua_checkint(L, 2), n = cutelua_checkint(L, 3);
  cute_error err;
  cute_layout *u = cutelua_newresult(L);
  if (cute_recast(u, A, (int64_t)o, (int64_t)n, &err))
    return cutelua_error(L, &err);
  return 1;
}

/* ------------------------------------------------------------- modes -- */

typedef cute_status (*range_fn)(cute_layout *, const cute_layout *, int, int,
                                cute_error *);

/* group_modes(A, b, e) / take(A, b, e): half-open [b, e), 0-based. */
static int range(lua_State *L, const cute_layout *A, range_fn f)
{
  int b = int_arg(L, 2), e = int_arg(L, 3);
  cute_error err;
  cute_layout *u = cutelua_newresult(L);
  if (f(u, A, b, e, &err)) return cutelua_error(L, &err);
  return 1;
}

static int l_group_modes(lua_State *L)
{
  cute_layout *A;
  CUTELUA_LAYOUT_ARG(L, A, l_group_modes, "group_modes");
  return range(L, A, cute_layout_group);
}
static int l_take(lua_State *L)
{
  cute_layout *A;
  CUTELUA_LAYOUT_ARG(L, A, l_take, "take");
  return range(L, A, cute_layout_take);
}

/* select(A, i, j, ...) or select(A, {i, j, ...}) */
static int l_select(lua_State *L)
{
  cute_layout *A = cutelua_checklayout(L, 1), *u;
  int modes[CUTE_MAX_LEAVES], n = 0, i;
  cute_error err;
  if (lua_istable(L, 2)) {
    int len = (int)lua_rawlen(L, 2);
    cutelua_argcheck(L, len <= CUTE_MAX_LEAVES, 2, "too many modes");
    for (i = 1; i <= len; i++) {
      lua_Integer m;
      lua_rawgeti(L, 2, i);
      cutelua_argcheck(L, cutelua_tointeger(L, -1, &m) && m >= INT_MIN &&
                      m <= INT_MAX, 2, "mode indices must be integers");
      modes[n++] = (int)m;
      lua_pop(L, 1);
    }
  } else {
    int top = lua_gettop(L);
    cutelua_argcheck(L, top - 1 <= CUTE_MAX_LEAVES, 2, "too many modes");
    for (i = 2; i <= top; i++) modes[n++] = int_arg(L, i);
  }
  u = cutelua_newresult(L);
  if (cute_layout_select(u, A, modes, n, &err)) return cutelua_error(L, &err);
  return 1;
}

/* replace(A, i, X): mode i of A becomes X. */
static int l_replace(lua_State *L)
{
  cute_layout xbuf;
  cute_layout *A = cutelua_checklayout(L, 1);
  int i = int_arg(L, 2);
  const cute_layout *X = cutelua_checkoperand(L, 3, &xbuf);
  cute_error err;
  cute_layout *u = cutelua_newresult(L);
  if (cute_layout_replace(u, A, i, X, &err)) return cutelua_error(L, &err);
  return 1;
}

/* concat(L0, L1, ...) = (L0, L1, ...); integers n stand for n:1, each
 * built in a Layout userdata of its own on the stack (any number of them,
 * up to the leaf limit, without a C buffer to size). */
static int l_concat(lua_State *L)
{
  const cute_layout *ls[CUTE_MAX_LEAVES];
  int n = lua_gettop(L), i;
  cute_error err;
  cute_layout *u;
  cutelua_argcheck(L, n <= CUTE_MAX_LEAVES, CUTE_MAX_LEAVES + 1,
                  "too many layouts");
  luaL_checkstack(L, n + 1, "concat");
  for (i = 0; i < n; i++) {
    ls[i] = cutelua_testlayout(L, i + 1);
    if (!ls[i])
      ls[i] = cutelua_checkoperand(L, i + 1, cutelua_pushlayout(L, NULL));
  }
  u = cutelua_pushlayout(L, NULL);
  if (cute_layout_concat(u, ls, n, &err)) return cutelua_error(L, &err);
  return 1;
}

void cutelua_open_algebra(lua_State *L)
{
  static const luaL_Reg funcs[] = {
      {"coalesce", l_coalesce},
      {"filter_zeros", l_filter_zeros},
      {"filter", l_filter},
      {"composition", l_composition},
      {"complement", l_complement},
      {"right_inverse", l_right_inverse},
      {"left_inverse", l_left_inverse},
      {"max_common_vector", l_max_common_vector},
      {"max_common_layout", l_max_common_layout},
      {"offset_range", l_offset_range},
      {"injective", l_injective},
      {"upcast", l_upcast},
      {"downcast", l_downcast},
      {"recast", l_recast},
      {"flatten", l_flatten},
      {"group_modes", l_group_modes},
      {"take", l_take},
      {"select", l_select},
      {"replace", l_replace},
      {"concat", l_concat},
      {NULL, NULL}};
  luaL_setfuncs(L, funcs, 0);
}
