/*
 * lua_linear.c -- LinearLayout userdata (Triton's linear layouts over F2)
 * and the conversions to and from CuTe layouts (algebra/linear*.c).
 *
 *   local A = cute.to_linear(cute.layout "(4,8):(8,1)")
 *   print(A)        --  - dim0=1 -> (8) ... where out dims are: [offset (size 32)]
 *   A(3, 5)         --> 29        (dim0=3, dim1=5)
 *   cute.from_linear(A)            --> (4,8):(8,1)
 *   cute.linear_layout [[ - register=1 -> (0, 1) ... ]]   -- Triton's text
 */
#include "lua_internal.h"

#include <string.h>

static cute_linear *check_linear(lua_State *L, int idx)
{
  return cutelua_checkudata(L, idx, CUTELUA_LINEAR);
}

static cute_linear *push_linear(lua_State *L, const cute_linear *A)
{
  cute_linear *u = lua_newuserdatauv(L, sizeof *u, 0);
  *u = *A;
  luaL_setmetatable(L, CUTELUA_LINEAR);
  return u;
}

/* A LinearLayout argument, or Triton's text of one.  Text that does not
 * parse is an argument error of the call that read it: the parser's
 * message names linear_layout, not conversion or compose (found by
 * spec/vm/test_api_monkey.c). */
static const cute_linear *linear_arg(lua_State *L, int idx, cute_linear *buf)
{
  cute_error err;
  if (lua_type(L, idx) == LUA_TSTRING) {
    if (cute_linear_parse(buf, cutelua_checktext(L, idx), &err))
      cutelua_argerror(L, idx, &err);
    return buf;
  }
  return check_linear(L, idx);
}

/* cute.linear_layout(text): the parser's message is its own */
static int l_linear_layout(lua_State *L)
{
  cute_linear A;
  cute_error err;
  if (lua_type(L, 1) != LUA_TSTRING) {
    push_linear(L, linear_arg(L, 1, &A));
    return 1;
  }
  if (cute_linear_parse(&A, cutelua_checktext(L, 1), &err))
    return cutelua_error(L, &err);
  push_linear(L, &A);
  return 1;
}

/* cute.to_linear(L [, {tv = true, tile = {M, N, ...}}]) */
static int l_to_linear(lua_State *L)
{
  cute_composed C;
  cute_layout *lay = cutelua_testlayout(L, 1);
  int64_t tile[CUTE_LINEAR_MAX_DIMS];
  int ntile = 0, tv = 0;
  cute_linear A;
  cute_error err;
  if (lay) {
    memset(&C.sw, 0, sizeof C.sw);
    C.offset = 0;
    C.layout = *lay;
  } else {
    C = *cutelua_checkcomposed(L, 1);
  }
  if (!lua_isnoneornil(L, 2)) {
    cutelua_checktable(L, 2);
    tv = lua_getfield(L, 2, "tv") != LUA_TNIL && lua_toboolean(L, -1);
    if (lua_getfield(L, 2, "tile") != LUA_TNIL) {
      cute_tuple t;
      int i;
      cutelua_checktuple(L, lua_gettop(L), &t);
      cutelua_argcheck(L, cute_tuple_depth(&t) <= 1 &&
                         cute_tuple_rank(&t) <= CUTE_LINEAR_MAX_DIMS, 2,
                      "tile must be a flat tuple of at most 6 extents");
      ntile = cute_tuple_rank(&t);
      for (i = 0; i < ntile; i++) tile[i] = t.v[i];
    }
    lua_pop(L, 2);
  }
  if (cute_linear_from_composed(&A, &C, tile, ntile, tv, &err))
    return cutelua_error(L, &err);
  push_linear(L, &A);
  return 1;
}

/* cute.from_linear(A [, {binary = true}]) -> Layout, or ComposedLayout
 * when a swizzle is factored out; with binary, a Layout of F2 strides */
static int l_from_linear(lua_State *L)
{
  cute_linear buf;
  cute_composed C;
  cute_error err;
  int swizzled, binary = 0;
  if (!lua_isnoneornil(L, 2)) {
    cutelua_checktable(L, 2);
    binary = lua_getfield(L, 2, "binary") != LUA_TNIL && lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  if (binary) {
    if (cute_linear_to_binary(&C.layout, linear_arg(L, 1, &buf), &err))
      return cutelua_error(L, &err);
    cutelua_pushlayout(L, &C.layout);
    return 1;
  }
  if (cute_linear_to_composed(&C, &swizzled, linear_arg(L, 1, &buf), &err))
    return cutelua_error(L, &err);
  if (swizzled) cutelua_pushcomposed(L, &C);
  else cutelua_pushlayout(L, &C.layout);
  return 1;
}

/* cute.invert_and_compose(A, B) -> C with B(C(x)) = A(x) */
static int l_invert_and_compose(lua_State *L)
{
  cute_linear a, b, r;
  cute_error err;
  if (cute_linear_invert_and_compose(&r, linear_arg(L, 1, &a),
                                     linear_arg(L, 2, &b), &err))
    return cutelua_error(L, &err);
  push_linear(L, &r);
  return 1;
}

/* cute.conversion(src, dst) -> "registers" | "shuffle" | "shared", map */
static int l_conversion(lua_State *L)
{
  static const char *const kinds[] = {"registers", "shuffle", "shared"};
  cute_linear a, b, map;
  cute_linear_move kind;
  cute_error err;
  if (cute_linear_conversion(&kind, &map, linear_arg(L, 1, &a),
                             linear_arg(L, 2, &b), &err))
    return cutelua_error(L, &err);
  lua_pushstring(L, kinds[kind]);
  push_linear(L, &map);
  return 2;
}

/* A(x0, x1, ...) one integer per input dim (missing ones 0), or A{name =
 * x, ...} -> one integer per output dim */
/* An argument error of a call A(...), where Lua would name the function
 * '?': "linear layout(lane, warp): bad argument #1 (msg)", A named by its
 * input dims and the arguments counted after A, as layout(...)'s are
 * (cutelua_callerror; a linear layout's text is many lines). */
static int call_error(lua_State *L, const cute_linear *A, int arg,
                      const char *msg)
{
  int i;
  lua_pushstring(L, "linear layout(");
  for (i = 0; i < A->nin; i++)
    lua_pushfstring(L, "%s%s", i ? ", " : "", A->in[i].name);
  lua_pushstring(L, ")");
  lua_concat(L, A->nin + 2);
  return luaL_error(L, "%s: bad argument #%d (%s)", lua_tostring(L, -1),
                    arg - 1, msg);
}

/* The input value at idx of A(...), argument `arg`: an integer, else the
 * call's argument error.  `dim` names the input dim of the table form
 * A{lane = ...}, NULL for a positional value. */
static int64_t call_input(lua_State *L, const cute_linear *A, int idx,
                          int arg, const char *dim)
{
  lua_Integer v;
  const char *why;
  idx = lua_absindex(L, idx);
  if (cutelua_tointeger(L, idx, &v)) return (int64_t)v;
  why = cutelua_intmsg(L, idx);
  if (dim) why = lua_pushfstring(L, "input dim %s: %s", dim, why);
  return call_error(L, A, arg, why);
}

/* Is the key at idx the name of an input dim of A?  (Not converted: it
 * is a key lua_next is walking.) */
static int is_dim(lua_State *L, int idx, const cute_linear *A)
{
  int i;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  for (i = 0; i < A->nin; i++)
    if (strcmp(lua_tostring(L, idx), A->in[i].name) == 0) return 1;
  return 0;
}

/* A{name = x, ...}: a key that names no input dim is refused, not read
 * as nothing (A{lane = 1} of dims dim0, dim1 gave A(0, 0)). */
static void check_dims(lua_State *L, const cute_linear *A)
{
  lua_pushnil(L);
  while (lua_next(L, 2)) {
    lua_pop(L, 1);
    if (!is_dim(L, -1, A))
      call_error(L, A, 2, lua_pushfstring(L, "%s is no input dim",
        lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
            ? luaL_tolstring(L, -1, NULL) : luaL_typename(L, -1)));
  }
}

static int linear_call(lua_State *L)
{
  cute_linear *A = check_linear(L, 1);
  int64_t in[CUTE_LINEAR_MAX_DIMS] = {0}, out[CUTE_LINEAR_MAX_DIMS];
  cute_error err;
  int i;
  if (lua_type(L, 2) == LUA_TTABLE) {
    check_dims(L, A);
    for (i = 0; i < A->nin; i++) {
      lua_getfield(L, 2, A->in[i].name);
      if (!lua_isnil(L, -1)) in[i] = call_input(L, A, -1, 2, A->in[i].name);
      lua_pop(L, 1);
    }
  } else {
    if (lua_gettop(L) - 1 > A->nin)
      call_error(L, A, A->nin + 2, "more values than input dims");
    for (i = 0; i < A->nin && i + 2 <= lua_gettop(L); i++)
      in[i] = call_input(L, A, i + 2, i + 2, NULL);
  }
  if (cute_linear_eval(A, in, out, &err)) return cutelua_error(L, &err);
  for (i = 0; i < A->nout; i++) lua_pushinteger(L, (lua_Integer)out[i]);
  return A->nout;
}

static int linear_tostring(lua_State *L)
{
  char buf[CUTE_MAX_TEXT * 2];
  size_t n = cute_linear_print(check_linear(L, 1), buf, sizeof buf);
  lua_pushlstring(L, buf, n < sizeof buf ? n : sizeof buf - 1);
  return 1;
}

static int linear_compact(lua_State *L)
{
  char buf[CUTE_MAX_TEXT * 2];
  size_t n = cute_linear_print_compact(check_linear(L, 1), buf, sizeof buf);
  lua_pushlstring(L, buf, n < sizeof buf ? n : sizeof buf - 1);
  return 1;
}

static int linear_eq(lua_State *L)
{
  cute_linear *a = luaL_testudata(L, 1, CUTELUA_LINEAR);
  cute_linear *b = luaL_testudata(L, 2, CUTELUA_LINEAR);
  int i, same = a && b && a->nin == b->nin && a->nout == b->nout;
  for (i = 0; same && i < a->nin; i++)
    same = !strcmp(a->in[i].name, b->in[i].name) && a->in[i].bits == b->in[i].bits;
  for (i = 0; same && i < a->nout; i++)
    same = !strcmp(a->out[i].name, b->out[i].name) &&
           a->out[i].bits == b->out[i].bits;
  for (i = 0; same && i < cute_linear_in_bits(a); i++)
    same = a->basis[i] == b->basis[i];
  lua_pushboolean(L, same);
  return 1;
}

/* outer:compose(inner) -> outer o inner */
static int linear_compose(lua_State *L)
{
  cute_linear b, r;
  cute_error err;
  if (cute_linear_compose(&r, check_linear(L, 1), linear_arg(L, 2, &b), &err))
    return cutelua_error(L, &err);
  push_linear(L, &r);
  return 1;
}

static int linear_invert(lua_State *L)
{
  cute_linear r;
  cute_error err;
  if (cute_linear_invert(&r, check_linear(L, 1), &err))
    return cutelua_error(L, &err);
  push_linear(L, &r);
  return 1;
}

static int linear_rank(lua_State *L)
{
  lua_pushinteger(L, cute_linear_rank(check_linear(L, 1)));
  return 1;
}

/* {name = mask, ...} of the broadcast input bits */
static int linear_free_masks(lua_State *L)
{
  cute_linear *A = check_linear(L, 1);
  uint64_t m[CUTE_LINEAR_MAX_DIMS];
  int i;
  cute_linear_free_masks(A, m);
  lua_createtable(L, 0, A->nin);
  for (i = 0; i < A->nin; i++) {
    lua_pushinteger(L, (lua_Integer)m[i]);
    lua_setfield(L, -2, A->in[i].name);
  }
  return 1;
}

/* {{name, size}, ...} */
static int push_dims(lua_State *L, const cute_linear_dim *d, int n)
{
  int i;
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 2, 0);
    lua_pushstring(L, d[i].name);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, (lua_Integer)1 << d[i].bits);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int linear_in_dims(lua_State *L)
{
  cute_linear *A = check_linear(L, 1);
  return push_dims(L, A->in, A->nin);
}

static int linear_out_dims(lua_State *L)
{
  cute_linear *A = check_linear(L, 1);
  return push_dims(L, A->out, A->nout);
}

void cutelua_open_linear(lua_State *L)
{
  static const luaL_Reg meta[] = {
      {"__call", linear_call},
      {"__tostring", linear_tostring},
      {"__eq", linear_eq},
      {NULL, NULL}};
  static const luaL_Reg methods[] = {
      {"compose", linear_compose},
      {"invert", linear_invert},
      {"rank", linear_rank},
      {"free_masks", linear_free_masks},
      {"in_dims", linear_in_dims},
      {"out_dims", linear_out_dims},
      {"compact", linear_compact},
      {NULL, NULL}};
  static const luaL_Reg funcs[] = {
      {"linear_layout", l_linear_layout},
      {"to_linear", l_to_linear},
      {"from_linear", l_from_linear},
      {"invert_and_compose", l_invert_and_compose},
      {"conversion", l_conversion},
      {NULL, NULL}};
  cutelua_newclass(L, CUTELUA_LINEAR, meta, methods);
  luaL_setfuncs(L, funcs, 0);
}
