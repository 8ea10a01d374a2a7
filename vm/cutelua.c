/*
 * cutelua.c -- the embedding API (cutelua.h): states with a memory limit and
 * an instruction budget, running code, reading layouts back.
 *
 * Every touch of the Lua API that may allocate or raise happens inside
 * lua_pcall: a state opened with lua_newstate has no panic handler worth
 * having, and a host must never be aborted by a script.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cute_lua.h"
#include "cutelua_internal.h"

#ifdef CUTELUA_HAVE_CUDA
int luaopen_cute_cuda_core(lua_State *L);  /* bindings/cuda_module.c */
#endif

/* The count hook fires every HOOK_STEP instructions: finer costs speed,
 * coarser only blurs the budget's edge. */
#define HOOK_STEP 1000

static cutelua_state *state_of(lua_State *L) {
  return *(cutelua_state **)lua_getextraspace(L);
}

/* ------------------------------------------------------------- memory -- */
/* lua_Alloc with a ceiling: refusing an allocation makes Lua run an
 * emergency collection and retry, then raise LUA_ERRMEM. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  cutelua_state *S = ud;
  size_t old = ptr != NULL ? osize : 0;
  void *p;
  if (nsize == 0) {
    cutelua_pool_realloc(&S->pool, ptr, osize, 0);
    S->used -= old;
    return NULL;
  }
  if (S->limit != 0 && nsize > old && nsize - old > S->limit - S->used) {
    S->refused = 1;
    return NULL;
  }
  p = cutelua_pool_realloc(&S->pool, ptr, osize, nsize);
  if (p != NULL)
    S->used = S->used - old + nsize;
  return p;
}

/* ------------------------------------------------------- instructions -- */
static void budget_hook(lua_State *L, lua_Debug *ar);

/* Raises S->why, the reason the run call stopped.  From now on the hook
 * fires at every instruction of every coroutine and raises it again, so a
 * script that pcall-s the error away stops again at once. */
static int budget_raise(lua_State *L) {
  lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
  return luaL_error(L, "%s", state_of(L)->why);
}

static void budget_hook(lua_State *L, lua_Debug *ar) {
  cutelua_state *S = state_of(L);
  (void)ar;
  if (!S->budget_hit) {
    S->remaining -= lua_gethookcount(L);
    if (S->remaining > 0) {
      if (lua_gethookcount(L) != HOOK_STEP)  /* a thread stopped before */
        lua_sethook(L, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
      return;
    }
    S->budget_hit = 1;
    snprintf(S->why, sizeof S->why,
             "instruction budget exhausted (%" PRIu64 " instructions)",
             S->budget);
  }
  budget_raise(L);
}

double cutelua_budget_left(lua_State *L) {
  cutelua_state *S = state_of(L);
  if (S->budget == 0)
    return HUGE_VAL;
  return S->remaining > 0 ? (double)S->remaining : 0;
}

int cutelua_budget_stop(lua_State *L, const char *fmt, ...) {
  cutelua_state *S = state_of(L);
  va_list ap;
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  snprintf(S->why, sizeof S->why, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  S->budget_hit = 1;
  S->remaining = 0;
  return budget_raise(L);
}

void cutelua_budget_take(lua_State *L, double n, const char *what) {
  cutelua_state *S = state_of(L);
  char count[32];
  if (S->budget == 0)
    return;
  if (n < cutelua_budget_left(L)) {
    S->remaining -= (int64_t)n;
    return;
  }
  snprintf(count, sizeof count, "%.0f", n);
  cutelua_budget_stop(L, "instruction budget exhausted (%I instructions): "
                         "%s would touch %s elements",
                      (lua_Integer)S->budget, what, count);
}

/* Coroutines inherit the hook of the thread that creates them, so setting
 * it on the main thread once covers them all; each run call refills. */
static void budget_refill(cutelua_state *S) {
  if (S->budget == 0)
    return;
  S->remaining = (int64_t)(S->budget > INT64_MAX ? INT64_MAX : S->budget);
  S->budget_hit = 0;
  lua_sethook(S->L, budget_hook, LUA_MASKCOUNT, HOOK_STEP);
}

/* ------------------------------------------------------------- errors -- */
/* Is the traceback line at p (after its tab) a frame inside the stdlib,
 * or the C function (error, assert) a stdlib frame called to raise? */
static int stdlib_frame(const char *p, const char *next) {
  if (strncmp(p, "stdlib/", 7) == 0 || strncmp(p, "(...tail calls...)", 18) == 0)
    return 1;
  return strncmp(p, "[C]: in function '", 18) == 0 && next != NULL &&
         strncmp(next, "\tstdlib/", 8) == 0;
}

/* The traceback at the top without the stdlib's own frames: a user sees
 * where the error comes from in their script, not how cute raised it.
 * CUTELUA_TRACEBACK=full keeps every frame. */
static void trim_traceback(lua_State *L) {
  const char *tb = lua_tostring(L, -1), *line = tb, *end;
  const char *full = getenv("CUTELUA_TRACEBACK");
  luaL_Buffer b;
  if (full != NULL && strcmp(full, "full") == 0)
    return;
  luaL_buffinit(L, &b);
  for (; *line != '\0'; line = end) {
    const char *nl = strchr(line, '\n');
    end = nl != NULL ? nl + 1 : line + strlen(line);
    if (line != tb && line[0] == '\t' &&
        stdlib_frame(line + 1, nl != NULL ? nl + 1 : NULL))
      continue;
    luaL_addlstring(&b, line, (size_t)(end - line));
  }
  luaL_pushresult(&b);
  lua_remove(L, -2);
}

int cutelua_msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      msg = lua_tostring(L, -1);
    else
      msg = lua_pushfstring(L, "(error object is a %s value)",
                            luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  trim_traceback(L);
  return 1;
}

/* The message lives in C memory so that it survives a full Lua heap. */
static void set_error(cutelua_state *S, const char *msg) {
  size_t n = strlen(msg) + 1;
  char *copy = malloc(n);
  free(S->err);
  S->err = copy;
  if (copy != NULL)
    memcpy(copy, msg, n);
}

static cutelua_status fail(cutelua_state *S, cutelua_status st,
                           const char *msg) {
  set_error(S, msg);
  return st;
}

/* Did the run stop for memory?  LUA_ERRMEM, or LUA_ERRERR when the
 * traceback itself found none; or, once an allocation was refused, an
 * error whose first line carries Lua's memory message: a pcall on the
 * way (a stdlib function that names its call in errors, coroutine.wrap)
 * re-raises it as a plain error, which Lua reports as LUA_ERRRUN. */
static int out_of_memory(const cutelua_state *S, int lst, const char *msg) {
  const char *mem = msg != NULL ? strstr(msg, "not enough memory") : NULL;
  if (lst == LUA_ERRMEM || (lst == LUA_ERRERR && S->refused))
    return 1;
  return S->refused && mem != NULL && memchr(msg, '\n', (size_t)(mem - msg))
                                          == NULL;
}

/* Maps a failed lua_pcall to a status, records its message and drops it.
 * A budget or memory stop wins over whatever the script made of it. */
static cutelua_status failed_call(cutelua_state *S, int lst,
                                  cutelua_status otherwise) {
  lua_State *L = S->L;
  const char *msg = lua_tostring(L, -1);
  cutelua_status st = otherwise;
  if (S->budget_hit)
    st = CUTELUA_EBUDGET;
  else if (out_of_memory(S, lst, msg))
    st = CUTELUA_EMEM;
  if (st == CUTELUA_EMEM && S->limit != 0) {
    char buf[96];
    snprintf(buf, sizeof buf, "not enough memory (limit %zu bytes)", S->limit);
    set_error(S, buf);
  } else {
    set_error(S, msg != NULL ? msg : "(error object is not a string)");
  }
  lua_pop(L, 1);
  return st;
}

/* -------------------------------------------------------------- open -- */
static int load_embedded(lua_State *L) {
  const cutelua_module *m = lua_touserdata(L, lua_upvalueindex(1));
  if (luaL_loadbufferx(L, (const char *)m->code, m->size, m->chunkname,
                       "t") != LUA_OK)
    return lua_error(L);
  lua_insert(L, 1);  /* run it with require's arguments (name, extra) */
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

static void preload_all(lua_State *L) {
  const cutelua_module *m;
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  for (m = cutelua_stdlib; m->name != NULL; m++) {
    lua_pushlightuserdata(L, (void *)m);
    lua_pushcclosure(L, load_embedded, 1);
    lua_setfield(L, -2, m->name);
  }
  lua_pushcfunction(L, luaopen_cute_core);
  lua_setfield(L, -2, "cute.core");
#ifdef CUTELUA_HAVE_CUDA
  lua_pushcfunction(L, luaopen_cute_cuda_core);
  lua_setfield(L, -2, "cute.cuda.core");
#endif
  lua_pop(L, 1);
}

static int open_libs(lua_State *L) {
  static const luaL_Reg always[] = {
    {LUA_GNAME, luaopen_base},         {LUA_LOADLIBNAME, luaopen_package},
    {LUA_COLIBNAME, luaopen_coroutine}, {LUA_TABLIBNAME, luaopen_table},
    {LUA_STRLIBNAME, luaopen_string},  {LUA_MATHLIBNAME, luaopen_math},
    {LUA_UTF8LIBNAME, luaopen_utf8},   {NULL, NULL}};
  const cutelua_options *opt = lua_touserdata(L, 1);
  const luaL_Reg *lib;
  for (lib = always; lib->name != NULL; lib++) {
    luaL_requiref(L, lib->name, lib->func, 1);
    lua_pop(L, 1);
  }
  if (opt->open_io) {
    luaL_requiref(L, LUA_IOLIBNAME, luaopen_io, 1);
    lua_pop(L, 1);
  }
  if (opt->open_os) {
    luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 1);
    lua_pop(L, 1);
  }
  preload_all(L);
  cutelua_guard_cstack(L);
  if (!opt->open_io)
    cutelua_sandbox(L);
  if (opt->instruction_limit != 0)
    cutelua_guard(L);
  return 0;
}

void cutelua_options_init(cutelua_options *opt) {
  memset(opt, 0, sizeof *opt);
}

cutelua_state *cutelua_open(const cutelua_options *opt) {
  cutelua_options defaults;
  cutelua_state *S = calloc(1, sizeof *S);
  if (opt == NULL) {
    cutelua_options_init(&defaults);
    opt = &defaults;
  }
  if (S == NULL)
    return NULL;
  S->limit = opt->memory_limit;
  S->budget = opt->instruction_limit;
  S->L = lua_newstate(limited_alloc, S);
  if (S->L == NULL) {
    cutelua_pool_clear(&S->pool);
    free(S);
    return NULL;
  }
  *(cutelua_state **)lua_getextraspace(S->L) = S;
  lua_pushcfunction(S->L, open_libs);
  lua_pushlightuserdata(S->L, (void *)opt);
  if (lua_pcall(S->L, 1, 0, 0) != LUA_OK) {
    cutelua_close(S);
    return NULL;
  }
  return S;
}

void cutelua_close(cutelua_state *S) {
  if (S == NULL)
    return;
  lua_close(S->L);
  cutelua_pool_clear(&S->pool);
  free(S->err);
  free(S);
}

/* --------------------------------------------------------------- run -- */
typedef struct chunk {
  const char *code;  /* Lua text, or NULL to read `name` as a file */
  const char *name;
  int file_failed;   /* the file could not be opened or read       */
  int collect;       /* collect first: the last run met the limit  */
} chunk;

static int load_chunk(lua_State *L) {
  chunk *c = lua_touserdata(L, 1);
  int st;
  /* The garbage of a run stopped by the memory limit is not always
   * freed by Lua's emergency collection: after a table of strings met
   * the limit, the next run's first 5,000-byte string failed, with no
   * collection tried (spec/vm/test_embed.c, test_pool). */
  if (c->collect) lua_gc(L, LUA_GCCOLLECT);
  if (c->code != NULL) {
    st = luaL_loadbufferx(L, c->code, strlen(c->code), c->name, "t");
  } else {
    st = luaL_loadfilex(L, c->name, "t");
    c->file_failed = st == LUA_ERRFILE;
  }
  if (st != LUA_OK)
    return lua_error(L);
  return 1;
}

/* Loads and runs a chunk; its results become stack slots 1..n. */
static cutelua_status run(cutelua_state *S, chunk *c) {
  lua_State *L = S->L;
  uintptr_t outer;
  int lst;
  lua_settop(L, 0);
  S->nresults = 0;
  c->collect = S->refused;
  S->refused = 0;
  budget_refill(S);
  lua_pushcfunction(L, cutelua_msghandler);
  lua_pushcfunction(L, load_chunk);
  lua_pushlightuserdata(L, c);
  lst = lua_pcall(L, 1, 1, 0);
  if (lst != LUA_OK) {
    lua_remove(L, 1);
    return failed_call(S, lst, c->file_failed ? CUTELUA_EFILE
                                              : CUTELUA_ESYNTAX);
  }
  outer = cutelua_stack_enter(S);
  lst = lua_pcall(L, 0, LUA_MULTRET, 1);
  cutelua_stack_leave(S, outer);
  lua_remove(L, 1);
  if (lst != LUA_OK)
    return failed_call(S, lst, CUTELUA_ERUN);
  S->nresults = lua_gettop(L);
  return CUTELUA_OK;
}

cutelua_status cutelua_run_string(cutelua_state *S, const char *code,
                                  const char *chunkname) {
  chunk c;
  if (S == NULL || code == NULL)
    return S == NULL ? CUTELUA_EARG : fail(S, CUTELUA_EARG, "code is NULL");
  c.code = code;
  c.name = chunkname != NULL ? chunkname : "=(string)";
  c.file_failed = 0;
  return run(S, &c);
}

cutelua_status cutelua_run_file(cutelua_state *S, const char *path) {
  chunk c;
  if (S == NULL || path == NULL)
    return S == NULL ? CUTELUA_EARG : fail(S, CUTELUA_EARG, "path is NULL");
  c.code = NULL;
  c.name = path;
  c.file_failed = 0;
  return run(S, &c);
}

const char *cutelua_last_error(const cutelua_state *S) {
  if (S == NULL)
    return "no state";
  if (S->err == NULL)
    return "";
  return S->err;
}

int cutelua_nresults(const cutelua_state *S) {
  return S != NULL ? S->nresults : 0;
}

/* ------------------------------------------------ layouts back into C -- */
/* "(_,(_,_))": the shape printed with every leaf replaced by `_`. */
static void profile_text(const cute_tuple *shape, char *buf, size_t cap) {
  cute_tuple t = *shape;
  int i;
  for (i = 0; i < t.nleaf; i++) {
    t.v[i] = CUTE_UNDERSCORE;
    t.e[i] = 0;
  }
  cute_tuple_print(&t, buf, cap);
}

static void fill_layout(cutelua_layout *out, const cute_layout *l) {
  int i;
  out->layout = *l;
  out->rank = cute_layout_rank(l);
  out->depth = cute_layout_depth(l);
  out->nleaf = l->shape.nleaf;
  for (i = 0; i < l->shape.nleaf; i++) {
    out->shape[i] = l->shape.v[i];
    out->stride[i] = l->stride.v[i];
    out->basis[i] = l->stride.e[i];
  }
  profile_text(&l->shape, out->profile, sizeof out->profile);
  cute_layout_print(l, out->text, sizeof out->text);
}

typedef struct lookup {
  const char *global;  /* NULL: the value is argument 2 (result `index`) */
  int index;
  cutelua_layout *out;
} lookup;

static int read_layout(lua_State *L) {
  lookup *q = lua_touserdata(L, 1);
  const cute_layout *l;
  if (q->global != NULL)
    lua_getglobal(L, q->global);
  l = cutelua_testlayout(L, -1);
  if (l == NULL) {
    if (q->global != NULL)
      return luaL_error(L, "global '%s' is a %s value, not a layout",
                        q->global, luaL_typename(L, -1));
    return luaL_error(L, "result %d is a %s value, not a layout", q->index,
                      luaL_typename(L, -1));
  }
  fill_layout(q->out, l);
  return 0;
}

/* A C function sees only its own arguments: a result goes in as a copy. */
static cutelua_status lookup_layout(cutelua_state *S, lookup *q) {
  lua_State *L = S->L;
  int lst;
  if (!lua_checkstack(L, 4))
    return fail(S, CUTELUA_EMEM, "not enough memory (Lua stack)");
  lua_pushcfunction(L, read_layout);
  lua_pushlightuserdata(L, q);
  if (q->global == NULL)
    lua_pushvalue(L, q->index);
  lst = lua_pcall(L, q->global == NULL ? 2 : 1, 0, 0);
  return lst == LUA_OK ? CUTELUA_OK : failed_call(S, lst, CUTELUA_ETYPE);
}

/* The checks of the two result readers: a state, somewhere to write, and
 * a result the last run returned. */
static cutelua_status check_result(cutelua_state *S, int i, const void *out) {
  if (S == NULL || out == NULL)
    return S == NULL ? CUTELUA_EARG : fail(S, CUTELUA_EARG, "out is NULL");
  if (i < 1 || i > S->nresults) {
    char buf[96];
    snprintf(buf, sizeof buf, "no result %d: the last run returned %d", i,
             S->nresults);
    return fail(S, CUTELUA_EARG, buf);
  }
  return CUTELUA_OK;
}

cutelua_status cutelua_result_layout(cutelua_state *S, int i,
                                     cutelua_layout *out) {
  lookup q;
  cutelua_status st = check_result(S, i, out);
  if (st != CUTELUA_OK)
    return st;
  q.global = NULL;
  q.index = i;
  q.out = out;
  return lookup_layout(S, &q);
}

cutelua_status cutelua_global_layout(cutelua_state *S, const char *name,
                                     cutelua_layout *out) {
  lookup q;
  if (S == NULL || name == NULL || out == NULL)
    return S == NULL ? CUTELUA_EARG
                     : fail(S, CUTELUA_EARG, "name or out is NULL");
  q.global = name;
  q.index = 0;
  q.out = out;
  return lookup_layout(S, &q);
}

/* ------------------------------------------------ any value into C -- */
/* The value at -1 into q->value; a string is anchored in the registry so
 * that its bytes outlive the read (until the next one). */
typedef struct value_lookup {
  const char *global;  /* NULL: the value is argument 2 (result `index`) */
  cutelua_value *out;
} value_lookup;

static void fill_value(lua_State *L, cutelua_value *v) {
  cute_tuple t;
  cute_error err;
  const cute_layout *l;
  const cute_composed *c;
  const cute_swizzle *sw;
  lua_Integer n;
  int isint = 0;
  memset(v, 0, sizeof *v);
  if ((l = cutelua_testlayout(L, -1)) != NULL) {
    v->kind = CUTELUA_TLAYOUT;
    fill_layout(&v->layout, l);
    memcpy(v->text, v->layout.text, sizeof v->text);
  } else if ((c = cutelua_testcomposed(L, -1)) != NULL) {
    v->kind = CUTELUA_TCOMPOSED;
    fill_layout(&v->layout, &c->layout);
    v->swizzle = c->sw;
    v->offset = c->offset;
    cute_composed_print(c, v->text, sizeof v->text);
  } else if ((sw = luaL_testudata(L, -1, CUTELUA_SWIZZLE)) != NULL) {
    v->kind = CUTELUA_TSWIZZLE;
    v->swizzle = *sw;
    cute_swizzle_print(*sw, v->text, sizeof v->text);
  } else if (lua_type(L, -1) == LUA_TNUMBER &&
             (n = lua_tointegerx(L, -1, &isint), isint)) {
    v->kind = CUTELUA_TINTEGER;
    v->integer = (int64_t)n;
    v->number = (double)n;
  } else if (lua_type(L, -1) == LUA_TNUMBER) {
    v->kind = CUTELUA_TNUMBER;
    v->number = lua_tonumber(L, -1);
  } else if (lua_type(L, -1) == LUA_TSTRING) {
    v->kind = CUTELUA_TSTRING;
    v->string = lua_tolstring(L, -1, &v->length);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, "cutelua.value");
  } else if (lua_type(L, -1) == LUA_TBOOLEAN) {
    v->kind = CUTELUA_TBOOLEAN;
    v->boolean = lua_toboolean(L, -1);
  } else if (lua_isnil(L, -1)) {
    v->kind = CUTELUA_TNIL;
  } else if (lua_type(L, -1) == LUA_TTABLE &&
             cutelua_totuple(L, lua_gettop(L), &t, &err) == CUTE_OK) {
    v->kind = CUTELUA_TTUPLE;
    v->tuple = t;
    cute_tuple_print(&t, v->text, sizeof v->text);
  } else {
    v->kind = CUTELUA_TOTHER;
  }
  if (v->text[0] == '\0')
    snprintf(v->text, sizeof v->text, "%s", luaL_typename(L, -1));
}

static int read_value(lua_State *L) {
  value_lookup *q = lua_touserdata(L, 1);
  if (q->global != NULL)
    lua_getglobal(L, q->global);
  fill_value(L, q->out);
  return 0;
}

static cutelua_status lookup_value(cutelua_state *S, value_lookup *q,
                                   int index) {
  lua_State *L = S->L;
  int lst;
  if (!lua_checkstack(L, 4))
    return fail(S, CUTELUA_EMEM, "not enough memory (Lua stack)");
  lua_pushcfunction(L, read_value);
  lua_pushlightuserdata(L, q);
  if (q->global == NULL)
    lua_pushvalue(L, index);
  lst = lua_pcall(L, q->global == NULL ? 2 : 1, 0, 0);
  return lst == LUA_OK ? CUTELUA_OK : failed_call(S, lst, CUTELUA_ERUN);
}

cutelua_status cutelua_result(cutelua_state *S, int i, cutelua_value *out) {
  value_lookup q;
  cutelua_status st = check_result(S, i, out);
  if (st != CUTELUA_OK)
    return st;
  q.global = NULL;
  q.out = out;
  return lookup_value(S, &q, i);
}

cutelua_status cutelua_global(cutelua_state *S, const char *name,
                              cutelua_value *out) {
  value_lookup q;
  if (S == NULL || name == NULL || out == NULL)
    return S == NULL ? CUTELUA_EARG
                     : fail(S, CUTELUA_EARG, "name or out is NULL");
  q.global = name;
  q.out = out;
  return lookup_value(S, &q, 0);
}

/* --------------------------------------------------- values from C -- */
typedef struct setter {
  const char *name;
  int kind;            /* a cutelua_kind */
  const void *data;
} setter;

/* The metatables of layouts and tuples exist once cute.core has loaded. */
static int push_and_set(lua_State *L) {
  setter *q = lua_touserdata(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "cute.core");
  lua_call(L, 1, 0);
  switch (q->kind) {
  case CUTELUA_TINTEGER: lua_pushinteger(L, *(const int64_t *)q->data); break;
  case CUTELUA_TNUMBER: lua_pushnumber(L, *(const double *)q->data); break;
  case CUTELUA_TSTRING: lua_pushstring(L, q->data); break;
  case CUTELUA_TTUPLE: cutelua_pushtuple(L, q->data); break;
  case CUTELUA_TLAYOUT: cutelua_pushlayout(L, q->data); break;
  default: cutelua_pushcomposed(L, q->data); break;
  }
  lua_setglobal(L, q->name);
  return 0;
}

static cutelua_status set_global(cutelua_state *S, const char *name,
                                 int kind, const void *data) {
  setter q;
  int lst;
  if (S == NULL || name == NULL || data == NULL)
    return S == NULL ? CUTELUA_EARG
                     : fail(S, CUTELUA_EARG, "name or value is NULL");
  if (!lua_checkstack(S->L, 4))
    return fail(S, CUTELUA_EMEM, "not enough memory (Lua stack)");
  q.name = name;
  q.kind = kind;
  q.data = data;
  lua_pushcfunction(S->L, push_and_set);
  lua_pushlightuserdata(S->L, &q);
  lst = lua_pcall(S->L, 1, 0, 0);
  return lst == LUA_OK ? CUTELUA_OK : failed_call(S, lst, CUTELUA_ERUN);
}

cutelua_status cutelua_set_integer(cutelua_state *S, const char *name,
                                   int64_t v) {
  return set_global(S, name, CUTELUA_TINTEGER, &v);
}

cutelua_status cutelua_set_number(cutelua_state *S, const char *name,
                                  double v) {
  return set_global(S, name, CUTELUA_TNUMBER, &v);
}

cutelua_status cutelua_set_string(cutelua_state *S, const char *name,
                                  const char *s) {
  return set_global(S, name, CUTELUA_TSTRING, s);
}

cutelua_status cutelua_set_tuple(cutelua_state *S, const char *name,
                                 const cute_tuple *t) {
  return set_global(S, name, CUTELUA_TTUPLE, t);
}

cutelua_status cutelua_set_layout(cutelua_state *S, const char *name,
                                  const cute_layout *l) {
  return set_global(S, name, CUTELUA_TLAYOUT, l);
}

cutelua_status cutelua_set_composed(cutelua_state *S, const char *name,
                                    const cute_composed *c) {
  return set_global(S, name, CUTELUA_TCOMPOSED, c);
}
