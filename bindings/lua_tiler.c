/*
 * lua_tiler.c -- tilers from Lua values, and the operations that take
 * them: composition by a tiler, the divides, the products, local_tile,
 * local_partition and its flat_coord of cute.core (the algebra does all
 * of it: tiler.c, divide.c, product.c, partition.c).
 *
 * A Lua tiler is a Layout, an integer n (the layout n:1), the marker `_`,
 * or a list table of tilers applied mode by mode ({4, {2, _}}).  A value
 * that is none of these is refused naming the call, its operands and the
 * element:
 *   logical_divide((4,8):(1,4), <2:1,x>): tiler element x (a string) is
 *   not a layout, integer or table
 */
#include "lua_internal.h"

#include <string.h>

/* ------------------------------------------------------------- text -- */

/* Would luaL_tolstring show the value at idx by its address ("function:
 * 0x...")?  A tiler's text shows such a value by its type: no message
 * names an address. */
static int addressed(lua_State *L, int idx)
{
  int t = lua_type(L, idx);
  if (t == LUA_TFUNCTION || t == LUA_TTHREAD || t == LUA_TLIGHTUSERDATA)
    return 1;
  if (t != LUA_TUSERDATA && t != LUA_TTABLE) return 0;
  if (luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) return 1;
  lua_pop(L, 1);
  return 0;
}

/* Pushes the text of the Lua tiler value at idx: "<4:1,<_,8:2>>", n as
 * "n:1"; lists past CUTE_MAX_DEPTH + 1 levels as "<...>" (a cyclic table
 * stays short), and a list's elements past CUTE_MAX_TILER_TOKENS as
 * ",..." (no tiler has more; a message stays readable).  An element's
 * text is made on the stack, then added: a luaL_Buffer may keep its box
 * on the stack, and nothing may sit above it while it grows. */
static void push_tiler_text(lua_State *L, int idx, int depth)
{
  lua_Integer n, i, len;
  luaL_Buffer b;
  idx = lua_absindex(L, idx);
  if (cutelua_isunderscore(L, idx)) {
    lua_pushliteral(L, "_");
  } else if (lua_type(L, idx) == LUA_TTABLE && !cutelua_testlayout(L, idx)) {
    if (depth > CUTE_MAX_DEPTH) { lua_pushliteral(L, "<...>"); return; }
    luaL_checkstack(L, 4, "tiler text");  /* box, element, its text */
    luaL_buffinit(L, &b);
    luaL_addchar(&b, '<');
    len = (lua_Integer)lua_rawlen(L, idx);
    for (i = 1; i <= len && i <= CUTE_MAX_TILER_TOKENS; i++) {
      if (i > 1) luaL_addchar(&b, ',');
      lua_rawgeti(L, idx, i);
      push_tiler_text(L, -1, depth + 1);
      lua_remove(L, -2);
      luaL_addvalue(&b);
    }
    if (len > CUTE_MAX_TILER_TOKENS) luaL_addstring(&b, ",...");
    luaL_addchar(&b, '>');
    luaL_pushresult(&b);
  } else if (lua_type(L, idx) == LUA_TNUMBER && cutelua_tointeger(L, idx, &n)) {
    lua_pushfstring(L, "%I:1", (LUAI_UACINT)n);
  } else if (addressed(L, idx)) {
    lua_pushstring(L, luaL_typename(L, idx));
  } else {
    luaL_tolstring(L, idx, NULL);
  }
}

/* tiler_tostring(T): the text above (cute.tiler_tostring). */
static int l_tiler_tostring(lua_State *L)
{
  cutelua_checkany(L, 1);
  push_tiler_text(L, 1, 0);
  return 1;
}

/* Raises "op(A, T): reason" (A at index 1, T at index targ) at the
 * caller's line, as an argument error is. */
static int tiler_fail(lua_State *L, const char *op, int targ,
                      const char *reason)
{
  luaL_Buffer b;
  char a[CUTE_MAX_TEXT];
  cute_layout_print(cutelua_checklayout(L, 1), a, sizeof a);
  luaL_buffinit(L, &b);
  luaL_where(L, 1);
  luaL_addvalue(&b);
  lua_pushfstring(L, "%s(%s, ", op, a);
  luaL_addvalue(&b);
  push_tiler_text(L, targ, 0);
  luaL_addvalue(&b);
  luaL_addstring(&b, "): ");
  luaL_addstring(&b, reason);
  luaL_pushresult(&b);
  return lua_error(L);
}

/* ------------------------------------------------------------- read -- */

typedef struct reader {
  lua_State *L;
  cute_tiler *T;
  const char *op;
  int targ;
  int fast;   /* the first pass: give up (return 0) rather than raise */
  int flat;   /* no `_` and no inner list read so far */
} reader;

/* add_tok past the limit: 0 (fast pass), or raises. */
static int tok_limit(reader *r)
{
  if (r->fast) return 0;
  return tiler_fail(r->L, r->op, r->targ, lua_pushfstring(r->L,
    "tiler longer than %d tokens (CUTE_MAX_TILER_TOKENS)",
    CUTE_MAX_TILER_TOKENS));
}

/* Appends token c; 1, or tok_limit's answer past the limit (inline: four
 * calls a tiler of two layouts). */
static inline int add_tok(reader *r, char c)
{
  if (r->T->ntok >= CUTE_MAX_TILER_TOKENS) return tok_limit(r);
  r->T->tok[r->T->ntok++] = c;
  return 1;
}

/* What a value that is no tiler is, for the message. */
static const char *what(lua_State *L, int idx)
{
  const char *name = luaL_typename(L, idx);
  if (lua_type(L, idx) == LUA_TNUMBER) return "a non-integral number";
  if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING)
    name = lua_tostring(L, -1);           /* cute.Swizzle */
  return lua_pushfstring(L, "a %s", name);
}

static int read_at(reader *r, int idx, int depth);
static int put_layout(reader *r, const cute_layout *l, lua_Integer v);

/* The fast pass over a list: tilers are almost always table constructors
 * ({4, 2}, {A, {2, _}}), whose elements lua_next gives in order 1..n from
 * the array part, so one pass reads keys and elements.  Keys 1..n and no
 * others are the list read_list asks for; anything else (other keys, keys
 * out of order, a bad element, a limit) returns 0, and check_tiler reads
 * the tiler again by read_list, which names what is wrong.  A key must be
 * an integer, not a string that converts to one ({["1"] = 4} is no list).
 * An element that is an integer n > 0, the usual one, is n:1 written here
 * without read_at's tests. */
static int fast_list(reader *r, int idx, int depth)
{
  lua_State *L = r->L;
  lua_Integer i = 0, v;
  if (depth >= CUTE_MAX_DEPTH || !add_tok(r, '<')) return 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (!lua_isinteger(L, -2) || lua_tointeger(L, -2) != ++i) return 0;
    if (lua_isinteger(L, -1) && (v = lua_tointeger(L, -1)) > 0) {
      if (!put_layout(r, NULL, v)) return 0;
    } else if (!read_at(r, lua_gettop(L), depth + 1)) {
      return 0;
    }
    lua_pop(L, 1);
  }
  return add_tok(r, '>');
}

/* A list table: 1..n, no holes, no other keys.  One pass over the keys
 * checks both: n keys, each an integer in 1..n, are exactly 1..n, so the
 * list is only searched for its hole when the count falls short. */
static int read_list(reader *r, int idx, int depth)
{
  lua_State *L = r->L;
  lua_Integer i, nkeys = 0, n = (lua_Integer)lua_rawlen(L, idx);
  if (depth >= CUTE_MAX_DEPTH)
    tiler_fail(L, r->op, r->targ, lua_pushfstring(L, "tiler nesting exceeds "
               "the limit of %d levels (a layout's depth, CUTE_MAX_DEPTH: "
               "cute.limits.depth)", CUTE_MAX_DEPTH));
  lua_pushnil(L);
  for (; lua_next(L, idx); nkeys++) {
    lua_Integer k;
    lua_pop(L, 1);
    if (!lua_isinteger(L, -1) || (k = lua_tointeger(L, -1)) < 1 || k > n) {
      const char *key = lua_type(L, -1) == LUA_TSTRING
                        ? lua_pushfstring(L, "\"%s\"", lua_tostring(L, -1))
                        : luaL_tolstring(L, -1, NULL);
      tiler_fail(L, r->op, r->targ, lua_pushfstring(L, "tiler key %s is "
                 "outside the list 1..%I (a tiler table is a list 1..n "
                 "without holes or other keys)", key, (LUAI_UACINT)n));
    }
  }
  for (i = 1; nkeys < n && i <= n; i++)
    if (lua_rawgeti(L, idx, i) == LUA_TNIL)
      tiler_fail(L, r->op, r->targ, lua_pushfstring(L, "tiler key %I is "
                 "missing from the list 1..%I (a tiler table is a list 1..n "
                 "without holes or other keys)", (LUAI_UACINT)i,
                 (LUAI_UACINT)n));
    else
      lua_pop(L, 1);
  add_tok(r, '<');
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    read_at(r, lua_gettop(L), depth + 1);
    lua_pop(L, 1);
  }
  return add_tok(r, '>');
}

/* Raises: the value at idx is no tiler. */
static void not_a_tiler(reader *r, int idx)
{
  lua_State *L = r->L;
  luaL_Buffer b;
  const char *kind;
  lua_Integer n;
  if (lua_type(L, idx) == LUA_TNUMBER && cutelua_tointeger(L, idx, &n))
    tiler_fail(L, r->op, r->targ, lua_pushfstring(L, "%s %I is not a "
               "positive integer (an integer n is the tile n:1)",
               idx == r->targ ? "tiler" : "tiler element", (LUAI_UACINT)n));
  kind = what(L, idx);
  luaL_buffinit(L, &b);
  luaL_addstring(&b, idx == r->targ ? "tiler" : "tiler element");
  if (!addressed(L, idx)) {   /* a function is named by its type alone */
    lua_pushliteral(L, " ");
    luaL_addvalue(&b);
    push_tiler_text(L, idx, 0);
    luaL_addvalue(&b);
  }
  lua_pushfstring(L, " (%s) is not a layout, integer or table", kind);
  luaL_addvalue(&b);
  luaL_pushresult(&b);
  tiler_fail(L, r->op, r->targ, lua_tostring(L, -1));
}

/* Appends the layout l, or n:1 for l NULL (v > 0), to the tiler: a
 * Layout is copied (its used tokens and leaves only).  1, or 0 past the
 * limit in the fast pass; the other pass raises instead (the limit is
 * named before an element past it is judged). */
static int put_layout(reader *r, const cute_layout *l, lua_Integer v)
{
  cute_tiler *T = r->T;
  if (T->n >= CUTE_MAX_TILER) {
    if (r->fast) return 0;
    tiler_fail(r->L, r->op, r->targ, lua_pushfstring(r->L, "tiler has more "
               "than %d layouts (CUTE_MAX_TILER)", CUTE_MAX_TILER));
  }
  if (l) {
    cute_tuple_copy(&T->mode[T->n].shape, &l->shape);
    cute_tuple_copy(&T->mode[T->n].stride, &l->stride);
  } else {
    cute_tuple_int(&T->mode[T->n].shape, (int64_t)v);
    cute_tuple_int(&T->mode[T->n].stride, 1);
  }
  T->n++;
  return add_tok(r, 'L');
}

/* One element, by its Lua type: an integer n > 0 is n:1, a Layout
 * itself.  1, or 0 when the fast pass gives up; the other pass raises
 * instead. */
static int read_at(reader *r, int idx, int depth)
{
  lua_State *L = r->L;
  const cute_layout *l = NULL;
  lua_Integer v = 0;
  switch (lua_type(L, idx)) {
  case LUA_TLIGHTUSERDATA:
    if (!cutelua_isunderscore(L, idx)) break;
    r->flat = 0;
    return add_tok(r, '_');
  case LUA_TTABLE:
    if (depth > 0) r->flat = 0;
    return r->fast ? fast_list(r, idx, depth) : read_list(r, idx, depth);
  case LUA_TUSERDATA:
    l = cutelua_testlayout(L, idx);
    break;
  case LUA_TNUMBER:
    if (!cutelua_tointeger(L, idx, &v)) v = 0;
    break;
  }
  if (l || v > 0 || r->T->n >= CUTE_MAX_TILER) return put_layout(r, l, v);
  if (r->fast) return 0;
  not_a_tiler(r, idx);
  return 0;
}

/* A Lua C function has LUA_MINSTACK free slots; the fast pass takes two
 * a list level (key, element) and two more to test a Layout, so the
 * deepest tiler fits without luaL_checkstack (the other pass takes one a
 * level; its messages check the stack themselves). */
typedef char fast_pass_fits_the_stack[2 * CUTE_MAX_DEPTH + 2 <= LUA_MINSTACK
                                      ? 1 : -1];

/* The tiler at targ into *T (A, a Layout the caller checked, at index 1):
 * the fast pass, else again by the checking pass.  Both read raw (no
 * metamethods run), so reading twice is reading the same tiler.  A flat
 * list of layouts is stored as such (ntok 0), which the algebra takes
 * without checking its tokens. */
static void check_tiler(lua_State *L, int targ, cute_tiler *T,
                        const char *op)
{
  reader r;
  int top = lua_gettop(L);
  r.L = L;
  r.T = T;
  r.op = op;
  r.targ = targ;
  for (r.fast = 1; r.fast >= 0; r.fast--) {
    T->n = 0;
    T->ntok = 0;
    r.flat = 1;
    if (!r.fast) lua_settop(L, top);
    if (read_at(&r, targ, 0)) {
      if (r.flat && T->tok[0] == '<') T->ntok = 0;
      return;
    }
  }
}

/* ------------------------------------------------------- operations -- */

typedef cute_status (*tiler_fn)(cute_layout *, const cute_layout *,
                                const cute_tiler *, cute_error *);

/* self: the Lua function calling, for a composed A (cutelua_composed_op) */
static int by_tiler(lua_State *L, tiler_fn f, const char *op,
                    lua_CFunction self)
{
  cute_tiler T;
  cute_layout *A, *u;
  cute_error err;
  CUTELUA_LAYOUT_ARG(L, A, self, op);
  check_tiler(L, 2, &T, op);
  u = cutelua_newresult(L);
  if (f(u, A, &T, &err)) return cutelua_error(L, &err);
  return 1;
}

#define TILER_OP(name) \
  static int l_##name(lua_State *L) \
  { return by_tiler(L, cute_##name, #name, l_##name); }
TILER_OP(logical_divide)
TILER_OP(zipped_divide)
TILER_OP(tiled_divide)
TILER_OP(flat_divide)
TILER_OP(logical_product)
TILER_OP(zipped_product)
TILER_OP(tiled_product)
TILER_OP(flat_product)

int cutelua_composition_tiler(lua_State *L)
{
  return by_tiler(L, cute_composition_tiler, "composition",
                  cutelua_composition_tiler);
}

typedef cute_status (*pair_fn)(cute_layout *, const cute_layout *,
                               const cute_layout *, cute_error *);

/* blocked/raked products take a layout or an integer, not a list. */
static int zip_product(lua_State *L, pair_fn f, const char *op,
                       lua_CFunction self)
{
  cute_layout bbuf, *A, *u;
  const cute_layout *B;
  cute_error err;
  CUTELUA_LAYOUT_ARG(L, A, self, op);
  cutelua_checkany(L, 2);
  if (lua_type(L, 2) == LUA_TTABLE && !cutelua_testlayout(L, 2))
    return tiler_fail(L, op, 2, "B is a tiler table; blocked and raked "
                      "products take a layout or an integer");
  if ((B = cutelua_testoperand(L, 2, &bbuf)) == NULL) {
    cute_tiler T;         /* names what B is, as for any tiler */
    check_tiler(L, 2, &T, op);
    return tiler_fail(L, op, 2, "tiler _ (the slice marker) is not a "
                      "layout or an integer");
  }
  u = cutelua_newresult(L);
  if (f(u, A, B, &err)) return cutelua_error(L, &err);
  return 1;
}

static int l_blocked_product(lua_State *L)
{
  return zip_product(L, cute_blocked_product, "blocked_product",
                     l_blocked_product);
}

static int l_raked_product(lua_State *L)
{
  return zip_product(L, cute_raked_product, "raked_product", l_raked_product);
}

/* The optional projection at arg (CuTe's Step: a tuple of 1 and X = _). */
static const cute_tuple *projection(lua_State *L, int arg, cute_tuple *buf)
{
  if (lua_isnoneornil(L, arg)) return NULL;
  cutelua_checktuple(L, arg, buf);
  return buf;
}

/* The tile coordinate at arg into *c; one that does not convert is
 * refused naming the call: "local_tile(A, T): the tile coordinate is not
 * a tuple (why)". */
static void read_coord(lua_State *L, int arg, cute_tuple *c)
{
  cute_error err;
  if (cutelua_totuple(L, arg, c, &err) == 0) return;
  tiler_fail(L, "local_tile", 2, lua_pushfstring(L, "the tile coordinate is "
             "not a tuple (%s)", err.msg));
}

/* A value whose metatable has __tile (a cute.Tensor) is tiled and
 * partitioned by it: __tile(x, "local_tile", ...) applies the operation
 * to the layout x wraps (cute.tensor moves its iterator to the offset).
 * Returns the number of results; -1 when the value has no __tile. */
static int on_tile(lua_State *L, const char *name)
{
  int n = lua_gettop(L);
  if (lua_type(L, 1) != LUA_TTABLE ||
      luaL_getmetafield(L, 1, "__tile") == LUA_TNIL)
    return -1;
  lua_insert(L, 1);
  lua_pushstring(L, name);
  lua_insert(L, 3);
  lua_call(L, n + 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* local_tile(A, T, coord [, proj]) -> sublayout, offset */
static int l_local_tile(lua_State *L)
{
  cute_tiler T;
  cute_tuple coord, pbuf, off;
  const cute_tuple *proj;
  cute_layout *A, *u;
  cute_error err;
  int n;
  if ((A = cutelua_testlayout(L, 1)) == NULL) {
    if ((n = on_tile(L, "local_tile")) >= 0) return n;
    CUTELUA_LAYOUT_ARG(L, A, l_local_tile, "local_tile");
  }
  check_tiler(L, 2, &T, "local_tile");
  if (lua_type(L, 3) != LUA_TNUMBER && lua_type(L, 3) != LUA_TTABLE &&
      !cutelua_isunderscore(L, 3))
    return cutelua_badarg(L, 3, lua_pushfstring(L, "tile coordinate expected "
                          "(an integer or a tuple), got %s",
                          luaL_typename(L, 3)));
  read_coord(L, 3, &coord);
  proj = projection(L, 4, &pbuf);
  u = cutelua_newresult(L);
  if (cute_local_tile(u, &off, A, &T, &coord, proj, &err))
    return cutelua_error(L, &err);
  cutelua_pushtuple(L, &off);
  return 2;
}

/* Raises: the thread index at idx is no integer, shown by its text
 * unless that would be an address (addressed). */
static int bad_thread_index(lua_State *L, int idx)
{
  int shown = !addressed(L, idx);
  return luaL_error(L, "local_partition: thread index %s%s(a %s) is not an "
                    "integer", shown ? luaL_tolstring(L, idx, NULL) : "",
                    shown ? " " : "", luaL_typename(L, idx));
}

/* local_partition(A, thr, index [, proj]) -> sublayout, offset */
static int l_local_partition(lua_State *L)
{
  cute_tuple pbuf, off;
  const cute_tuple *proj;
  cute_layout *A, *u, *thr;
  lua_Integer index;
  cute_error err;
  int n;
  if ((A = cutelua_testlayout(L, 1)) == NULL) {
    if ((n = on_tile(L, "local_partition")) >= 0) return n;
    CUTELUA_LAYOUT_ARG(L, A, l_local_partition, "local_partition");
  }
  thr = cutelua_testlayout(L, 2);
  if (!thr)
    return luaL_error(L, "local_partition: the thread layout must be a "
                      "cute.Layout, got %s", luaL_typename(L, 2));
  if (!cutelua_tointeger(L, 3, &index)) return bad_thread_index(L, 3);
  proj = projection(L, 4, &pbuf);
  u = cutelua_newresult(L);
  if (cute_local_partition(u, &off, A, thr, (int64_t)index, proj, &err))
    return cutelua_error(L, &err);
  cutelua_pushtuple(L, &off);
  return 2;
}

/* flat_coord(thr, index) -> thread index's coordinate in thr, one
 * integer per mode (CuTe's get_flat_coord; what local_partition slices). */
static int l_flat_coord(lua_State *L)
{
  cute_layout *thr = cutelua_checklayout(L, 1);
  lua_Integer index = cutelua_checkint(L, 2);
  cute_tuple c;
  cute_error err;
  if (cute_layout_flat_coord(&c, thr, (int64_t)index, &err))
    return cutelua_error(L, &err);
  cutelua_pushtuple(L, &c);
  return 1;
}

void cutelua_open_tiler(lua_State *L)
{
  static const luaL_Reg funcs[] = {
      {"tiler_tostring", l_tiler_tostring},
      {"logical_divide", l_logical_divide},
      {"zipped_divide", l_zipped_divide},
      {"tiled_divide", l_tiled_divide},
      {"flat_divide", l_flat_divide},
      {"logical_product", l_logical_product},
      {"zipped_product", l_zipped_product},
      {"tiled_product", l_tiled_product},
      {"flat_product", l_flat_product},
      {"blocked_product", l_blocked_product},
      {"raked_product", l_raked_product},
      {"local_tile", l_local_tile},
      {"local_partition", l_local_partition},
      {"flat_coord", l_flat_coord},
      {NULL, NULL}};
  luaL_setfuncs(L, funcs, 0);
}
