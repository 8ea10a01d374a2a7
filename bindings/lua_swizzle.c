/*
 * lua_swizzle.c -- Swizzle and ComposedLayout userdata.
 *
 *   local sw = cute.swizzle(3, 4, 3)               -- Sw<3,4,3>
 *   sw(0x90)                                         -- xor of bit fields
 *   local C = cute.composed(sw, 0, cute.layout "(8,64):(64,1)")
 *   tostring(C)   --> "Sw<3,4,3> o 0 o (8,64):(64,1)"
 *   C(i, j)       --> sw(0 + L(i, j))
 *
 * Slicing a composed layout cannot split the offset out of the swizzle
 * (sw(a + b) is not sw(a) + b), so C(i, cute._) returns the composed
 * sublayout with the offset folded in, and 0 as the separate offset.
 */
#include "lua_internal.h"

cute_swizzle *cutelua_checkswizzle(lua_State *L, int idx)
{
  return cutelua_checkclass(L, idx, CUTELUA_CLASS_SWIZZLE);
}

cute_swizzle *cutelua_pushswizzle(lua_State *L, cute_swizzle sw)
{
  cute_swizzle *u = lua_newuserdatauv(L, sizeof *u, 0);
  *u = sw;
  cutelua_setclass(L, CUTELUA_CLASS_SWIZZLE);
  return u;
}

cute_composed *cutelua_testcomposed(lua_State *L, int idx)
{
  return cutelua_testclass(L, idx, CUTELUA_CLASS_COMPOSED);
}

cute_composed *cutelua_checkcomposed(lua_State *L, int idx)
{
  return cutelua_checkclass(L, idx, CUTELUA_CLASS_COMPOSED);
}

cute_composed *cutelua_pushcomposed(lua_State *L, const cute_composed *c)
{
  cute_composed *u = lua_newuserdatauv(L, sizeof *u, 0);
  *u = *c;
  cutelua_setclass(L, CUTELUA_CLASS_COMPOSED);
  return u;
}

/* ----------------------------------------------------------- Swizzle -- */

static int int_arg(lua_State *L, int arg)
{
  lua_Integer v = cutelua_checkint(L, arg);
  cutelua_argcheck(L, v >= -64 && v <= 64, arg,
                   "swizzle parameter out of range");
  return (int)v;
}

/* cute.swizzle(b, m, s) | cute.swizzle "Sw<b,m,s>" */
static int l_swizzle(lua_State *L)
{
  cute_swizzle sw;
  cute_error err;
  cute_status st;
  if (lua_type(L, 1) == LUA_TSTRING) {
    st = cute_swizzle_parse(&sw, cutelua_checktext(L, 1), &err);
  } else {
    /* in order, so the first bad argument is the one named (the order in
     * which C evaluates call arguments is unspecified) */
    int b = int_arg(L, 1), m = int_arg(L, 2), s = int_arg(L, 3);
    st = cute_swizzle_make(&sw, b, m, s, &err);
  }
  if (st) return cutelua_error(L, &err);
  cutelua_pushswizzle(L, sw);
  return 1;
}

static int swizzle_call(lua_State *L)
{
  cute_swizzle *sw = cutelua_checkswizzle(L, 1);
  lua_Integer v;
  if (!cutelua_tointeger(L, 2, &v))
    return cutelua_callerror(L, 2, lua_pushfstring(L, "integer expected, "
                             "got %s", luaL_typename(L, 2)));
  lua_pushinteger(L, (lua_Integer)cute_swizzle_apply(*sw, (int64_t)v));
  return 1;
}

static int swizzle_tostring(lua_State *L)
{
  char buf[64];
  cute_swizzle_print(*cutelua_checkswizzle(L, 1), buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

static int swizzle_eq(lua_State *L)
{
  cute_swizzle *a = luaL_testudata(L, 1, CUTELUA_SWIZZLE);
  cute_swizzle *b = luaL_testudata(L, 2, CUTELUA_SWIZZLE);
  lua_pushboolean(L, a && b && a->b == b->b && a->m == b->m && a->s == b->s);
  return 1;
}

/* sw:params() --> b, m, s */
static int swizzle_params(lua_State *L)
{
  cute_swizzle *sw = cutelua_checkswizzle(L, 1);
  lua_pushinteger(L, sw->b);
  lua_pushinteger(L, sw->m);
  lua_pushinteger(L, sw->s);
  return 3;
}

/* ---------------------------------------------------- ComposedLayout -- */

void cutelua_checkintegral(lua_State *L, const cute_composed *c,
                           const char *op)
{
  char buf[CUTE_MAX_TEXT];
  if (!cute_layout_has_basis(&c->layout)) return;
  cute_composed_print(c, buf, sizeof buf);
  luaL_error(L, "%s(%s): a swizzle needs an integral layout (strides "
                "without a@i)", op, buf);
}

/* cute.composed(sw, [offset,] layout) | cute.composed "Sw<..> o off o L" */
static int l_composed(lua_State *L)
{
  cute_composed c;
  cute_error err;
  int li = lua_gettop(L) >= 3 ? 3 : 2;
  if (lua_type(L, 1) == LUA_TSTRING) {
    if (cute_composed_parse(&c, cutelua_checktext(L, 1), &err))
      return cutelua_error(L, &err);
  } else {
    c.sw = *cutelua_checkswizzle(L, 1);
    c.offset = li == 3 ? (int64_t)cutelua_checkint(L, 2) : 0;
    c.layout = *cutelua_checklayout(L, li);
  }
  cutelua_checkintegral(L, &c, "composed");
  cutelua_pushcomposed(L, &c);
  return 1;
}

/* Raises "slice(C, crd): offset OFF why", the error contract's operation
 * and operands, for what the algebra's slice cannot see: the composed
 * offset. */
static int slice_error(lua_State *L, const cute_composed *C,
                       const cute_tuple *crd, const cute_tuple *off,
                       const char *why)
{
  char c[CUTE_MAX_TEXT], k[CUTE_MAX_TEXT], o[CUTE_MAX_TEXT];
  cute_composed_print(C, c, sizeof c);
  cute_tuple_print(crd, k, sizeof k);
  cute_tuple_print(off, o, sizeof o);
  return luaL_error(L, "slice(%s, %s): offset %s %s", c, k, o, why);
}

static int composed_call(lua_State *L)
{
  cute_composed *C = cutelua_checkcomposed(L, 1);
  cute_tuple crd, off;
  cute_error err;
  int64_t r;
  lua_Integer i;
  if (lua_gettop(L) == 2 && cutelua_tointeger(L, 2, &i) &&
      i != CUTE_UNDERSCORE) {
    if (cute_composed_eval_index(C, (int64_t)i, &r, &err))
      return cutelua_error(L, &err);
  } else if (cutelua_callcoord(L, 2, &crd)) {
    cute_composed *u = cutelua_pushcomposed(L, C);
    if (cute_layout_slice(&u->layout, &off, &C->layout, &crd, &err))
      return cutelua_error(L, &err);
    if (!cute_tuple_is_int(&off) || off.e[0] != 0)
      return slice_error(L, C, &crd, &off, "is not an integer");
    if (__builtin_add_overflow(C->offset, off.v[0], &u->offset))
      return slice_error(L, C, &crd, &off, "plus the composed offset "
                         "overflows 64 bits");
    lua_pushinteger(L, 0);
    return 2;
  } else if (cute_composed_eval(C, &crd, &r, &err)) {
    return cutelua_error(L, &err);
  }
  lua_pushinteger(L, (lua_Integer)r);
  return 1;
}

/* Replaces op(B, ...)'s results at 1.. (a Layout, and for local_tile
 * and local_partition an offset) by the composed layout C with that
 * layout and the offset folded in, and 0: a composed offset cannot be
 * split out of the swizzle (as for a slice). */
static void recompose(lua_State *L, const cute_composed *C, const char *op)
{
  cute_composed *u = cutelua_pushcomposed(L, C);
  lua_Integer off = 0;
  u->layout = *cutelua_checklayout(L, 1);
  if (lua_gettop(L) > 2 && (!cutelua_tointeger(L, 2, &off) ||
      __builtin_add_overflow(u->offset, (int64_t)off, &u->offset))) {
    char c[CUTE_MAX_TEXT];
    cute_composed_print(C, c, sizeof c);
    luaL_error(L, "%s(%s, ...): offset %s plus the composed offset is not "
               "an integer of 64 bits", op, c, luaL_tolstring(L, 2, NULL));
  }
  lua_replace(L, 1);
  if (lua_gettop(L) > 1) {
    lua_pushinteger(L, 0);
    lua_replace(L, 2);
  }
}

/* Raises the error on top, which op raised on C's layout B: the user gave
 * F o off o B, so "op(B" in it becomes "op(F o off o B" -- the operand as
 * written ("take((8,64):(64,1)): ..." named no swizzle). */
static int composed_error(lua_State *L, const cute_composed *C, const char *op)
{
  char b[CUTE_MAX_TEXT], c[CUTE_MAX_TEXT];
  if (lua_type(L, -1) != LUA_TSTRING) return lua_error(L);
  cute_layout_print(&C->layout, b, sizeof b);
  cute_composed_print(C, c, sizeof c);
  lua_pushfstring(L, "%s(%s", op, b);
  lua_pushfstring(L, "%s(%s", op, c);
  luaL_gsub(L, lua_tostring(L, -3), lua_tostring(L, -2), lua_tostring(L, -1));
  return lua_error(L);
}

int cutelua_composed_op(lua_State *L, lua_CFunction op, const char *name)
{
  int n = lua_gettop(L);
  cute_composed C, *c = cutelua_testcomposed(L, 1);
  if (c) {
    C = *c;
    lua_pushcfunction(L, op);
    lua_insert(L, 1);
    cutelua_pushlayout(L, &C.layout);
    lua_replace(L, 2);
    if (lua_pcall(L, n, LUA_MULTRET, 0) != LUA_OK)
      return composed_error(L, &C, name);
    recompose(L, &C, name);
    return lua_gettop(L);
  }
  if (n < 1 || luaL_getmetafield(L, 1, "__layout_b") == LUA_TNIL) return -1;
  lua_insert(L, 1);                   /* __layout_b(C, op, name, args...) */
  lua_pushcfunction(L, op);
  lua_insert(L, 3);
  lua_pushstring(L, name);
  lua_insert(L, 4);
  lua_call(L, n + 2, LUA_MULTRET);
  return lua_gettop(L);
}

int cutelua_composed_lua(lua_State *L, const char *name)
{
  int n = lua_gettop(L);
  if (!cutelua_testcomposed(L, 1)) {
    if (n < 1 || luaL_getmetafield(L, 1, "__layout_b") == LUA_TNIL) return -1;
    lua_pop(L, 1);
  }
  lua_getglobal(L, "require");
  lua_pushliteral(L, "cute.composed_layout");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, name);
  lua_replace(L, -2);
  lua_insert(L, 1);
  lua_call(L, n, LUA_MULTRET);
  return lua_gettop(L);
}

static int composed_tostring(lua_State *L)
{
  char buf[CUTE_MAX_TEXT];
  cute_composed_print(cutelua_checkcomposed(L, 1), buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

static int composed_eq(lua_State *L)
{
  cute_composed *a = cutelua_testcomposed(L, 1);
  cute_composed *b = cutelua_testcomposed(L, 2);
  lua_pushboolean(L, a && b && a->sw.b == b->sw.b && a->sw.m == b->sw.m &&
                         a->sw.s == b->sw.s && a->offset == b->offset &&
                         cute_layout_equal(&a->layout, &b->layout));
  return 1;
}

static int composed_swizzle(lua_State *L)
{
  cutelua_pushswizzle(L, cutelua_checkcomposed(L, 1)->sw);
  return 1;
}

static int composed_offset(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)cutelua_checkcomposed(L, 1)->offset);
  return 1;
}

static int composed_layout(lua_State *L)
{
  cutelua_pushlayout(L, &cutelua_checkcomposed(L, 1)->layout);
  return 1;
}

static int composed_shape(lua_State *L)
{
  cutelua_pushtuple(L, &cutelua_checkcomposed(L, 1)->layout.shape);
  return 1;
}

void cutelua_open_swizzle(lua_State *L)
{
  static const luaL_Reg sw_meta[] = {
      {"__call", swizzle_call},
      {"__tostring", swizzle_tostring},
      {"__eq", swizzle_eq},
      {"__mul", cutelua_compose_op},
      {NULL, NULL}};
  static const luaL_Reg sw_methods[] = {
      {"params", swizzle_params},
      {NULL, NULL}};
  static const luaL_Reg c_meta[] = {
      {"__call", composed_call},
      {"__tostring", composed_tostring},
      {"__eq", composed_eq},
      {"__mul", cutelua_compose_op},
      {NULL, NULL}};
  static const luaL_Reg c_methods[] = {
      {"swizzle", composed_swizzle},
      {"offset", composed_offset},
      {"layout", composed_layout},
      {"shape", composed_shape},
      {NULL, NULL}};
  static const luaL_Reg funcs[] = {
      {"swizzle", l_swizzle},
      {"composed", l_composed},
      {NULL, NULL}};
  cutelua_newclass(L, CUTELUA_SWIZZLE, sw_meta, sw_methods);
  cutelua_newclass(L, CUTELUA_COMPOSED, c_meta, c_methods);
  luaL_setfuncs(L, funcs, 0);
}
