/*
 * lua_tuple.c -- tuples as Lua values: integers and nested tables, scaled
 * basis leaves as cute.E userdata, the slice marker `_`; and the module
 * functions that work on tuples alone (tuple, tuple_tostring, crd2idx,
 * the relations of paper section 2; idx2crd and the arithmetic are in
 * lua_tuple_arith.c).
 *
 *   cute.tuple "(1,(2,3))"        --> {1,{2,3}}
 *   cute.tuple_tostring {1,{2,3}} --> "(1,(2,3))"
 *   2 * cute.E(1)                 --> 2@1   (the paper's 2e_1)
 */
#include "lua_internal.h"

#include <string.h>

/* The marker is a light userdata kept in the registry under
 * UNDERSCORE_KEY.  Every copy of these bindings has its own tag byte
 * (cute/core.so and cute/cuda/core.so each carry one, loaded RTLD_LOCAL);
 * the first copy to push the marker in a state stores its tag's address,
 * and every copy compares against that value, so all agree on `_`. */
#define UNDERSCORE_KEY "cute._"
static const char underscore_tag = '_';

void cutelua_pushunderscore(lua_State *L)
{
  if (lua_getfield(L, LUA_REGISTRYINDEX, UNDERSCORE_KEY) ==
      LUA_TLIGHTUSERDATA)
    return;
  lua_pop(L, 1);
  lua_pushlightuserdata(L, (void *)&underscore_tag);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, UNDERSCORE_KEY);
}

int cutelua_isunderscore(lua_State *L, int idx)
{
  int is;
  if (!lua_islightuserdata(L, idx)) return 0;
  /* this copy's tag is only ever pushed as the state's marker */
  if (lua_touserdata(L, idx) == (void *)&underscore_tag) return 1;
  idx = lua_absindex(L, idx);
  luaL_checkstack(L, 1, "cute._");
  cutelua_pushunderscore(L);
  is = lua_rawequal(L, idx, -1);
  lua_pop(L, 1);
  return is;
}

int cutelua_error(lua_State *L, const cute_error *err)
{
  lua_pushstring(L, err->msg);
  return lua_error(L);
}

int cutelua_argerror(lua_State *L, int arg, const cute_error *err)
{
  return cutelua_badarg(L, arg, err->msg);
}

const char *cutelua_typemsg(lua_State *L, int arg, const char *expected)
{
  const char *got;
  if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING)
    got = lua_tostring(L, -1);
  else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA)
    got = "light userdata";
  else
    got = luaL_typename(L, arg);
  return lua_pushfstring(L, "%s expected, got %s", expected, got);
}

/* ------------------------------------------------------------ cute.E -- */
/* A scaled basis element v@path: v * e_i (path (i)), or a nested E<i,j,..>
 * (path outermost first, printed innermost first: E<0,1> is 1@1@0). */
typedef struct basis_ud { int64_t v; cute_basis e; } basis_ud;

static void push_basis(lua_State *L, int64_t v, cute_basis e)
{
  basis_ud *b = lua_newuserdatauv(L, sizeof *b, 0);
  b->v = v;
  b->e = e;
  luaL_setmetatable(L, CUTELUA_BASIS);
}

/* cute.E(i [, j, k]): the unit basis element E<i,j,k>. */
static int basis_new(lua_State *L)
{
  int k, n = lua_gettop(L);
  cute_basis e = (cute_basis)n;
  cutelua_argcheck(L, n >= 1 && n <= CUTE_MAX_BASIS_DEPTH, n > 0 ? n : 1,
                  "cute.E takes 1 to 3 mode indices");
  for (k = 0; k < n; k++) {
    lua_Integer i = cutelua_checkint(L, k + 1);
    cutelua_argcheck(L, i >= 0 && i <= CUTE_MAX_BASIS_INDEX, k + 1,
                    "basis index out of range [0, 254]");
    e |= (cute_basis)i << (8 * (k + 1));
  }
  push_basis(L, 1, e);
  return 1;
}

/* A stride operand of the basis arithmetic: a cute.E value or an
 * integer (0 adds to anything; cute_stride_combine says why others do
 * not). */
static void stride_arg(lua_State *L, int arg, int64_t *v, cute_basis *e)
{
  basis_ud *b = luaL_testudata(L, arg, CUTELUA_BASIS);
  if (b) {
    *v = b->v;
    *e = b->e;
  } else {
    *v = cutelua_checkint(L, arg);
    *e = 0;
  }
}

/* x*a + y*b on the leaves a at argument ia and b at 2 (read when y !=
 * 0), as cute_stride_combine packs them: E(0)*2 = 2@0, E(0)+E(1) =
 * 1@0+1@1, -E(1) = -1@1.  An overflow names the expression written,
 * `what` with the text of the operands (arguments 1 and 2, or 1 alone):
 * "9223372036854775807@0 + 1@0: 64-bit overflow" (stride.c's message
 * names no operation: its callers do). */
static int basis_combine(lua_State *L, int ia, int64_t x, int64_t y,
                         const char *what)
{
  int64_t va, vb = 0, v;
  cute_basis ea, eb = 0, e;
  cute_error err;
  int n = lua_gettop(L);
  const char *a;
  stride_arg(L, ia, &va, &ea);
  if (y != 0) stride_arg(L, 2, &vb, &eb);
  if (!cute_stride_combine(&v, &e, x, va, ea, y, vb, eb, &err)) {
    if (e == 0) lua_pushinteger(L, (lua_Integer)v);
    else push_basis(L, v, e);
    return 1;
  }
  if (err.code != CUTE_EOVERFLOW) return cutelua_error(L, &err);
  a = luaL_tolstring(L, 1, NULL);
  lua_pushfstring(L, what, a, n > 1 ? luaL_tolstring(L, 2, NULL) : "");
  lua_pushfstring(L, "%s: %s", lua_tostring(L, -1), err.msg);
  return lua_error(L);   /* as the algebra's errors: no position */
}

static int basis_mul(lua_State *L)
{
  int bi = luaL_testudata(L, 1, CUTELUA_BASIS) ? 1 : 2;
  lua_Integer s = cutelua_checkint(L, 3 - bi);
  return basis_combine(L, bi, (int64_t)s, 0, "%s * %s");
}

static int basis_add(lua_State *L)
{
  return basis_combine(L, 1, 1, 1, "%s + %s");
}

static int basis_sub(lua_State *L)
{
  return basis_combine(L, 1, 1, -1, "%s - %s");
}

static int basis_unm(lua_State *L)
{
  lua_settop(L, 1);
  return basis_combine(L, 1, -1, 0, "-%s");
}

/* E == x: false for an x of another class (Lua asks the first operand's
 * __eq for two userdata), as for layouts: equality is no argument check. */
static int basis_eq(lua_State *L)
{
  basis_ud *a = luaL_testudata(L, 1, CUTELUA_BASIS);
  basis_ud *b = luaL_testudata(L, 2, CUTELUA_BASIS);
  lua_pushboolean(L, a && b && a->v == b->v && a->e == b->e);
  return 1;
}

static int basis_tostring(lua_State *L)
{
  basis_ud *b = cutelua_checkudata(L, 1, CUTELUA_BASIS);
  cute_tuple t;
  char buf[64];
  cute_tuple_clear(&t);
  cute_tuple_leaf(&t, b->v, b->e, NULL);
  cute_tuple_print(&t, buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

/* e.value, e.mode: CuTe DSL's ScaledBasis fields, the scale and the mode
 * path outermost first (E(0,1).mode = {0,1}), so scripts read a basis
 * stride without parsing its text; a sum of bases (1@0+1@1) and a binary
 * stride (F5) have neither: nil. */
static int basis_index(lua_State *L)
{
  basis_ud *b = cutelua_checkudata(L, 1, CUTELUA_BASIS);
  const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
  int i, len = CUTE_BASIS_LEN(b->e);
  if (k == NULL || CUTE_BASIS_IS_SUM(b->e) || b->e == CUTE_BASIS_F2) return 0;
  if (strcmp(k, "value") == 0) {
    lua_pushinteger(L, (lua_Integer)b->v);
    return 1;
  }
  if (strcmp(k, "mode") != 0) return 0;
  lua_createtable(L, len, 0);
  for (i = 0; i < len; i++) {
    lua_pushinteger(L, CUTE_BASIS_AT(b->e, i));
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* ----------------------------------------------------- Lua -> tuple -- */

int cutelua_tointeger(lua_State *L, int idx, lua_Integer *v)
{
  int isint;
  if (lua_type(L, idx) != LUA_TNUMBER) return 0;
  *v = lua_tointegerx(L, idx, &isint);
  return isint;
}

const char *cutelua_intmsg(lua_State *L, int idx)
{
  if (lua_type(L, idx) != LUA_TNUMBER) return cutelua_typemsg(L, idx, "integer");
  return lua_pushfstring(L, "%s is not an integer", luaL_tolstring(L, idx, NULL));
}

lua_Integer cutelua_checkint(lua_State *L, int arg)
{
  lua_Integer v;
  if (cutelua_tointeger(L, arg, &v)) return v;
  return cutelua_badarg(L, arg, cutelua_intmsg(L, arg));
}

const char *cutelua_checktext(lua_State *L, int arg)
{
  size_t len, n;
  const char *s = lua_tolstring(L, arg, &len);
  if (s == NULL) cutelua_typeerror(L, arg, "string");
  n = strlen(s);
  if (n != len)
    cutelua_badarg(L, arg, lua_pushfstring(L, "text contains a NUL byte at "
                                           "column %d", (int)n + 1));
  return s;
}

/* A number is named by its value (2.5), anything else by its type. */
static cute_status fail_leaf(lua_State *L, int idx, cute_error *err)
{
  int isnum = lua_type(L, idx) == LUA_TNUMBER;
  const char *what = isnum ? luaL_tolstring(L, idx, NULL)
                           : luaL_typename(L, idx);
  cute_fail(err, CUTE_EINVAL,
            "tuple: %s is not an integer, cute.E, cute._ or table", what);
  if (isnum) lua_pop(L, 1);
  return CUTE_EINVAL;
}

/* INT64_MIN is how the slice marker is stored: a Lua integer with that
 * value would silently become `_`. */
static cute_status leaf(cute_tuple *t, int64_t v, cute_basis e,
                        cute_error *err)
{
  if (v == CUTE_UNDERSCORE)
    return cute_fail(err, CUTE_EINVAL, "tuple: integer %lld is out of range",
                     (long long)v);
  return cute_tuple_leaf(t, v, e, err);
}

/* A tuple table is the sequence 1..n and nothing else: the walk in build
 * reads only 1..n, so a hole or any other key would be dropped silently.
 * The bad key is named: a key outside 1..n, or the first missing one. */
static cute_status check_sequence(lua_State *L, int idx, lua_Integer n,
                                  cute_error *err)
{
  static const char why[] = " (a tuple table is a list 1..n without holes "
                            "or other keys)";
  lua_Integer k, count = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (!cutelua_tointeger(L, -1, &k) || k < 1 || k > n) {
      const char *key = lua_type(L, -1) == LUA_TSTRING
                            ? lua_pushfstring(L, "\"%s\"", lua_tostring(L, -1))
                            : luaL_tolstring(L, -1, NULL);
      cute_fail(err, CUTE_EINVAL,
                "tuple: key %s is outside the list 1..%lld%s", key,
                (long long)n, why);
      lua_pop(L, 2);
      return CUTE_EINVAL;
    }
    count++;
  }
  for (k = 1; count < n && k <= n; k++) {
    int hole = lua_rawgeti(L, idx, k) == LUA_TNIL;
    lua_pop(L, 1);
    if (hole)
      return cute_fail(err, CUTE_EINVAL,
                       "tuple: key %lld is missing from the list 1..%lld%s",
                       (long long)k, (long long)n, why);
  }
  return CUTE_OK;
}

/* Most tuples from Lua are flat lists of integers and `_`: a coordinate
 * {1, _}, A(2, 5).  Such a tuple (v1, ..., vn) is written directly, as
 * the builder writes it; anything else (a nested table, a cute.E leaf, no
 * or too many leaves, a bad value) is left to the builder, which names
 * what is wrong.  flat_leaf reads one value; flat_close writes the
 * tokens and returns 1, or 0 when a leaf was not flat. */
static int flat_leaf(lua_State *L, int idx, int64_t *v)
{
  lua_Integer i;
  if (cutelua_tointeger(L, idx, &i) && i != CUTE_UNDERSCORE) {
    *v = (int64_t)i;
    return 1;
  }
  *v = CUTE_UNDERSCORE;
  return cutelua_isunderscore(L, idx);
}

static int flat_close(cute_tuple *t, int n, int ok)
{
  int i;
  if (!ok) return 0;
  t->tok[0] = '(';
  for (i = 0; i < n; i++) {
    t->tok[i + 1] = 'x';
    t->e[i] = 0;
  }
  t->tok[n + 1] = ')';
  t->ntok = (uint8_t)(n + 2);
  t->nleaf = (uint8_t)n;
  return 1;
}

/* The list table at idx as a flat tuple in one pass of lua_next, which
 * gives a table constructor's elements in order 1..n (its array part):
 * each key must be the next integer (not a string that converts to one:
 * {["1"] = 4} is no list), each value a flat leaf.  Keys 1..n
 * and no others are the list check_sequence asks for.  0 (anything else:
 * other keys, keys out of order, a nested or bad value) leaves the table
 * to check_sequence and the builder. */
static int flat_table(lua_State *L, int idx, cute_tuple *t)
{
  int n = 0, ok = 1, top = lua_gettop(L);
  lua_pushnil(L);
  while (ok && lua_next(L, idx)) {
    ok = n < CUTE_MAX_LEAVES && lua_isinteger(L, -2) &&
         lua_tointeger(L, -2) == n + 1 && flat_leaf(L, -1, &t->v[n]);
    n++;
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  return flat_close(t, n, ok && n >= 1);
}

/* The call arguments first..top as a flat tuple. */
static int flat_args(lua_State *L, int first, int top, cute_tuple *t)
{
  int i, n = top - first + 1, ok = n >= 1 && n <= CUTE_MAX_LEAVES;
  for (i = 0; ok && i < n; i++) ok = flat_leaf(L, first + i, &t->v[i]);
  return flat_close(t, n, ok);
}

static cute_status build(lua_State *L, int idx, cute_tuple *t,
                         cute_error *err)
{
  cute_status st;
  lua_Integer v;
  basis_ud *b;
  if (lua_type(L, idx) == LUA_TTABLE) {
    lua_Integer i, n = (lua_Integer)lua_rawlen(L, idx);
    if ((st = check_sequence(L, idx, n, err))) return st;
    if ((st = cute_tuple_open(t, err))) return st;
    for (i = 1; i <= n; i++) {
      lua_rawgeti(L, idx, i);
      st = build(L, lua_gettop(L), t, err);
      lua_pop(L, 1);
      if (st) return st;
    }
    return cute_tuple_close(t, err);
  }
  if (cutelua_tointeger(L, idx, &v)) return leaf(t, (int64_t)v, 0, err);
  if (cutelua_isunderscore(L, idx))
    return cute_tuple_leaf(t, CUTE_UNDERSCORE, 0, err);
  if ((b = luaL_testudata(L, idx, CUTELUA_BASIS)) != NULL)
    return leaf(t, b->v, b->e, err);
  return fail_leaf(L, idx, err);
}

int cutelua_totuple(lua_State *L, int idx, cute_tuple *out, cute_error *err)
{
  cute_error local;
  idx = lua_absindex(L, idx);
  cute_tuple_clear(out);
  /* The flat pass takes two slots, of the LUA_MINSTACK a C function has;
   * the builder's nesting is bounded by CUTE_MAX_DEPTH (it refuses
   * deeper), so its recursion needs at most that many more. */
  if (lua_type(L, idx) == LUA_TTABLE && flat_table(L, idx, out))
    return CUTE_OK;
  luaL_checkstack(L, CUTE_MAX_DEPTH + 4, "tuple nesting");
  return build(L, idx, out, err ? err : &local);
}

void cutelua_checktuple(lua_State *L, int arg, cute_tuple *out)
{
  cute_error err;
  if (cutelua_totuple(L, arg, out, &err)) cutelua_argerror(L, arg, &err);
}

int cutelua_callcoord(lua_State *L, int first, cute_tuple *crd)
{
  cute_error err;
  int i, top = lua_gettop(L);
  if (top < first) cutelua_callerror(L, first, "coordinate expected");
  if (top == first) {
    if (cutelua_totuple(L, first, crd, &err))
      cutelua_callerror(L, first, err.msg);
  } else if (!flat_args(L, first, top, crd)) {
    cute_tuple_clear(crd);
    if (cute_tuple_open(crd, &err)) cutelua_error(L, &err);
    for (i = first; i <= top; i++)
      if (build(L, i, crd, &err)) cutelua_callerror(L, i, err.msg);
    if (cute_tuple_close(crd, &err)) cutelua_error(L, &err);
  }
  for (i = 0; i < crd->nleaf; i++)
    if (crd->v[i] == CUTE_UNDERSCORE && crd->e[i] == 0) return 1;
  return 0;
}

/* ----------------------------------------------------- tuple -> Lua -- */

static void push_leaf(lua_State *L, int64_t v, cute_basis e)
{
  if (e != 0) push_basis(L, v, e);
  else if (v == CUTE_UNDERSCORE) cutelua_pushunderscore(L);
  else lua_pushinteger(L, (lua_Integer)v);
}

/* Pushes the element starting at token p; returns the token after it. */
static int push_elem(lua_State *L, const cute_tuple *t, int p, int *leaf)
{
  lua_Integer i = 0;
  if (t->tok[p] == 'x') {
    push_leaf(L, t->v[*leaf], t->e[*leaf]);
    ++*leaf;
    return p + 1;
  }
  lua_newtable(L);
  luaL_setmetatable(L, CUTELUA_TUPLE);
  for (p++; p < t->ntok && t->tok[p] != ')';) {
    p = push_elem(L, t, p, leaf);
    lua_rawseti(L, -2, ++i);
  }
  return p + 1;
}

void cutelua_pushtuple(lua_State *L, const cute_tuple *t)
{
  int leaf = 0;
  luaL_checkstack(L, CUTE_MAX_DEPTH + 4, "tuple nesting");
  if (t->ntok == 0) {
    lua_newtable(L);
    luaL_setmetatable(L, CUTELUA_TUPLE);
  } else {
    push_elem(L, t, 0, &leaf);
  }
}

/* -------------------------------------------------- module functions -- */

/* cute.tuple(text) -> Lua tuple */
static int l_tuple(lua_State *L)
{
  cute_tuple t;
  cute_error err;
  if (cute_tuple_parse(&t, cutelua_checktext(L, 1), &err))
    return cutelua_error(L, &err);
  cutelua_pushtuple(L, &t);
  return 1;
}

static int l_tuple_tostring(lua_State *L)
{
  cute_tuple t;
  char buf[CUTE_MAX_TEXT];
  cutelua_checktuple(L, 1, &t);
  cute_tuple_print(&t, buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

/* cute.crd2idx(coord, shape [, stride]): colexicographic index, or with a
 * stride the inner product (the layout shape:stride at coord). */
static int l_crd2idx(lua_State *L)
{
  cute_tuple crd, shape, val;
  cute_layout lay;
  cute_error err;
  int64_t idx;
  cutelua_checktuple(L, 1, &crd);
  cutelua_checktuple(L, 2, &shape);
  if (lua_isnoneornil(L, 3)) {
    if (cute_crd2idx(&idx, &crd, &shape, &err)) return cutelua_error(L, &err);
    lua_pushinteger(L, (lua_Integer)idx);
    return 1;
  }
  cutelua_checktuple(L, 3, &val);
  if (cute_layout_make(&lay, &shape, &val, &err) ||
      cute_layout_eval(&lay, &crd, &val, &err)) {
    char c[CUTE_MAX_TEXT], s[CUTE_MAX_TEXT], d[CUTE_MAX_TEXT];
    cutelua_checktuple(L, 3, &val);  /* the steps name themselves: */
    cute_tuple_print(&crd, c, sizeof c);  /* say which call they were */
    cute_tuple_print(&shape, s, sizeof s);
    cute_tuple_print(&val, d, sizeof d);
    return luaL_error(L, "crd2idx(%s, %s, %s): %s", c, s, d, err.msg);
  }
  cutelua_pushtuple(L, &val);
  return 1;
}

typedef int (*relation_fn)(const cute_tuple *, const cute_tuple *);

static int relation(lua_State *L, relation_fn f)
{
  cute_tuple a, b;
  cutelua_checktuple(L, 1, &a);
  cutelua_checktuple(L, 2, &b);
  lua_pushboolean(L, f(&a, &b));
  return 1;
}

static int l_congruent(lua_State *L) { return relation(L, cute_congruent); }
static int l_weakly_congruent(lua_State *L)
{
  return relation(L, cute_weakly_congruent);
}
static int l_compatible(lua_State *L) { return relation(L, cute_compatible); }

void cutelua_open_tuple(lua_State *L)
{
  static const luaL_Reg basis_meta[] = {
      {"__mul", basis_mul},
      {"__add", basis_add},
      {"__sub", basis_sub},
      {"__unm", basis_unm},
      {"__eq", basis_eq},
      {"__tostring", basis_tostring},
      {"__index", basis_index},
      {NULL, NULL}};
  static const luaL_Reg funcs[] = {
      {"E", basis_new},
      {"tuple", l_tuple},
      {"tuple_tostring", l_tuple_tostring},
      {"crd2idx", l_crd2idx},
      {"congruent", l_congruent},
      {"weakly_congruent", l_weakly_congruent},
      {"compatible", l_compatible},
      {NULL, NULL}};
  static const luaL_Reg tuple_meta[] = {
      {"__tostring", l_tuple_tostring},
      {NULL, NULL}};
  cutelua_newclass(L, CUTELUA_BASIS, basis_meta, NULL);
  cutelua_newclass(L, CUTELUA_TUPLE, tuple_meta, NULL);
  luaL_setfuncs(L, funcs, 0);
  cutelua_pushunderscore(L);
  lua_setfield(L, -2, "_");
}
