/*
 * lua_core.c -- the loader of `cute.core`: one table holding the functions
 * of every part (tuples, layouts, algebra, swizzles), and the metatables
 * registered under their CUTELUA_* names so other C modules share them.
 *
 * The Lua-facing module is `cute` (stdlib/cute/init.lua), which builds
 * tilers, divides, products and printing on top of this table.
 */
#include "lua_internal.h"

#include <string.h>

/* ---------------------------------------------------- read-only views -- */
/* A script must not change what every layout of the state does (set __gc
 * or __index, replace a method): it would break all later runs in the
 * state.  So a class's metatable answers getmetatable with a view: an
 * object that reads through to it (its __index table as a view of its own) and
 * refuses writes.  C code reaches the metatable itself. */
static int view_read(lua_State *L)
{
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 1;  /* a view */
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  return 1;
}

static int view_write(lua_State *L)
{
  return luaL_error(L, "%s is read-only (cute.core's classes cannot be "
                       "changed by scripts)",
                    lua_tostring(L, lua_upvalueindex(1)));
}

/* Pushes a view of the table at idx; `views` (an index, or 0) maps keys of
 * it to views of their tables.  A view is a userdata, which rawset cannot
 * write either. */
static void push_view(lua_State *L, int idx, int views, const char *what)
{
  idx = lua_absindex(L, idx);
  views = views ? lua_absindex(L, views) : 0;
  lua_newuserdatauv(L, 0, 0);
  lua_createtable(L, 0, 3);
  lua_pushvalue(L, idx);
  if (views) lua_pushvalue(L, views);
  else lua_newtable(L);
  lua_pushcclosure(L, view_read, 2);
  lua_setfield(L, -2, "__index");
  lua_pushstring(L, what);
  lua_pushcclosure(L, view_write, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
}

/* tostring(cute._) is "_", as CuTe prints its Underscore.  Light userdata
 * have no metatable each: one for the type serves them all, so any other
 * prints as Lua prints it ("userdata: 0x..."); it is set only where the
 * host has set none, and scripts see it through a view, as the classes. */
static int lightuserdata_tostring(lua_State *L)
{
  if (cutelua_isunderscore(L, 1)) lua_pushliteral(L, "_");
  else lua_pushfstring(L, "userdata: %p", lua_touserdata(L, 1));
  return 1;
}

static void set_underscore_tostring(lua_State *L)
{
  lua_pushlightuserdata(L, NULL);
  if (lua_getmetatable(L, -1)) {
    lua_pop(L, 2);
    return;
  }
  lua_createtable(L, 0, 2);                  /* p, mt */
  lua_pushcfunction(L, lightuserdata_tostring);
  lua_setfield(L, -2, "__tostring");
  push_view(L, -1, 0, "the light userdata metatable");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_pop(L, 1);
}

/* ------------------------------------------------------ class tests -- */
/* The classes numbered by enum cutelua_class (lua_internal.h), in order. */
static const char *const class_names[] = {CUTELUA_LAYOUT, CUTELUA_SWIZZLE,
                                          CUTELUA_COMPOSED, CUTELUA_BASIS,
                                          CUTELUA_TUPLE, CUTELUA_LINEAR};
#define NCLASSES (int)(sizeof class_names / sizeof class_names[0])

/* Marks the metatable on top as class `name`'s: it holds itself, a light
 * userdata, at the class's number.  Scripts cannot make that value (only C
 * makes light userdata) nor write the metatable, so the mark is proof; it
 * is read by an integer key, where luaL_testudata looks the metatable up
 * by its name (string cache, strcmp, string lookup) -- a quarter of the
 * Lua-side cost of a small call.  Other copies of the bindings read the
 * same mark. */
static void mark_class(lua_State *L, const char *name)
{
  int i;
  for (i = 0; i < NCLASSES; i++) {
    if (strcmp(name, class_names[i]) == 0) {
      lua_pushlightuserdata(L, (void *)lua_topointer(L, -1));
      lua_rawseti(L, -2, i + 1);
    }
  }
}

void *cutelua_testclass(lua_State *L, int idx, int cls)
{
  void *p = lua_touserdata(L, idx);
  int marked;
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  lua_rawgeti(L, -1, cls);
  marked = lua_touserdata(L, -1) == lua_topointer(L, -2);
  lua_pop(L, 2);
  return marked ? p : NULL;
}

void *cutelua_checkclass(lua_State *L, int idx, int cls)
{
  void *p = cutelua_testclass(L, idx, cls);
  if (p == NULL && cls == CUTELUA_CLASS_LAYOUT &&
      cutelua_testclass(L, idx, CUTELUA_CLASS_COMPOSED))
    cutelua_badarg(L, idx, "cute.Layout expected, got cute.ComposedLayout: "
                   "the operation reads the layout's strides, which the "
                   "swizzle does not preserve (C:layout() is the layout)");
  if (p == NULL) cutelua_typeerror(L, idx, class_names[cls - 1]);
  return p;
}

void cutelua_setclass(lua_State *L, int cls)
{
  luaL_setmetatable(L, class_names[cls - 1]);
}

void cutelua_newclass(lua_State *L, const char *name, const luaL_Reg *meta,
                      const luaL_Reg *methods)
{
  if (!luaL_newmetatable(L, name)) {  /* already made by another loader */
    lua_pop(L, 1);
    return;
  }
  luaL_setfuncs(L, meta, 0);               /* mt                    */
  mark_class(L, name);
  lua_newtable(L);                         /* mt, views (key -> view) */
  if (methods) {
    lua_pushfstring(L, "%s's method table", name);
    lua_newtable(L);                       /* mt, views, what, methods */
    luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -5, "__index");
    push_view(L, -1, 0, lua_tostring(L, -2));
    lua_setfield(L, -4, "__index");        /* views.__index = its view */
    lua_pop(L, 2);
  }
  lua_pushfstring(L, "%s's metatable", name);
  push_view(L, -3, -2, lua_tostring(L, -1));
  lua_setfield(L, -4, "__metatable");
  lua_pop(L, 3);
}

/* An argument error in a __call: Lua cannot name a function called
 * through a metamethod ("bad argument #2 to '?'") and counts the callee
 * as argument 1; this names the callee by its text and counts from 1. */
int cutelua_callerror(lua_State *L, int arg, const char *msg)
{
  const char *what = luaL_testudata(L, 1, CUTELUA_SWIZZLE) ? "swizzle"
                                                           : "layout";
  return luaL_error(L, "%s(%s): bad argument #%d (%s)", what,
                    luaL_tolstring(L, 1, NULL), arg - 1, msg);
}

/* ---------------------------------------------------- argument errors -- */
/* Lua names a function whose argument is bad by its call site: 'size' for
 * cute.size(x).  Called from C -- pcall(cute.size, x) -- it has no name
 * there, and luaL_argerror searches package.loaded, in the order of the
 * state's hash seed: the same call said 'cute.size' in one run and
 * 'cute.core.size' in the next.  Here that search is fixed: the function's
 * key in `cute`, the table users call through, else in `cute.core`.
 * Pushes the name and returns 1, or returns 0 with the stack as it was. */
static int push_cute_name(lua_State *L, lua_Debug *ar)
{
  static const char *const modules[] = {"cute", "cute.core"};
  int i, top = lua_gettop(L);
  lua_getinfo(L, "f", ar);                              /* f            */
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);  /* f, loaded    */
  for (i = 0; i < 2; i++) {
    if (lua_getfield(L, top + 2, modules[i]) == LUA_TTABLE) {
      lua_pushnil(L);                                   /* ..., m, key  */
      while (lua_next(L, top + 3)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_rawequal(L, -1, top + 1)) {
          lua_pushfstring(L, "%s.%s", modules[i], lua_tostring(L, -2));
          lua_replace(L, top + 1);
          lua_settop(L, top + 1);
          return 1;
        }
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  return 0;
}

/* The operation a metamethod stands for, by the name Lua gives the event
 * ("concat", "sub"), which the user never wrote: the CuTe operation
 * (A .. B is make_layout(A, B)), or CuTe's operator for the stride
 * arithmetic of cute.E (E(0) - x: operator-).  (A * B of layouts names
 * composition itself, lua_algebra.c; A(...) names A, cutelua_callerror;
 * == never raises.)  NULL for another event. */
static const char *event_operation(const char *event)
{
  static const char *const ops[][2] = {
      {"concat", "make_layout"}, {"mul", "operator*"}, {"add", "operator+"},
      {"sub", "operator-"}, {"unm", "operator-"}};
  size_t i;
  for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(event, ops[i][0]) == 0) return ops[i][1];
  return NULL;
}

/* The operation of the running function ar (level 0) when it runs as a
 * metamethod -- called so by Lua, or by a metamethod of C that Lua called
 * (the string library's arithmetic: "x" * cute.E(0)) -- else NULL. */
static const char *metamethod_operation(lua_State *L, lua_Debug *ar)
{
  lua_Debug up;
  if (ar->namewhat[0] == '\0' && lua_getstack(L, 1, &up) &&
      lua_getinfo(L, "nS", &up) && strcmp(up.what, "C") == 0)
    ar = &up;
  if (strcmp(ar->namewhat, "metamethod") != 0 || ar->name == NULL) return NULL;
  return event_operation(ar->name);
}

int cutelua_badarg(lua_State *L, int arg, const char *msg)
{
  lua_Debug ar;
  const char *op;
  if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "n", &ar))
    return luaL_argerror(L, arg, msg);
  if ((op = metamethod_operation(L, &ar)) != NULL ||
      (ar.name == NULL && push_cute_name(L, &ar) &&
       (op = lua_tostring(L, -1)) != NULL))
    return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, op, msg);
  return luaL_argerror(L, arg, msg);
}

int cutelua_typeerror(lua_State *L, int arg, const char *tname)
{
  return cutelua_badarg(L, arg, cutelua_typemsg(L, arg, tname));
}

void cutelua_checkany(lua_State *L, int arg)
{
  if (lua_type(L, arg) == LUA_TNONE) cutelua_badarg(L, arg, "value expected");
}

void cutelua_checktable(lua_State *L, int arg)
{
  if (!lua_istable(L, arg)) cutelua_typeerror(L, arg, "table");
}

void *cutelua_checkudata(lua_State *L, int arg, const char *tname)
{
  void *p = luaL_testudata(L, arg, tname);
  if (p == NULL) cutelua_typeerror(L, arg, tname);
  return p;
}

/* ----------------------------------------------------------- C work -- */
void cutelua_charge(lua_State *L, double n, const char *what)
{
  if (lua_getfield(L, LUA_REGISTRYINDEX, CUTELUA_CHARGE) != LUA_TFUNCTION) {
    lua_pop(L, 1);
    return;
  }
  lua_pushnumber(L, n);
  lua_pushstring(L, what);
  lua_call(L, 2, 0);
}

/* core.metatables = {Layout = view, Swizzle = view, ...}: what getmetatable
 * returns for each class (read-only views), for type tests in the stdlib. */
static void push_metatables(lua_State *L)
{
  int i;
  lua_createtable(L, 0, NCLASSES);
  for (i = 0; i < NCLASSES; i++) {
    luaL_getmetatable(L, class_names[i]);
    lua_getfield(L, -1, "__metatable");
    lua_setfield(L, -3, class_names[i] + 5);  /* past "cute." */
    lua_pop(L, 1);
  }
  lua_setfield(L, -2, "metatables");
}

/* core.mark_tuple(t) -> t with the metatable of the tuples cute.core
 * returns (print(t) gives CuTe text), for tuples the stdlib builds: that
 * metatable is read-only to scripts, so setmetatable cannot give it. */
static int mark_tuple(lua_State *L)
{
  cutelua_checktable(L, 1);
  cutelua_argcheck(L, !lua_getmetatable(L, 1), 1, "a table without metatable "
                  "expected");
  lua_settop(L, 1);
  luaL_setmetatable(L, CUTELUA_TUPLE);
  return 1;
}

/* core.limits = {leaves = 32, ...}: the constants of cute.h, for reading
 * (cute.limits lists them beside the stdlib's own limits). */
static void push_limits(lua_State *L)
{
  static const struct { const char *name; lua_Integer v; } limits[] = {
    {"leaves", CUTE_MAX_LEAVES}, {"tokens", CUTE_MAX_TOKENS},
    {"depth", CUTE_MAX_DEPTH}, {"basis_depth", CUTE_MAX_BASIS_DEPTH},
    {"basis_index", CUTE_MAX_BASIS_INDEX}, {"tiler", CUTE_MAX_TILER},
    {"text", CUTE_MAX_TEXT}, {"walk", CUTE_MAX_WALK},
    {"linear_dims", CUTE_LINEAR_MAX_DIMS},
    {"linear_bits", CUTE_LINEAR_MAX_BITS},
    {"linear_name", CUTE_LINEAR_NAME - 1}};
  size_t i;
  lua_createtable(L, 0, sizeof limits / sizeof limits[0]);
  for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    lua_pushinteger(L, limits[i].v);
    lua_setfield(L, -2, limits[i].name);
  }
  lua_setfield(L, -2, "limits");
}

void cutelua_pushdtypenames(lua_State *L, int below)
{
  luaL_Buffer b;
  cute_dtype t;
  const char *s;
  int i, n = 0;
  luaL_buffinit(L, &b);
  for (i = 0; (s = cute_dtype_spelling(i, &t)) != NULL; i++) {
    if ((int)t >= below) continue;
    if (n++ > 0) luaL_addchar(&b, ' ');
    luaL_addstring(&b, s);
  }
  luaL_pushresult(&b);
}

void cutelua_pushdtypes(lua_State *L, int below,
                        void (*fields)(lua_State *L, cute_dtype t))
{
  cute_dtype t;
  const char *s;
  int i;
  lua_createtable(L, 0, CUTE_DTYPE_COUNT + CUTE_DTYPE_ALIASES);
  for (i = 0; (s = cute_dtype_spelling(i, &t)) != NULL; i++) {
    if ((int)t >= below) continue;
    if (lua_getfield(L, -1, cute_dtype_name(t)) == LUA_TNIL) {
      lua_pop(L, 1);
      lua_newtable(L);
      fields(L, t);
    }
    lua_setfield(L, -2, s);
  }
}

static void dtype_fields(lua_State *L, cute_dtype t)
{
  lua_pushstring(L, cute_dtype_name(t));
  lua_setfield(L, -2, "name");
  lua_pushinteger(L, cute_dtype_bits(t));
  lua_setfield(L, -2, "bits");
  lua_pushboolean(L, cute_dtype_is_float(t));
  lua_setfield(L, -2, "float");
}

/* core.dtypes = {i32 = {name = "i32", bits = 32, float = false}, s32 = the
 * same table, ...}: the algebra's element types under every spelling, and
 * core.dtype_names, the spellings in one line for messages. */
static void push_dtypes(lua_State *L)
{
  cutelua_pushdtypes(L, CUTE_DTYPE_COUNT, dtype_fields);
  lua_setfield(L, -2, "dtypes");
  cutelua_pushdtypenames(L, CUTE_DTYPE_COUNT);
  lua_setfield(L, -2, "dtype_names");
}

/* Is the frame ar a Lua function of the stdlib: a chunk whose source
 * starts with dir (n bytes), the directory of cute/error.lua? */
static int in_stdlib(const lua_Debug *ar, const char *dir, size_t n)
{
  return ar->what[0] != 'C' && strncmp(ar->source, dir, n) == 0;
}

/* The functions of cute.core, as keys of a registry table: a frame of one
 * of them that called into the stdlib (a composed layout's __layout_b, a
 * tensor's __tile) is a step of the call the user made, not its caller. */
static const char core_functions_key = 0;

static void keep_functions(lua_State *L)
{
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, -3)) {
    if (lua_iscfunction(L, -1)) {
      lua_pushboolean(L, 1);
      lua_rawset(L, -4);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &core_functions_key);
}

/* Is the C frame ar a function of cute.core? */
static int is_core_function(lua_State *L, lua_Debug *ar)
{
  int is;
  lua_getinfo(L, "f", ar);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &core_functions_key);
  lua_insert(L, -2);
  is = lua_rawget(L, -2) == LUA_TBOOLEAN;
  lua_pop(L, 2);
  return is;
}

/* core.raise(msg), called by cute/error.lua only: raises msg at the line
 * that called into the stdlib, wherever in it the error was found, so no
 * stdlib function counts levels or re-raises.  The chunks sharing
 * error.lua's directory ("@stdlib/cute/", "@/usr/share/lua/5.4/cute/")
 * are the stdlib; the walk goes up past their frames and past C
 * functions they called (pcall, table.sort).  The first other frame is the
 * caller: a Lua line puts "file:line: " before msg; a C caller (the user's
 * pcall(cute.f, ...)) puts nothing, as luaL_error does.  Needs no debug
 * library: a sandboxed state gets the same positions. */
static int core_raise(lua_State *L)
{
  lua_Debug ar, up;
  const char *dir;
  size_t n;
  int level = 2;
  if (!lua_isstring(L, 1)) cutelua_typeerror(L, 1, "string");
  lua_settop(L, 1);
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "S", &ar))
    return lua_error(L);
  dir = ar.source;
  n = strrchr(dir, '/') ? (size_t)(strrchr(dir, '/') - dir) + 1 : 0;
  for (;; level++) {
    if (!lua_getstack(L, level, &ar)) return lua_error(L);
    lua_getinfo(L, "Sl", &ar);
    if (in_stdlib(&ar, dir, n)) continue;
    if (ar.what[0] == 'C' && lua_getstack(L, level + 1, &up) &&
        lua_getinfo(L, "S", &up) && in_stdlib(&up, dir, n))
      continue;
    if (ar.what[0] == 'C' && is_core_function(L, &ar)) continue;
    break;
  }
  if (ar.currentline > 0) {
    lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
    lua_insert(L, 1);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

/* core.within(f, ...) -> pcall(f, ...), counting the calls in progress
 * (core.within_depth()), for cute/error.lua's within: inside one, misuse
 * is raised as a table for within to prefix.  The count is kept in C
 * because a run stopped by the instruction budget re-raises at every Lua
 * instruction after the pcall: a count kept in Lua was never lowered, and
 * every later run of the state raised tables for errors (found by
 * spec/vm/test_api_monkey.c). */
static int within_finish(lua_State *L, int status, lua_KContext extra)
{
  int *depth = lua_touserdata(L, lua_upvalueindex(1));
  (*depth)--;
  if (status != LUA_OK && status != LUA_YIELD) {
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

static int within(lua_State *L)
{
  int *depth = lua_touserdata(L, lua_upvalueindex(1));
  cutelua_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  (*depth)++;
  return within_finish(L, lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0,
                                     0, within_finish), 0);
}

static int within_depth(lua_State *L)
{
  lua_pushinteger(L, *(int *)lua_touserdata(L, lua_upvalueindex(1)));
  return 1;
}

/* core.within and core.within_depth, sharing their count. */
static void push_within(lua_State *L)
{
  *(int *)lua_newuserdatauv(L, sizeof(int), 0) = 0;
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, within, 1);
  lua_setfield(L, -3, "within");
  lua_pushcclosure(L, within_depth, 1);
  lua_setfield(L, -2, "within_depth");
}

int luaopen_cute_core(lua_State *L)
{
  luaL_checkversion(L);
  lua_newtable(L);
  cutelua_open_tuple(L);
  cutelua_open_layout(L);
  cutelua_open_swizzle(L);
  cutelua_open_algebra(L);
  cutelua_open_tuple_arith(L);
  cutelua_open_tiler(L);
  cutelua_open_linear(L);
  set_underscore_tostring(L);
  push_metatables(L);
  push_limits(L);
  push_dtypes(L);
  lua_pushcfunction(L, mark_tuple);
  lua_setfield(L, -2, "mark_tuple");
  lua_pushcfunction(L, core_raise);
  lua_setfield(L, -2, "raise");
  push_within(L);
  keep_functions(L);
  return 1;
}
