/*
 * lua_layout.c -- the Layout userdata: construction, evaluation and slicing
 * by __call, text, structural equality, concatenation, and the queries
 * size / cosize / rank / depth that also accept tuples and composed layouts.
 *
 *   local A = cute.layout "((2,2),(4,2)):((1,8),(2,16))"
 *   A(22), A(2, 5), A({{0,1},{1,1}})   --> 26 26 26   (paper 2.4.1)
 *   A(1, cute._)                       --> (4,2):(2,16)   1
 *
 * A userdata is one cute_layout and a tag (one allocation, no uservalues);
 * results are computed straight into a fresh userdata.
 */
#include "lua_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* A Layout userdata: its cute_layout first (hosts read it with
 * lua_touserdata, cute_lua.h), then the tag of the copy of the bindings
 * that made it.  The tag is the class test's first try, before the
 * metatable's mark (cutelua_testclass): a full userdata of this size
 * ending in this copy's tag is a Layout, as only new_layout writes the
 * tag and a script cannot write a userdata's bytes.  It costs a third of
 * the mark's test, and every operand takes it.  A Layout made by another
 * copy (cute/cuda/core.so) carries that copy's tag and passes by the
 * mark. */
typedef struct layout_ud {
  cute_layout l;
  const void *tag;
} layout_ud;
static const char layout_tag = 'L';

cute_layout *cutelua_testlayout(lua_State *L, int idx)
{
  layout_ud *u = lua_touserdata(L, idx);
  if (u != NULL && lua_rawlen(L, idx) == sizeof *u && u->tag == &layout_tag)
    return &u->l;
  return cutelua_testclass(L, idx, CUTELUA_CLASS_LAYOUT);
}

cute_layout *cutelua_checklayout(lua_State *L, int idx)
{
  cute_layout *l = cutelua_testlayout(L, idx);
  return l ? l : cutelua_checkclass(L, idx, CUTELUA_CLASS_LAYOUT);
}

/* A fresh userdata holding l, or the empty layout for NULL.  Only the
 * used tokens and leaves are copied or cleared: a layout is ~1 KB, most
 * of it unused capacity. */
static cute_layout *new_layout(lua_State *L, const cute_layout *l)
{
  layout_ud *ud = lua_newuserdatauv(L, sizeof *ud, 0);
  cute_layout *u = &ud->l;
  ud->tag = &layout_tag;
  if (l) {
    cute_tuple_copy(&u->shape, &l->shape);
    cute_tuple_copy(&u->stride, &l->stride);
  } else {
    u->shape.ntok = u->shape.nleaf = 0;
    u->stride.ntok = u->stride.nleaf = 0;
  }
  return u;
}

cute_layout *cutelua_pushlayout(lua_State *L, const cute_layout *l)
{
  cute_layout *u = new_layout(L, l);
  cutelua_setclass(L, CUTELUA_CLASS_LAYOUT);
  return u;
}

/* Argument 1 passed the class test, by its tag if not by the mark; the
 * debug library can still have removed its metatable (debug.setmetatable
 * (A, nil)), and then the class's is set by name. */
cute_layout *cutelua_newresult(lua_State *L)
{
  cute_layout *u = new_layout(L, NULL);
  if (lua_getmetatable(L, 1))
    lua_setmetatable(L, -2);
  else
    cutelua_setclass(L, CUTELUA_CLASS_LAYOUT);
  return u;
}

/* buf = n:1, the layout an integer operand stands for (n > 0).  A
 * positive n is a valid shape, so the usual case is written directly;
 * anything else takes cute_layout_make's checks and message. */
static cute_status make_n1(cute_layout *buf, lua_Integer v, cute_error *err)
{
  if (v > 0) {
    cute_tuple_int(&buf->shape, (int64_t)v);
    return cute_tuple_int(&buf->stride, 1);
  }
  /* said here: the algebra would print math.mininteger as `_` */
  if (err) {
    err->code = CUTE_EINVAL;
    err->column = 0;
    snprintf(err->msg, sizeof err->msg, "integer %lld is not a positive "
             "size (an integer n stands for the layout n:1)", (long long)v);
  }
  return CUTE_EINVAL;
}

const cute_layout *cutelua_testoperand(lua_State *L, int idx,
                                       cute_layout *buf)
{
  cute_layout *l = cutelua_testlayout(L, idx);
  lua_Integer v;
  if (l) return l;
  if (!cutelua_tointeger(L, idx, &v) || make_n1(buf, v, NULL)) return NULL;
  return buf;
}

const char *cutelua_operand_msg(lua_State *L, int idx)
{
  cute_layout buf;
  cute_error err;
  lua_Integer v;
  if (!cutelua_tointeger(L, idx, &v))
    return cutelua_typemsg(L, idx, "cute.Layout or integer");
  make_n1(&buf, v, &err);
  return lua_pushstring(L, err.msg);
}

const cute_layout *cutelua_checkoperand(lua_State *L, int idx,
                                        cute_layout *buf)
{
  const cute_layout *l = cutelua_testoperand(L, idx, buf);
  if (l == NULL) cutelua_badarg(L, idx, cutelua_operand_msg(L, idx));
  return l;
}

/* ------------------------------------------------------ constructors -- */

typedef cute_status (*shape_fn)(cute_layout *, const cute_tuple *,
                                cute_error *);

static int from_shape(lua_State *L, shape_fn f)
{
  cute_tuple shape;
  cute_error err;
  cute_layout *u;
  cutelua_checktuple(L, 1, &shape);
  u = cutelua_pushlayout(L, NULL);
  if (f(u, &shape, &err)) return cutelua_error(L, &err);
  return 1;
}

/* cute.layout(text) | (shape) | (shape, stride) | (layout).  Text starting
 * with "Sw<" is a composed layout.  The parsers get the text whole, leading
 * white space included, so error columns and the length limit count it. */
static int l_layout(lua_State *L)
{
  cute_tuple shape, stride;
  cute_error err;
  cute_layout *u;
  /* A text or a layout is the whole layout, a shape at most one stride:
   * anything after is refused, not dropped.  (Tested once: the class
   * tests are the cost of a tuple's call.) */
  int text = lua_type(L, 1) == LUA_TSTRING;
  int layout = !text && (cutelua_testlayout(L, 1) ||
                         cutelua_testcomposed(L, 1));
  int whole = text || layout;
  if (!lua_isnoneornil(L, whole ? 2 : 3))
    return cutelua_badarg(L, whole ? 2 : 3, whole ? "nothing expected after "
                          "a layout or its text" : "nothing expected after "
                          "the shape and stride");
  if (text) {
    const char *s = cutelua_checktext(L, 1), *t = s;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r') t++;
    if (strncmp(t, "Sw<", 3) == 0) {
      cute_composed c;
      if (cute_composed_parse(&c, s, &err)) return cutelua_error(L, &err);
      cutelua_checkintegral(L, &c, "layout");
      cutelua_pushcomposed(L, &c);
      return 1;
    }
    u = cutelua_pushlayout(L, NULL);
    if (cute_layout_parse(u, s, &err)) return cutelua_error(L, &err);
    return 1;
  }
  if (layout) {
    lua_settop(L, 1);  /* values are immutable: no copy needed */
    return 1;
  }
  if (lua_isnoneornil(L, 2)) return from_shape(L, cute_layout_left);
  cutelua_checktuple(L, 1, &shape);
  cutelua_checktuple(L, 2, &stride);
  u = cutelua_pushlayout(L, NULL);
  if (cute_layout_make(u, &shape, &stride, &err))
    return cutelua_error(L, &err);
  return 1;
}

static int l_layout_right(lua_State *L)
{
  return from_shape(L, cute_layout_right);
}

static int l_identity(lua_State *L)
{
  return from_shape(L, cute_layout_identity);
}

/* ------------------------------------------------------- metamethods -- */

/* A(idx) / A(crd...) -> value; with `_` in the coordinate: sublayout and
 * offset (paper eq. 10: A(c' + c*) = {A(c')} o A(c*)). */
static int layout_call(lua_State *L)
{
  cute_layout *A = cutelua_checklayout(L, 1);
  cute_tuple crd, val;
  cute_error err;
  lua_Integer i;
  /* The index form for plain integers; INT64_MIN (the marker's value)
   * goes the coordinate way, which refuses it. */
  if (lua_gettop(L) == 2 && cutelua_tointeger(L, 2, &i) &&
      i != CUTE_UNDERSCORE && !cute_layout_has_basis(A)) {
    int64_t r;
    if (cute_layout_eval_index(A, (int64_t)i, &r, &err))
      return cutelua_error(L, &err);
    lua_pushinteger(L, (lua_Integer)r);
    return 1;
  }
  if (cutelua_callcoord(L, 2, &crd)) {
    cute_layout *sub = cutelua_newresult(L);
    if (cute_layout_slice(sub, &val, A, &crd, &err))
      return cutelua_error(L, &err);
    cutelua_pushtuple(L, &val);
    return 2;
  }
  if (cute_layout_eval(A, &crd, &val, &err)) return cutelua_error(L, &err);
  cutelua_pushtuple(L, &val);
  return 1;
}

static int layout_tostring(lua_State *L)
{
  char buf[CUTE_MAX_TEXT];
  cute_layout_print(cutelua_checklayout(L, 1), buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

static int layout_eq(lua_State *L)
{
  cute_layout *a = cutelua_testlayout(L, 1), *b = cutelua_testlayout(L, 2);
  lua_pushboolean(L, a && b && cute_layout_equal(a, b));
  return 1;
}

/* A .. B = (A, B), the concatenation of paper 3.1. */
static int layout_concat(lua_State *L)
{
  const cute_layout *ls[2];
  cute_error err;
  cute_layout *u;
  ls[0] = cutelua_checklayout(L, 1);
  ls[1] = cutelua_checklayout(L, 2);
  u = cutelua_newresult(L);
  if (cute_layout_concat(u, ls, 2, &err)) return cutelua_error(L, &err);
  return 1;
}

/* ----------------------------------------------------------- methods -- */

static int layout_shape(lua_State *L)
{
  cutelua_pushtuple(L, &cutelua_checklayout(L, 1)->shape);
  return 1;
}

static int layout_stride(lua_State *L)
{
  cutelua_pushtuple(L, &cutelua_checklayout(L, 1)->stride);
  return 1;
}

/* A:mode(i), 0-based as in the paper. */
/* L:mode(i [, j, ...]): mode i, then its mode j, ... (CuTe's layout<I,J>
 * and get<I,J>), each index 0-based. */
static int layout_mode(lua_State *L)
{
  cute_layout *A = cutelua_checklayout(L, 1);
  int k, top = lua_gettop(L);
  cute_error err;
  cute_layout *u;
  cutelua_checkany(L, 2);
  for (k = 2; k <= top; k++) {
    lua_Integer i = cutelua_checkint(L, k);
    cutelua_argcheck(L, i >= 0 && i <= INT_MAX, k, "mode index must be >= 0");
  }
  u = cutelua_newresult(L);
  for (k = 2; k <= top; k++) {
    if (cute_layout_mode(u, k == 2 ? A : u,
                         (int)lua_tointeger(L, k), &err))
      return cutelua_error(L, &err);
  }
  return 1;
}

/* ------------------------------------- queries on any layout-like arg -- */

/* size/rank/depth of a Layout, a ComposedLayout (its layout) or a tuple. */
static const cute_tuple *shape_arg(lua_State *L, int idx, cute_tuple *buf)
{
  cute_layout *l = cutelua_testlayout(L, idx);
  cute_composed *c;
  if (l) return &l->shape;
  if ((c = cutelua_testcomposed(L, idx)) != NULL) return &c->layout.shape;
  cutelua_checktuple(L, idx, buf);
  return buf;
}

static int l_size(lua_State *L)
{
  cute_tuple buf;
  cute_error err;
  int64_t n;
  if (cute_tuple_size(shape_arg(L, 1, &buf), &n, &err))
    return cutelua_error(L, &err);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

static int l_rank(lua_State *L)
{
  cute_tuple buf;
  lua_pushinteger(L, cute_tuple_rank(shape_arg(L, 1, &buf)));
  return 1;
}

static int l_depth(lua_State *L)
{
  cute_tuple buf;
  lua_pushinteger(L, cute_tuple_depth(shape_arg(L, 1, &buf)));
  return 1;
}

/* A swizzled cosize walks the domain, up to CUTE_MAX_WALK elements. */
void cutelua_charge_cosize(lua_State *L, const cute_composed *c,
                           const char *what)
{
  int64_t n;
  if (cute_composed_size(c, &n, NULL) == CUTE_OK && n <= CUTE_MAX_WALK)
    cutelua_charge(L, (double)n, what);
}

static int l_cosize(lua_State *L)
{
  cute_layout *l = cutelua_testlayout(L, 1);
  cute_composed *c = l ? NULL : cutelua_testcomposed(L, 1);
  cute_error err;
  int64_t n;
  cute_status st;
  if (!l && !c)
    return cutelua_typeerror(L, 1, "cute.Layout or cute.ComposedLayout");
  if (c) cutelua_charge_cosize(L, c, "cosize");
  st = l ? cute_layout_cosize(l, &n, &err) : cute_composed_cosize(c, &n, &err);
  if (st) return cutelua_error(L, &err);
  lua_pushinteger(L, (lua_Integer)n);
  return 1;
}

void cutelua_open_layout(lua_State *L)
{
  static const luaL_Reg meta[] = {
      {"__call", layout_call},
      {"__tostring", layout_tostring},
      {"__eq", layout_eq},
      {"__concat", layout_concat},
      {"__mul", cutelua_compose_op},
      {NULL, NULL}};
  static const luaL_Reg methods[] = {
      {"shape", layout_shape},
      {"stride", layout_stride},
      {"mode", layout_mode},
      {"size", l_size},
      {"cosize", l_cosize},
      {"rank", l_rank},
      {"depth", l_depth},
      {NULL, NULL}};
  static const luaL_Reg funcs[] = {
      {"layout", l_layout},
      {"layout_right", l_layout_right},
      {"make_identity_layout", l_identity},
      {"size", l_size},
      {"cosize", l_cosize},
      {"rank", l_rank},
      {"depth", l_depth},
      {NULL, NULL}};
  cutelua_newclass(L, CUTELUA_LAYOUT, meta, methods);
  luaL_setfuncs(L, funcs, 0);
}
