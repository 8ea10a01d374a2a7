/*
 * lua_tuple_arith.c -- CuTe's tuple arithmetic and compact layouts as
 * functions of cute.core (algebra/tuple_arith.c, algebra/compact.c):
 *
 *   cute.ceil_div({10, 6}, {3, 4})            --> {4, 2}
 *   cute.shape_div({4, 5, 6}, 40)             --> {1, 1, 3}
 *   cute.product_each {{2, 3}, 4}             --> {6, 4}
 *   cute.tuple_add({1, 2}, {3, 4})            --> {4, 6}
 *   cute.elem_less({1, 2}, {2, 3})            --> true
 *   cute.increment_coord({2, 0, 0}, {3, 3, 3}) --> {0, 1, 0}
 *   cute.dice({1, cute._}, {4, 8})            --> {4}
 *   cute.idx2crd({3, 5}, {4, {2, 4}})         --> {3, {1, 2}}
 *   cute.append({1, 2}, 0, 4)                 --> {1, 2, 0, 0}
 *   cute.make_ordered_layout({4, 8}, {1, 0})  --> (4,8):(8,1)
 *   cute.make_layout_like(A), cute.nullspace(A)
 */
#include "lua_internal.h"

typedef cute_status (*tuple2_fn)(cute_tuple *, const cute_tuple *,
                                 const cute_tuple *, cute_error *);

static int tuple2(lua_State *L, tuple2_fn f)
{
  cute_tuple a, b, r;
  cute_error err;
  cutelua_checktuple(L, 1, &a);
  cutelua_checktuple(L, 2, &b);
  if (f(&r, &a, &b, &err)) return cutelua_error(L, &err);
  cutelua_pushtuple(L, &r);
  return 1;
}

static int l_ceil_div(lua_State *L) { return tuple2(L, cute_ceil_div); }
static int l_shape_div(lua_State *L) { return tuple2(L, cute_shape_div); }
static int l_tuple_add(lua_State *L) { return tuple2(L, cute_tuple_add); }
static int l_tuple_sub(lua_State *L) { return tuple2(L, cute_tuple_sub); }
static int l_increment_coord(lua_State *L)
{
  return tuple2(L, cute_increment_coord);
}

static int l_product_each(lua_State *L)
{
  cute_tuple t, r;
  cute_error err;
  cutelua_checktuple(L, 1, &t);
  if (cute_product_each(&r, &t, &err)) return cutelua_error(L, &err);
  cutelua_pushtuple(L, &r);
  return 1;
}

static int l_elem_less(lua_State *L)
{
  cute_tuple a, b;
  cute_error err;
  int r;
  cutelua_checktuple(L, 1, &a);
  cutelua_checktuple(L, 2, &b);
  if (cute_elem_less(&r, &a, &b, &err)) return cutelua_error(L, &err);
  lua_pushboolean(L, r);
  return 1;
}

/* idx2crd(idx, shape): an integer index or a coordinate of indices. */
static int l_idx2crd(lua_State *L)
{
  cute_tuple idx, shape, crd;
  cute_error err;
  cute_status st;
  lua_Integer i;
  cutelua_checktuple(L, 2, &shape);
  if (cutelua_tointeger(L, 1, &i)) {
    st = cute_idx2crd(&crd, (int64_t)i, &shape, &err);
  } else {
    cutelua_checktuple(L, 1, &idx);
    st = cute_idx2crd_tuple(&crd, &idx, &shape, &err);
  }
  if (st) return cutelua_error(L, &err);
  cutelua_pushtuple(L, &crd);
  return 1;
}

/* dice(crd, t): t a tuple or a Layout (shape and stride diced alike). */
static int l_dice(lua_State *L)
{
  cute_tuple crd, t, r;
  cute_layout *A = cutelua_testlayout(L, 2), *u;
  cute_error err;
  cutelua_checktuple(L, 1, &crd);
  if (!A) return tuple2(L, cute_dice);
  u = cutelua_pushlayout(L, NULL);
  if (cute_dice(&t, &crd, &A->shape, &err) ||
      cute_dice(&r, &crd, &A->stride, &err) ||
      cute_layout_make(u, &t, &r, &err))
    return cutelua_error(L, &err);
  return 1;
}

/* append(t, x [, rank]) / prepend: tuples, or layouts (x a Layout or an
 * integer n = n:1), shape and stride extended alike. */
static int extend(lua_State *L, int front)
{
  cute_tuple t, x, s, d;
  cute_layout xbuf, *u;
  const cute_layout *A = cutelua_testlayout(L, 1), *X;
  cute_error err;
  int rank = -1;
  if (!lua_isnoneornil(L, 3)) {
    lua_Integer n = cutelua_checkint(L, 3);
    cutelua_argcheck(L, n >= 0 && n <= CUTE_MAX_LEAVES, 3,
                    "rank out of range [0, CUTE_MAX_LEAVES]");
    rank = (int)n;
  }
  if (!A) {
    cutelua_checktuple(L, 1, &t);
    cutelua_checktuple(L, 2, &x);
    if (cute_tuple_extend(&s, &t, &x, rank, front, &err))
      return cutelua_error(L, &err);
    cutelua_pushtuple(L, &s);
    return 1;
  }
  X = cutelua_checkoperand(L, 2, &xbuf);
  u = cutelua_pushlayout(L, NULL);
  if (cute_tuple_extend(&s, &A->shape, &X->shape, rank, front, &err) ||
      cute_tuple_extend(&d, &A->stride, &X->stride, rank, front, &err) ||
      cute_layout_make(u, &s, &d, &err))
    return cutelua_error(L, &err);
  return 1;
}

static int l_append(lua_State *L) { return extend(L, 0); }
static int l_prepend(lua_State *L) { return extend(L, 1); }

static int l_make_ordered_layout(lua_State *L)
{
  cute_tuple shape, order;
  cute_layout *u;
  cute_error err;
  cutelua_checktuple(L, 1, &shape);
  cutelua_checktuple(L, 2, &order);
  u = cutelua_pushlayout(L, NULL);
  if (cute_layout_ordered(u, &shape, &order, &err))
    return cutelua_error(L, &err);
  return 1;
}

typedef cute_status (*layout1_fn)(cute_layout *, const cute_layout *,
                                  cute_error *);

static int layout1(lua_State *L, layout1_fn f)
{
  cute_layout *A = cutelua_checklayout(L, 1), *u;
  cute_error err;
  u = cutelua_newresult(L);
  if (f(u, A, &err)) return cutelua_error(L, &err);
  return 1;
}

static int l_make_layout_like(lua_State *L)
{
  return layout1(L, cute_layout_like);
}
static int l_nullspace(lua_State *L) { return layout1(L, cute_nullspace); }

/* log2(n) -> floor(log2 n) for an integer n >= 1 (CuTe's log_2): swizzle
 * bits of a width in bytes, the shift of an element size. */
static int l_log2(lua_State *L)
{
  lua_Integer n = cutelua_checkint(L, 1), k = 0;
  cutelua_argcheck(L, n >= 1, 1, "an integer >= 1 expected");
  while (n > 1) n >>= 1, k++;
  lua_pushinteger(L, k);
  return 1;
}

void cutelua_open_tuple_arith(lua_State *L)
{
  static const luaL_Reg funcs[] = {
      {"ceil_div", l_ceil_div},
      {"shape_div", l_shape_div},
      {"product_each", l_product_each},
      {"tuple_add", l_tuple_add},
      {"tuple_sub", l_tuple_sub},
      {"elem_less", l_elem_less},
      {"increment_coord", l_increment_coord},
      {"dice", l_dice},
      {"idx2crd", l_idx2crd},
      {"append", l_append},
      {"prepend", l_prepend},
      {"make_ordered_layout", l_make_ordered_layout},
      {"make_layout_like", l_make_layout_like},
      {"nullspace", l_nullspace},
      {"log2", l_log2},
      {NULL, NULL}};
  luaL_setfuncs(L, funcs, 0);
}
