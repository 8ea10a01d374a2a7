/*
 * cuda_module.c -- `cute.cuda.core`, the C half of the Lua module
 * `cute.cuda` (stdlib/cute/cuda.lua is the other half).
 *
 * Userdata (cute.cuda.Buffer, device memory, lives in cuda_buffer.c):
 *   cute.cuda.Binary   a compiled program (PTX or cubin) and its metadata
 *   cute.cuda.Launch   a prepared launch: function, grid, block, shared
 *                      memory, stream, argument slots; calling it launches
 *   cute.cuda.Event, cute.cuda.Stream
 * Functions that talk to the GPU raise the bridge's message as a Lua error
 * ("cute.cuda: libcuda.so.1 not found (no NVIDIA driver): ..."), so
 * scripts can pcall them; compile errors carry NVRTC's log and the
 * numbered source.
 */
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_lua.h"
#include "lua_internal.h"

#define BINARY CUDA_LUA_BINARY
#define LAUNCH CUDA_LUA_LAUNCH
#define EVENT CUDA_LUA_EVENT
#define STREAM CUDA_LUA_STREAM

/* "cute.cuda.buffer", the name of the running C function as a field of
 * the module, or "cute.cuda.Binary:launcher" for a method (its name at the
 * call site, its class from argument 1), pushed; or nothing pushed and
 * NULL. */
static const char *push_call_name(lua_State *L)
{
  lua_Debug ar;
  int f, mod;
  if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "nf", &ar)) return NULL;
  f = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getfield(L, -1, "cute.cuda.core");
  mod = lua_gettop(L);
  if (lua_istable(L, mod)) {
    lua_pushnil(L);
    while (lua_next(L, mod)) {
      if (lua_type(L, -2) == LUA_TSTRING && lua_rawequal(L, -1, f)) {
        lua_pushfstring(L, "cute.cuda.%s", lua_tostring(L, -2));
        lua_replace(L, f);
        lua_settop(L, f);
        return lua_tostring(L, f);
      }
      lua_pop(L, 1);
    }
  }
  lua_settop(L, f - 1);
  if (ar.name && strcmp(ar.namewhat, "method") == 0 &&
      luaL_getmetafield(L, 1, "__name") != LUA_TNIL) {
    if (lua_type(L, -1) == LUA_TSTRING) {
      lua_pushfstring(L, "%s:%s", lua_tostring(L, -1), ar.name);
      lua_remove(L, -2);
      return lua_tostring(L, -1);
    }
    lua_pop(L, 1);
  }
  return NULL;
}

/* Does the bridge's message, past "cute.cuda: ", name its operation the
 * error contract's way: "check_copy(A, B): ...", "compile: ...",
 * "codegen 'A': ..."? */
static int names_op(const char *s)
{
  size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz_");
  return n > 0 && (s[n] == '(' || s[n] == ':' ||
                   (s[n] == ' ' && s[n + 1] == '\''));
}

/* A bridge message that names no operation ("cute.cuda: libcuda.so.1 not
 * found ...", "cute.cuda: NVRTC compile error ...") gets the function that
 * failed in place of its "cute.cuda" prefix. */
int cuda_lua_raise(lua_State *L, cute_cuda_error *err)
{
  static const char prefix[] = "cute.cuda: ";
  const char *msg = err->msg ? err->msg : "cute.cuda: error";
  int bridge = strncmp(msg, prefix, sizeof prefix - 1) == 0;
  const char *name = push_call_name(L);
  if (!name || (bridge && names_op(msg + sizeof prefix - 1)))
    lua_pushstring(L, msg);
  else if (bridge)
    lua_pushfstring(L, "%s: %s", name, msg + sizeof prefix - 1);
  else
    lua_pushfstring(L, "%s: %s", name, msg);
  cute_cuda_error_clear(err);
  return lua_error(L);
}

cute_cuda_dtype cuda_lua_check_dtype(lua_State *L, int arg)
{
  cute_cuda_dtype t;
  const char *name = luaL_checkstring(L, arg);
  int rc = cute_cuda_dtype_parse(name, &t);
  if (rc != 0) {
    cutelua_pushdtypenames(L, CUTE_CUDA_DTYPE_COUNT);
    luaL_argerror(L, arg, lua_pushfstring(L, rc == -1 ? "unknown dtype '%s' "
                  "(buffers take %s)" : "dtype '%s' has no device buffers "
                  "(buffers take %s)", name, lua_tostring(L, -1)));
  }
  return t;
}

void *cuda_lua_handle(lua_State *L, int i, const char *mt)
{
  return *(void **)luaL_checkudata(L, i, mt);
}

void cuda_lua_setint(lua_State *L, const char *k, lua_Integer v)
{
  lua_pushinteger(L, v);
  lua_setfield(L, -2, k);
}

static void setstr(lua_State *L, const char *k, const char *v)
{
  lua_pushstring(L, v);
  lua_setfield(L, -2, k);
}

/* --------------------------------------------------------------- device -- */
static int l_available(lua_State *L)
{
  cute_cuda_error err = {0};
  int ok = cute_cuda_driver_load(&err) == CUTE_CUDA_OK;
  lua_pushboolean(L, ok);
  lua_pushstring(L, ok ? "" : err.msg);
  cute_cuda_error_clear(&err);
  return 2;
}

static int l_device(lua_State *L)
{
  cute_cuda_device_info d;
  TRY(L, cute_cuda_device(&d, ERR));
  lua_createtable(L, 0, 10);
  setstr(L, "name", d.name);
  setstr(L, "arch", d.arch);
  cuda_lua_setint(L, "cc_major", d.cc_major);
  cuda_lua_setint(L, "cc_minor", d.cc_minor);
  cuda_lua_setint(L, "sm_count", d.sm_count);
  cuda_lua_setint(L, "max_threads_per_block", d.max_threads_per_block);
  cuda_lua_setint(L, "max_smem_optin", d.max_smem_optin);
  cuda_lua_setint(L, "l2_bytes", d.l2_bytes);
  cuda_lua_setint(L, "driver_version", d.driver_version);
  cuda_lua_setint(L, "total_mem", (lua_Integer)d.total_mem);
  return 1;
}

static int l_nvrtc_version(lua_State *L)
{
  TRY(L, cute_cuda_nvrtc_load(ERR));
  lua_pushstring(L, cute_cuda_nvrtc_version());
  return 1;
}

static int l_timings(lua_State *L)
{
  lua_createtable(L, 0, 2);
  lua_pushnumber(L, cute_cuda_driver_init_ms());
  lua_setfield(L, -2, "driver_init_ms");
  lua_pushnumber(L, cute_cuda_nvrtc_load_ms());
  lua_setfield(L, -2, "nvrtc_load_ms");
  return 1;
}

static int l_now_ms(lua_State *L)
{
  lua_pushnumber(L, cute_cuda_now_ms());
  return 1;
}

/* ---------------------------------------------------------------- cache -- */
static int l_cache(lua_State *L)
{
  static const char *const modes[] = {"disk", "memory", "off", NULL};
  char dir[CUTE_CUDA_CACHE_DIR_MAX + 1];
  if (!lua_isnoneornil(L, 1)) {
    int m = luaL_checkoption(L, 1, NULL, modes);
    TRY(L, cute_cuda_cache_configure((cute_cuda_cache_mode)m,
                                     luaL_optstring(L, 2, NULL), ERR));
  }
  lua_pushstring(L, modes[cute_cuda_cache_mode_get()]);
  lua_pushstring(L, cute_cuda_cache_dir(dir));
  return 2;
}

static int l_stats(lua_State *L)
{
  cute_cuda_stats s;
  cute_cuda_stats_get(&s);
  lua_createtable(L, 0, 9);
  cuda_lua_setint(L, "nvrtc_calls", s.nvrtc_calls);
  cuda_lua_setint(L, "memory_hits", s.memory_hits);
  cuda_lua_setint(L, "disk_hits", s.disk_hits);
  cuda_lua_setint(L, "disk_writes", s.disk_writes);
  cuda_lua_setint(L, "memory_only", s.memory_only);
  cuda_lua_setint(L, "launches", s.launches);
  cuda_lua_setint(L, "disk_errors", s.disk_errors);
  if (s.disk_errors > 0) setstr(L, "disk_error", s.disk_error);
  lua_pushnumber(L, s.nvrtc_ms);
  lua_setfield(L, -2, "nvrtc_ms");
  return 1;
}

static int l_stats_reset(lua_State *L)
{
  (void)L;
  cute_cuda_stats_reset();
  return 0;
}

static int l_forget_memory(lua_State *L)
{
  (void)L;
  cute_cuda_cache_forget_memory();
  return 0;
}

/* -------------------------------------------------------------- codegen -- */
static int push_text(lua_State *L, cute_cuda_text *t, cute_cuda_status s,
                     cute_cuda_error *err)
{
  if (s != CUTE_CUDA_OK) {
    cute_cuda_text_free(t);
    return cuda_lua_raise(L, err);
  }
  lua_pushlstring(L, t->s ? t->s : "", t->len);
  cute_cuda_text_free(t);
  return 1;
}

/* codegen(name, layout_or_composed [, dtype]): the CUDA C of a layout
 * (cute.cuda.codegen); with a dtype, a tensor type. */
static int l_codegen(lua_State *L)
{
  const char *name = cutelua_checktext(L, 1);
  cute_layout *lay = cutelua_testlayout(L, 2);
  cute_composed *comp = lay ? NULL : cutelua_testcomposed(L, 2);
  cute_cuda_text t = {0};
  cute_cuda_error err = {0};
  cute_cuda_status s;
  if (!lay && !comp) return luaL_typeerror(L, 2, "Layout or ComposedLayout");
  if (!lua_isnoneornil(L, 3)) {
    if (!lay) return luaL_argerror(L, 2, "a tensor needs a plain Layout");
    s = cute_cuda_emit_tensor(&t, name, cuda_lua_check_dtype(L, 3), lay,
                              &err);
  } else if (lay) {
    s = cute_cuda_emit_layout(&t, name, lay, &err);
  } else {
    cutelua_charge_cosize(L, comp, "codegen");  /* its cosize constant */
    s = cute_cuda_emit_composed(&t, name, comp, &err);
  }
  return push_text(L, &t, s, &err);
}

/* ------------------------------------------------------------- binaries -- */
static cute_cuda_binary *check_binary(lua_State *L, int i)
{
  return luaL_checkudata(L, i, BINARY);
}

static int binary_gc(lua_State *L)
{
  cute_cuda_binary_free(check_binary(L, 1));
  return 0;
}

static int binary_index(lua_State *L)
{
  cute_cuda_binary *b = check_binary(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "key") == 0) lua_pushstring(L, b->key);
  else if (strcmp(k, "kind") == 0)
    lua_pushstring(L, b->is_cubin ? "cubin" : "ptx");
  else if (strcmp(k, "arch") == 0) lua_pushstring(L, b->arch);
  else if (strcmp(k, "image") == 0) lua_pushlstring(L, b->image, b->size);
  else if (strcmp(k, "log") == 0) lua_pushstring(L, b->log ? b->log : "");
  else if (strcmp(k, "from_cache") == 0)
    lua_pushstring(L, b->from_cache == 0   ? "nvrtc"
                      : b->from_cache == 1 ? "memory"
                                           : "disk");
  else if (strcmp(k, "compile_ms") == 0) lua_pushnumber(L, b->compile_ms);
  else if (strcmp(k, "lowered") == 0) {
    int i;
    lua_createtable(L, b->nnames, 0);
    for (i = 0; i < b->nnames; i++) {
      lua_pushstring(L, b->lowered[i]);
      lua_rawseti(L, -2, i + 1);
    }
  } else {
    luaL_getmetatable(L, BINARY);
    lua_getfield(L, -1, "methods");
    lua_getfield(L, -1, k);
  }
  return 1;
}

static const char **string_list(lua_State *L, int arg, int *n)
{
  const char **v;
  int i;
  *n = 0;
  if (lua_isnoneornil(L, arg)) return NULL;
  luaL_checktype(L, arg, LUA_TTABLE);
  /* the raw length, which the table's memory bounds: a __len could claim
   * any size and have it allocated below */
  *n = (int)lua_rawlen(L, arg);
  v = lua_newuserdatauv(L, sizeof(char *) * (size_t)(*n + 1), 0); /* GC'd */
  for (i = 0; i < *n; i++) {
    lua_rawgeti(L, arg, i + 1);
    v[i] = luaL_checkstring(L, -1);
    lua_pop(L, 1);   /* the table keeps the string alive */
  }
  return v;
}

/* compile(source, {names...} [, arch [, {options...}]]) -> Binary */
static int l_compile(lua_State *L)
{
  cute_cuda_program p;
  cute_cuda_binary *b;
  lua_settop(L, 4);   /* string_list pushes its arrays above the arguments */
  memset(&p, 0, sizeof p);
  p.source = luaL_checkstring(L, 1);
  p.names = string_list(L, 2, &p.nnames);
  p.arch = luaL_optstring(L, 3, NULL);
  p.options = string_list(L, 4, &p.noptions);
  b = lua_newuserdatauv(L, sizeof *b, 0);
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, BINARY);
  TRY(L, cute_cuda_compile(&p, b, ERR));
  return 1;
}

/* -------------------------------------------------------------- launches -- */
static cute_cuda_launch *check_launch(lua_State *L, int i)
{
  return luaL_checkudata(L, i, LAUNCH);
}

/* A launch stores raw device addresses and a function of a loaded module,
 * so its one user value is a table of what must outlive it: the binary
 * (field "binary"), the stream ("stream") and, at index i, whatever owns
 * argument i's memory (a Buffer, a cute.cuda tensor).  Without it a buffer
 * dropped after prepare would be freed and h() would write to freed
 * memory. */
static void keep(lua_State *L, int l, int value, const char *k, int i)
{
  lua_getiuservalue(L, l, 1);
  lua_pushvalue(L, value);
  if (k) lua_setfield(L, -2, k);
  else lua_rawseti(L, -2, i);
  lua_pop(L, 1);
}

/* binary:launcher(i) -> Launch for kernel names[i] (1-based). */
static int binary_launcher(lua_State *L)
{
  cute_cuda_binary *b = check_binary(L, 1);
  lua_Integer i = luaL_optinteger(L, 2, 1);
  cute_cuda_launch *l;
  void *fn = NULL;
  /* checked before the cast to int, which would wrap a huge index */
  luaL_argcheck(L, i >= 1 && i <= 0x7fffffff, 2, "kernel index out of range");
  TRY(L, cute_cuda_function(&fn, b, (int)i - 1, ERR));
  l = lua_newuserdatauv(L, sizeof *l, 1);
  cute_cuda_launch_init(l, fn);
  luaL_setmetatable(L, LAUNCH);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  keep(L, lua_gettop(L), 1, "binary", 0);
  return 1;
}

static void dims(lua_State *L, unsigned d[3])
{
  int k;
  for (k = 0; k < 3; k++) {
    lua_Integer v = luaL_optinteger(L, 2 + k, 1);
    luaL_argcheck(L, v >= 1 && v <= 0x7fffffff, 2 + k,
                  "dimension out of range");
    d[k] = (unsigned)v;
  }
}

static int launch_grid(lua_State *L)
{
  dims(L, check_launch(L, 1)->grid);
  lua_settop(L, 1);
  return 1;
}

static int launch_block(lua_State *L)
{
  dims(L, check_launch(L, 1)->block);
  lua_settop(L, 1);
  return 1;
}

/* smem(bytes): dynamic shared memory; above 48 KiB the function's limit is
 * raised first. */
static int launch_smem(lua_State *L)
{
  cute_cuda_launch *l = check_launch(L, 1);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_argcheck(L, n >= 0 && n <= 0x7fffffff, 2, "bytes out of range");
  if (n > 48 * 1024) TRY(L, cute_cuda_function_smem(l->fn, (int)n, ERR));
  l->smem = (unsigned)n;
  lua_settop(L, 1);
  return 1;
}

static int launch_stream(lua_State *L)
{
  cute_cuda_launch *l = check_launch(L, 1);
  l->stream = lua_isnoneornil(L, 2) ? NULL : cuda_lua_handle(L, 2, STREAM);
  lua_settop(L, 2);
  keep(L, 1, 2, "stream", 0);
  lua_settop(L, 1);
  return 1;
}

/* arg(i, kind, value [, owner]): kinds ptr i32 u32 i64 u64 f32 f64
 * (1-based i).  A ptr value is an address or a Buffer (its address); the
 * handle keeps the Buffer, or `owner` (what the address points into),
 * alive as long as it may launch. */
enum { ARG_PTR, ARG_I32, ARG_U32, ARG_I64, ARG_U64, ARG_F32, ARG_F64 };

static int launch_arg(lua_State *L)
{
  static const char *const kinds[] = {"ptr", "i32", "u32", "i64", "u64",
                                      "f32", "f64", NULL};
  cute_cuda_launch *l = check_launch(L, 1);
  lua_Integer i = luaL_checkinteger(L, 2);
  int k = luaL_checkoption(L, 3, NULL, kinds);
  union { int32_t i32; int64_t i64; float f32; double f64; } v;
  int bytes = 8;
  lua_settop(L, 5);
  switch (k) {
  case ARG_I32: case ARG_U32:
    v.i32 = (int32_t)luaL_checkinteger(L, 4);
    bytes = 4;
    break;
  case ARG_F32: v.f32 = (float)luaL_checknumber(L, 4); bytes = 4; break;
  case ARG_F64: v.f64 = luaL_checknumber(L, 4); break;
  default:   /* ptr (an address or a Buffer), i64, u64 */
    if (k == ARG_PTR && luaL_testudata(L, 4, CUDA_LUA_BUFFER)) {
      v.i64 = (int64_t)cuda_lua_buffer_ptr(L, 4);
      if (lua_isnil(L, 5)) lua_copy(L, 4, 5);
    } else {
      v.i64 = (int64_t)luaL_checkinteger(L, 4);
    }
    break;
  }
  if (i < 1 || i > CUTE_CUDA_MAX_ARGS)   /* before the cast to int */
    return luaL_argerror(L, 2, lua_pushfstring(L, "argument index %I outside "
                         "1..%d", i, CUTE_CUDA_MAX_ARGS));
  TRY(L, cute_cuda_launch_arg(l, (int)i - 1, &v, bytes, ERR));
  keep(L, 1, 5, NULL, (int)i);   /* nil drops a previous owner */
  lua_settop(L, 1);
  return 1;
}

/* The hot path: no argument conversion, one cuLaunchKernel. */
static int launch_run(lua_State *L)
{
  TRY(L, cute_cuda_launch_run(check_launch(L, 1), ERR));
  return 0;
}

/* --------------------------------------------------- events and streams -- */
/* A new userdata of class mt holding the handle `create` makes; the handle
 * is NULL until then, so the finaliser is safe if create fails. */
static int new_handle(lua_State *L, const char *mt,
                      cute_cuda_status (*create)(void **, cute_cuda_error *))
{
  void **h = lua_newuserdatauv(L, sizeof *h, 0);
  *h = NULL;
  luaL_setmetatable(L, mt);
  TRY(L, create(h, ERR));
  return 1;
}

static int gc_handle(lua_State *L, const char *mt, void (*destroy)(void *))
{
  void **h = luaL_checkudata(L, 1, mt);
  destroy(*h);   /* NULL-safe */
  *h = NULL;
  return 0;
}

static int l_event(lua_State *L)
{
  return new_handle(L, EVENT, cute_cuda_event_create);
}

static int event_gc(lua_State *L)
{
  return gc_handle(L, EVENT, cute_cuda_event_destroy);
}

static int event_record(lua_State *L)
{
  void *ev = cuda_lua_handle(L, 1, EVENT);
  void *s = lua_isnoneornil(L, 2) ? NULL : cuda_lua_handle(L, 2, STREAM);
  TRY(L, cute_cuda_event_record(ev, s, ERR));
  lua_settop(L, 1);
  return 1;
}

/* start:elapsed(stop) -> milliseconds (waits for stop). */
static int event_elapsed(lua_State *L)
{
  void *a = cuda_lua_handle(L, 1, EVENT), *b = cuda_lua_handle(L, 2, EVENT);
  float ms = 0;
  TRY(L, cute_cuda_event_elapsed(&ms, a, b, ERR));
  lua_pushnumber(L, ms);
  return 1;
}

static int l_stream(lua_State *L)
{
  return new_handle(L, STREAM, cute_cuda_stream_create);
}

static int stream_gc(lua_State *L)
{
  return gc_handle(L, STREAM, cute_cuda_stream_destroy);
}

static int stream_sync(lua_State *L)
{
  TRY(L, cute_cuda_stream_sync(cuda_lua_handle(L, 1, STREAM), ERR));
  return 0;
}

static int l_synchronize(lua_State *L)
{
  TRY(L, cute_cuda_synchronize(ERR));
  return 0;
}

/* ------------------------------------------------------------ the plan -- */
static int opt_field(lua_State *L, int t, const char *k)
{
  int v;
  lua_getfield(L, t, k);
  /* true counts as 1, a number as itself */
  v = lua_toboolean(L, -1) && !lua_isinteger(L, -1) ? 1
                                                    : (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v;
}

static void push_dim3(lua_State *L, const unsigned d[3], const char *k)
{
  int i;
  lua_createtable(L, 3, 0);
  for (i = 0; i < 3; i++) {
    lua_pushinteger(L, d[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, k);
}

/* copy_plan(src, soff, dst, doff, dtype [, opts]) -> {kind, vector, ...} */
static int l_copy_plan(lua_State *L)
{
  static const char *const kinds[] = {"elementwise", "transpose", "generic"};
  const cute_layout *S = cutelua_checklayout(L, 1);
  const cute_layout *D = cutelua_checklayout(L, 3);
  int64_t so = luaL_checkinteger(L, 2), dof = luaL_checkinteger(L, 4);
  cute_cuda_dtype t = cuda_lua_check_dtype(L, 5);
  cute_cuda_copy_opts o;
  cute_cuda_copy_plan p;
  memset(&o, 0, sizeof o);
  if (lua_istable(L, 6)) {
    o.max_vector_bytes = opt_field(L, 6, "max_vector_bytes");
    o.vectors_per_thread = opt_field(L, 6, "vectors_per_thread");
    o.block = opt_field(L, 6, "block");
    o.tile = opt_field(L, 6, "tile");
    o.tile_rows = opt_field(L, 6, "tile_rows");
    o.no_transpose = opt_field(L, 6, "no_transpose");
    o.min_tile_extent = opt_field(L, 6, "min_tile_extent");
  }
  TRY(L, cute_cuda_copy_plan_make(&p, S, so, D, dof, t, &o, ERR));
  lua_createtable(L, 0, 8);
  setstr(L, "kind", kinds[p.kind]);
  cuda_lua_setint(L, "vector", p.vector);
  cuda_lua_setint(L, "common", p.common);
  cuda_lua_setint(L, "size", p.size);
  setstr(L, "summary", p.summary);
  setstr(L, "source", p.source.s);
  push_dim3(L, p.grid, "grid");
  push_dim3(L, p.block, "block");
  cute_cuda_copy_plan_free(&p);
  return 1;
}

/* tensor_map(dtype, address, dims, strides, box [, swizzle]) -> the
 * 128-byte CUtensorMap as a string (tables of up to 5 integers, dims[1]
 * contiguous, strides in bytes with strides[1] ignored). */
static void u64_list(lua_State *L, int arg, unsigned long long *out, int *n)
{
  int i;
  luaL_checktype(L, arg, LUA_TTABLE);
  *n = (int)lua_rawlen(L, arg);
  luaL_argcheck(L, *n >= 1 && *n <= CUTE_CUDA_TMA_MAX_RANK, arg,
                "1 to 5 integers");
  for (i = 0; i < *n; i++) {
    lua_Integer v;
    lua_rawgeti(L, arg, i + 1);
    v = luaL_checkinteger(L, -1);
    luaL_argcheck(L, v >= 0, arg, "negative entry");
    out[i] = (unsigned long long)v;
    lua_pop(L, 1);
  }
}

static int l_tensor_map(lua_State *L)
{
  cute_cuda_tma m;
  unsigned char map[128];
  int nd, ns, nb;
  memset(&m, 0, sizeof m);
  m.dtype = cuda_lua_check_dtype(L, 1);
  m.base = (cute_cuda_ptr)luaL_checkinteger(L, 2);
  u64_list(L, 3, m.dims, &nd);
  u64_list(L, 4, m.strides, &ns);
  u64_list(L, 5, m.box, &nb);
  luaL_argcheck(L, ns == nd && nb == nd, 4, "dims, strides and box differ "
                "in rank");
  m.rank = nd;
  m.swizzle = (int)luaL_optinteger(L, 6, 0);
  TRY(L, cute_cuda_tensor_map(map, &m, ERR));
  lua_pushlstring(L, (const char *)map, sizeof map);
  return 1;
}

/* ---------------------------------------------------------------- module -- */
static void classes(lua_State *L)
{
  static const luaL_Reg bin_meta[] = {{"__gc", binary_gc},
                                      {"__index", binary_index}, {NULL, NULL}};
  static const luaL_Reg bin_methods[] = {{"launcher", binary_launcher},
                                         {NULL, NULL}};
  static const luaL_Reg launch_meta[] = {{"__call", launch_run}, {NULL, NULL}};
  static const luaL_Reg launch_methods[] = {
    {"grid", launch_grid}, {"block", launch_block}, {"smem", launch_smem},
    {"stream", launch_stream}, {"arg", launch_arg}, {"run", launch_run},
    {NULL, NULL}};
  static const luaL_Reg event_meta[] = {{"__gc", event_gc}, {NULL, NULL}};
  static const luaL_Reg event_methods[] = {{"record", event_record},
                                           {"elapsed", event_elapsed},
                                           {NULL, NULL}};
  static const luaL_Reg stream_meta[] = {{"__gc", stream_gc}, {NULL, NULL}};
  static const luaL_Reg stream_methods[] = {{"synchronize", stream_sync},
                                            {NULL, NULL}};
  if (luaL_newmetatable(L, BINARY)) {
    luaL_setfuncs(L, bin_meta, 0);
    luaL_newlib(L, bin_methods);
    lua_setfield(L, -2, "methods");
  }
  lua_pop(L, 1);
  cutelua_newclass(L, LAUNCH, launch_meta, launch_methods);
  cutelua_newclass(L, EVENT, event_meta, event_methods);
  cutelua_newclass(L, STREAM, stream_meta, stream_methods);
}

/* device_headers() -> {["cute/device.h"] = text, ...}: the device library
 * every kernel can #include (cute_cuda_device_header). */
static int l_device_headers(lua_State *L)
{
  const char *name, *text;
  size_t size;
  int i;
  lua_newtable(L);
  for (i = 0; (name = cute_cuda_device_header(i, &text, &size)) != NULL; i++) {
    lua_pushlstring(L, text, size);
    lua_setfield(L, -2, name);
  }
  return 1;
}

static void dtype_fields(lua_State *L, cute_cuda_dtype t)
{
  cuda_lua_setint(L, "size", cute_cuda_dtype_size(t));
  lua_pushstring(L, cute_cuda_dtype_ctype(t));
  lua_setfield(L, -2, "ctype");
  lua_pushstring(L, cute_cuda_dtype_device_type(t));
  lua_setfield(L, -2, "device");
  lua_pushboolean(L, cute_cuda_dtype_is_float(t));
  lua_setfield(L, -2, "float");
}

int luaopen_cute_cuda_core(lua_State *L)
{
  static const luaL_Reg fns[] = {
    {"available", l_available}, {"device", l_device},
    {"nvrtc_version", l_nvrtc_version}, {"timings", l_timings},
    {"now_ms", l_now_ms}, {"cache", l_cache}, {"stats", l_stats},
    {"stats_reset", l_stats_reset}, {"forget_memory", l_forget_memory},
    {"codegen", l_codegen}, {"compile", l_compile}, {"event", l_event},
    {"stream", l_stream}, {"synchronize", l_synchronize},
    {"copy_plan", l_copy_plan}, {"device_headers", l_device_headers},
    {"tensor_map", l_tensor_map}, {NULL, NULL}};
  luaL_checkversion(L);
  classes(L);
  luaL_newlib(L, fns);
  cuda_lua_open_buffer(L);
  lua_pushstring(L, cute_cuda_prelude);
  lua_setfield(L, -2, "prelude");
  /* dtypes = {f32 = {size =, ctype =, device =, float =}, s32 = i32's,
   * ...}: the element types buffers store, under every spelling */
  cutelua_pushdtypes(L, CUTE_CUDA_DTYPE_COUNT, dtype_fields);
  lua_setfield(L, -2, "dtypes");
  /* limits = {check, includes, include_depth}: cute_cuda.h's, to read */
  lua_createtable(L, 0, 3);
  cuda_lua_setint(L, "check", CUTE_CUDA_MAX_CHECK);
  cuda_lua_setint(L, "includes", CUTE_CUDA_MAX_INCLUDES);
  cuda_lua_setint(L, "include_depth", CUTE_CUDA_MAX_INCLUDE_DEPTH);
  lua_setfield(L, -2, "limits");
  return 1;
}
