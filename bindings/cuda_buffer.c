/*
 * cuda_buffer.c -- cute.cuda.Buffer, device memory of n elements of a
 * dtype (freed by GC), and the functions over buffers: compare, check_copy
 * (a copy between two tensors over buffers) and memcpy.  Part of
 * `cute.cuda.core` (cuda_module.c registers it via cuda_lua_open_buffer).
 */
#include <lauxlib.h>
#include <lua.h>
#include <string.h>

#include "cuda_lua.h"
#include "lua_internal.h"

#define BUFFER CUDA_LUA_BUFFER
#define STREAM CUDA_LUA_STREAM

/* A buffer of 0 elements holds no device memory (ptr 0), so it exists
 * without a driver; `live` is what tells a freed buffer apart. */
typedef struct lbuffer {
  cute_cuda_ptr ptr;
  size_t n;
  cute_cuda_dtype dtype;
  int live;
} lbuffer;

static lbuffer *check_buffer(lua_State *L, int i)
{
  lbuffer *b = luaL_checkudata(L, i, BUFFER);
  if (!b->live) luaL_argerror(L, i, "buffer was freed");
  return b;
}

cute_cuda_ptr cuda_lua_buffer_ptr(lua_State *L, int i)
{
  return check_buffer(L, i)->ptr;
}

static size_t esize(const lbuffer *b)
{
  return (size_t)cute_cuda_dtype_size(b->dtype);
}

/* buffer(dtype, n) -> Buffer of n elements (contents undefined).
 * @post n * element size fits a lua_Integer, so every byte offset inside the
 * buffer does too (the checks below rely on it). */
static int l_buffer(lua_State *L)
{
  cute_cuda_dtype t = cuda_lua_check_dtype(L, 1);
  lua_Integer n = luaL_checkinteger(L, 2);
  lua_Integer es = cute_cuda_dtype_size(t);
  lbuffer *b;
  luaL_argcheck(L, n >= 0, 2, "negative size");
  if (n > LUA_MAXINTEGER / es)
    return luaL_argerror(L, 2, lua_pushfstring(L, "%I %s elements overflow "
                         "the byte size", n, cute_cuda_dtype_name(t)));
  b = lua_newuserdatauv(L, sizeof *b, 0);
  b->ptr = 0;
  b->n = (size_t)n;
  b->dtype = t;
  b->live = 0;
  if (n > 0) TRY(L, cute_cuda_alloc(&b->ptr, b->n * (size_t)es, ERR));
  b->live = 1;
  luaL_setmetatable(L, BUFFER);
  return 1;
}

static int buffer_free(lua_State *L)
{
  lbuffer *b = luaL_checkudata(L, 1, BUFFER);
  if (b->ptr) cute_cuda_free(b->ptr);
  b->ptr = 0;
  b->live = 0;
  return 0;
}

static int buffer_info(lua_State *L)
{
  lbuffer *b = check_buffer(L, 1);
  lua_pushinteger(L, (lua_Integer)b->ptr);
  lua_pushinteger(L, (lua_Integer)b->n);
  lua_pushstring(L, cute_cuda_dtype_name(b->dtype));
  return 3;
}

static int buffer_len(lua_State *L)
{
  lua_pushinteger(L, (lua_Integer)check_buffer(L, 1)->n);
  return 1;
}

/* Is [first, first + count) inside [0, n)?  Without computing first +
 * count, which may overflow. */
static int inside(lua_Integer first, lua_Integer count, size_t n)
{
  return first >= 0 && count >= 0 && (size_t)first <= n &&
         (size_t)count <= n - (size_t)first;
}

/* The element range [first, first + count) of a buffer, checked. */
static size_t range(lua_State *L, lbuffer *b, int arg, size_t count)
{
  lua_Integer first = luaL_optinteger(L, arg, 0);
  if (!inside(first, (lua_Integer)count, b->n))
    luaL_argerror(L, arg, lua_pushfstring(L, "elements [%I, %I + %I) outside "
                  "the buffer of %I elements", first, first,
                  (lua_Integer)count, (lua_Integer)b->n));
  return (size_t)first;
}

/* upload({values...} [, first]) */
static int buffer_upload(lua_State *L)
{
  lbuffer *b = check_buffer(L, 1);
  size_t es = esize(b), n, first, i;
  char *h;
  luaL_checktype(L, 2, LUA_TTABLE);
  n = (size_t)luaL_len(L, 2);
  first = range(L, b, 3, n);
  h = lua_newuserdatauv(L, n * es + 1, 0);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 2, (lua_Integer)i + 1);
    if (lua_isinteger(L, -1))   /* exact for 64-bit integer types */
      cute_cuda_host_set_int(h, b->dtype, i, (int64_t)lua_tointeger(L, -1));
    else
      cute_cuda_host_set(h, b->dtype, i, luaL_checknumber(L, -1));
    lua_pop(L, 1);
  }
  if (n > 0) TRY(L, cute_cuda_upload(b->ptr + first * es, h, n * es, ERR));
  lua_settop(L, 1);
  return 1;
}

/* download([first [, count]]) -> {values...}; integer types as integers. */
static int buffer_download(lua_State *L)
{
  lbuffer *b = check_buffer(L, 1);
  size_t es = esize(b), first, count, i;
  lua_Integer c = luaL_optinteger(L, 3, -1);
  int fl = cute_cuda_dtype_is_float(b->dtype);
  char *h;
  first = range(L, b, 2, 0);
  count = c < 0 ? b->n - first : (size_t)c;
  range(L, b, 2, count);
  h = lua_newuserdatauv(L, count * es + 1, 0);
  if (count > 0)
    TRY(L, cute_cuda_download(h, b->ptr + first * es, count * es, ERR));
  /* a size hint only: (int)count would wrap past INT_MAX.  The table's
   * memory counts against a state's memory_limit; the count is the
   * buffer's at most (cute_cuda.h says why that is not capped) */
  lua_createtable(L, count < 0x7fffffff ? (int)count : 0x7fffffff, 0);
  for (i = 0; i < count; i++) {
    if (fl) lua_pushnumber(L, cute_cuda_host_get(h, b->dtype, i));
    else
      lua_pushinteger(L, (lua_Integer)cute_cuda_host_get_int(h, b->dtype, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* random(seed [, lo, hi]): floats in [lo, hi) (default [-1, 1)), integers
 * in [lo, hi] (default [0, 100]). */
static int buffer_random(lua_State *L)
{
  lbuffer *b = check_buffer(L, 1);
  int fl = cute_cuda_dtype_is_float(b->dtype);
  uint64_t seed = (uint64_t)luaL_checkinteger(L, 2);
  double lo = luaL_optnumber(L, 3, fl ? -1 : 0);
  double hi = luaL_optnumber(L, 4, fl ? 1 : 100);
  if (b->n > 0)
    TRY(L, cute_cuda_fill_random(b->ptr, b->dtype, b->n, seed, lo, hi, ERR));
  lua_settop(L, 1);
  return 1;
}

static int buffer_iota(lua_State *L)
{
  lbuffer *b = check_buffer(L, 1);
  double start = luaL_optnumber(L, 2, 0), step = luaL_optnumber(L, 3, 1);
  if (b->n > 0)
    TRY(L, cute_cuda_fill_iota(b->ptr, b->dtype, b->n, start, step, ERR));
  lua_settop(L, 1);
  return 1;
}

/* compare(got, ref [, rtol, atol]) -> {bad, first_bad, max_abs, rel_norm} */
static int l_compare(lua_State *L)
{
  lbuffer *g = check_buffer(L, 1), *r = check_buffer(L, 2);
  double rtol = luaL_optnumber(L, 3, 0), atol = luaL_optnumber(L, 4, 0);
  cute_cuda_compare_result res;
  luaL_argcheck(L, g->n == r->n && g->dtype == r->dtype, 2,
                "buffers differ in size or dtype");
  memset(&res, 0, sizeof res);
  res.first_bad = -1;
  if (g->n > 0)
    TRY(L, cute_cuda_compare(g->ptr, r->ptr, g->dtype, g->n, rtol, atol, &res,
                             ERR));
  lua_createtable(L, 0, 4);
  cuda_lua_setint(L, "bad", res.bad);
  cuda_lua_setint(L, "first_bad", res.first_bad);
  lua_pushnumber(L, res.max_abs);
  lua_setfield(L, -2, "max_abs");
  lua_pushnumber(L, res.rel_norm);
  lua_setfield(L, -2, "rel_norm");
  return 1;
}

/* The device address of a tensor {buffer b at element `off`} o L, after
 * checking that every offset L reaches lies inside b.  All sums are checked:
 * `off` and the strides are the script's values.
 * @post the result plus es * L(c) is inside b for every coordinate c.
 *   ex: a 16-element buffer, off 8, (2,4):(1,2) reaches [8, 15]: fine;
 *       off 9 reaches [9, 16]: "reaches [9, 16], outside the buffer of 16
 *       elements". */
static cute_cuda_ptr tensor_ptr(lua_State *L, lbuffer *b, int offarg,
                                int layarg)
{
  const cute_layout *lay = cutelua_checklayout(L, layarg);
  lua_Integer off = luaL_checkinteger(L, offarg);
  int64_t lo = off, hi = off, r;
  int i, bad = 0;
  const char *text;
  if (cute_layout_has_basis(lay))
    luaL_argerror(L, layarg, "a tensor needs integer strides");
  for (i = 0; i < lay->shape.nleaf && !bad; i++) {
    bad = __builtin_mul_overflow(lay->shape.v[i] - 1, lay->stride.v[i], &r) ||
          (r > 0 ? __builtin_add_overflow(hi, r, &hi)
                 : __builtin_add_overflow(lo, r, &lo));
  }
  if (!bad && lo >= 0 && (uint64_t)hi < b->n)
    return b->ptr + (cute_cuda_ptr)off * esize(b);
  text = luaL_tolstring(L, layarg, NULL);
  if (bad)
    luaL_argerror(L, offarg, lua_pushfstring(L, "tensor %s at offset %I "
                  "reaches past 64-bit offsets", text, off));
  luaL_argerror(L, offarg, lua_pushfstring(L, "tensor %s at offset %I "
                "reaches [%I, %I], outside the buffer of %I elements", text,
                off, (lua_Integer)lo, (lua_Integer)hi, (lua_Integer)b->n));
  return b->ptr + (cute_cuda_ptr)off * esize(b);
}

/* check_copy(src, soff, Ls, dst, doff, Ld [, samples, seed]) -> first bad
 * index or nil (offsets in elements; both tensors must lie inside their
 * buffers). */
static int l_check_copy(lua_State *L)
{
  lbuffer *s = check_buffer(L, 1), *d = check_buffer(L, 4);
  cute_cuda_ptr sp, dp;
  int64_t bad;
  luaL_argcheck(L, s->dtype == d->dtype, 4, "dtypes differ");
  sp = tensor_ptr(L, s, 2, 3);
  dp = tensor_ptr(L, d, 5, 6);
  TRY(L, cute_cuda_check_copy(sp, cutelua_checklayout(L, 3), dp,
                              cutelua_checklayout(L, 6), s->dtype,
                              luaL_optinteger(L, 7, 0),
                              (uint64_t)luaL_optinteger(L, 8, 1), &bad, ERR));
  if (bad < 0) lua_pushnil(L);
  else lua_pushinteger(L, bad);
  return 1;
}

/* The byte range [off, off + n) of buffer b, checked (arg: off's). */
static void byte_range(lua_State *L, lbuffer *b, int arg, lua_Integer off,
                       lua_Integer n)
{
  size_t bytes = b->n * esize(b);
  if (!inside(off, n, bytes))
    luaL_argerror(L, arg, lua_pushfstring(L, "bytes [%I, %I + %I) outside "
                  "the buffer of %I bytes", off, off, n, (lua_Integer)bytes));
}

/* memcpy(dst, src, bytes [, dst_byte_off, src_byte_off [, stream]]) */
static int l_memcpy(lua_State *L)
{
  lbuffer *d = check_buffer(L, 1), *s = check_buffer(L, 2);
  lua_Integer n = luaL_checkinteger(L, 3), doff = luaL_optinteger(L, 4, 0),
              soff = luaL_optinteger(L, 5, 0);
  void *st = lua_isnoneornil(L, 6) ? NULL : cuda_lua_handle(L, 6, STREAM);
  luaL_argcheck(L, n >= 0, 3, "negative byte count");
  byte_range(L, d, 4, doff, n);
  byte_range(L, s, 5, soff, n);
  if (n > 0)
    TRY(L, cute_cuda_memcpy(d->ptr + (cute_cuda_ptr)doff,
                            s->ptr + (cute_cuda_ptr)soff, (size_t)n, st, ERR));
  return 0;
}

void cuda_lua_open_buffer(lua_State *L)
{
  static const luaL_Reg fns[] = {
    {"buffer", l_buffer}, {"compare", l_compare},
    {"check_copy", l_check_copy}, {"memcpy", l_memcpy}, {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__gc", buffer_free},
                                  {"__len", buffer_len}, {NULL, NULL}};
  static const luaL_Reg methods[] = {
    {"info", buffer_info}, {"upload", buffer_upload},
    {"download", buffer_download}, {"random", buffer_random},
    {"iota", buffer_iota}, {"free", buffer_free}, {NULL, NULL}};
  luaL_setfuncs(L, fns, 0);
  cutelua_newclass(L, BUFFER, meta, methods);
}
