/*
 * guard.c -- the instruction budget inside library calls.  The count hook
 * sees Lua VM instructions only: a C function runs to its end unseen.  Most
 * do work about linear in the memory they touch, which the memory limit
 * bounds; these do not, and a budgeted state wraps them:
 *
 *   string.find, match, gmatch, gsub  backtracking can take time
 *       exponential in the pattern's quantifiers: ("a"):rep(40):find(
 *       ".-.-.-.-.-.-.-.-.-.-b") is ~10^10 steps.  A call is refused, as a
 *       spent budget (CUTELUA_EBUDGET, "pattern too complex for the
 *       instruction budget"), when its worst case exceeds the instructions
 *       left; calls that fit are not charged (see pattern_cost).
 *   string.rep  rep("", n) loops n times making nothing: answered directly.
 *   table.insert, remove, move, concat, sort  loop over a range that a
 *       __len or the arguments choose freely (table.move({}, 1, 1 << 40, 2)
 *       touches no memory): charged one instruction per element (sort:
 *       n log2 n) before they run; past the budget the run stops.  Where
 *       __len is a Lua function it runs twice (here and in the library).
 *
 *   setmetatable  refuses a metatable with a __gc field: Lua runs
 *       finalizers with hooks off, so a loop in one would run past the
 *       budget, and lua_close would never return.
 *
 * The `cute` module needs no wrapper: it meters itself.  A cute.core call
 * does work bounded by the constants of cute.h, whatever its operands,
 * except a swizzled cosize's walk of up to CUTE_MAX_WALK elements, which
 * it announces through registry[CUTELUA_CHARGE] (cute_lua.h) before it
 * starts: `charge` below takes one instruction per element.  The stdlib's
 * walks over a layout's elements are Lua loops, which the count hook sees,
 * capped besides by cute.limits for states without a budget.  cute.cuda,
 * whose C work grows with its data (buffer fills, compares, downloads:
 * linear in a device buffer; check_copy: at most CUTE_CUDA_MAX_CHECK
 * elements), is closed in a sandbox, and a host that opens io trusts its
 * scripts; it may charge its work the same way.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cute_lua.h"
#include "cutelua_internal.h"

#define FAR 1e30  /* costs saturate here, beyond any budget */

/* Calls the wrapped library function (upvalue 1) with the arguments. */
static int call_library(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

/* ------------------------------------------------------ pattern items -- */
/* One item of a Lua pattern, as lstrlib reads them. */
typedef enum { ITEM_END, ITEM_ONE, ITEM_SCAN, ITEM_CAPTURE, ITEM_EOS } kind;

typedef struct item {
  kind k;             /* ONE: single-char class; SCAN: %bxy or %1..%9 */
  char quant;         /* '*', '+', '-', '?' after a ONE, else 0       */
  const char *cls;    /* where the item starts: a ONE's class (".",   */
                      /* "%a", "[^%s]", "x"), a SCAN's "%b()", "%1"   */
  const char *cls_end;
} item;

/* End of the set at p ('['), or NULL when malformed (lstrlib raises). */
static const char *set_end(const char *p, const char *end) {
  p++;
  if (p < end && *p == '^')
    p++;
  do {
    if (p >= end)
      return NULL;
    if (*p++ == '%' && p < end)
      p++;
  } while (p == end || *p != ']');
  return p + 1;
}

/* Reads the item at p into *it; returns where the next one starts.  A
 * malformed rest reads as ITEM_END: the library raises its error. */
static const char *next_item(const char *p, const char *end, item *it) {
  const char *ep = p + 1;
  it->k = ITEM_END;
  it->quant = 0;
  it->cls = p;
  if (p >= end)
    return end;
  switch (*p) {
  case '(':
    it->k = ITEM_CAPTURE;
    return ep < end && *ep == ')' ? ep + 1 : ep;
  case ')':
    it->k = ITEM_CAPTURE;
    return ep;
  case '$':
    if (ep == end) {
      it->k = ITEM_EOS;
      return end;
    }
    break;
  case '%':
    if (ep == end)
      return end;
    if (*ep == 'b' && end - ep >= 3) {
      it->k = ITEM_SCAN;
      return ep + 3;
    }
    if (*ep == 'f') {
      ep = ep + 1 < end && ep[1] == '[' ? set_end(ep + 1, end) : NULL;
      it->k = ep != NULL ? ITEM_ONE : ITEM_END;  /* a frontier: one test */
      return ep != NULL ? ep : end;
    }
    if (*ep == 'b')
      return end;  /* "missing arguments to '%b'" */
    if (isdigit((unsigned char)*ep)) {
      it->k = ITEM_SCAN;
      return ep + 1;
    }
    ep++;
    break;
  case '[':
    if ((ep = set_end(p, end)) == NULL)
      return end;
    break;
  }
  it->k = ITEM_ONE;
  it->cls_end = ep;
  if (ep < end && (*ep == '*' || *ep == '+' || *ep == '-' || *ep == '?'))
    it->quant = *ep++;
  return ep;
}

/* ---------------------------------------------------- classes, runs -- */
static int class_has(int c, int cl) {
  int r;
  switch (tolower(cl)) {
  case 'a': r = isalpha(c); break;
  case 'c': r = iscntrl(c); break;
  case 'd': r = isdigit(c); break;
  case 'g': r = isgraph(c); break;
  case 'l': r = islower(c); break;
  case 'p': r = ispunct(c); break;
  case 's': r = isspace(c); break;
  case 'u': r = isupper(c); break;
  case 'w': r = isalnum(c); break;
  case 'x': r = isxdigit(c); break;
  default: return cl == c;
  }
  return islower(cl) ? r != 0 : r == 0;
}

/* Does [set] (p at '[', ec at its ']') contain c? */
static int set_has(int c, const char *p, const char *ec) {
  int in = 1;
  if (p[1] == '^') {
    in = 0;
    p++;
  }
  while (++p < ec) {
    if (*p == '%') {
      if (class_has(c, (unsigned char)*++p))
        return in;
    } else if (p[1] == '-' && p + 2 < ec) {
      if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2])
        return in;
      p += 2;
    } else if ((unsigned char)*p == c) {
      return in;
    }
  }
  return !in;
}

static int item_has(const item *it, int c) {
  switch (*it->cls) {
  case '.': return 1;
  case '%': return class_has(c, (unsigned char)it->cls[1]);
  case '[': return set_has(c, it->cls, it->cls_end - 1);
  default: return (unsigned char)*it->cls == c;
  }
}

/* Longest run of s[0, n) in the item's class: how far its quantifier can
 * reach from any start. */
static double longest_run(const item *it, const char *s, size_t n) {
  size_t i, run = 0, best = 0;
  if (*it->cls == '.')
    return (double)n;
  for (i = 0; i < n; i++) {
    run = item_has(it, (unsigned char)s[i]) ? run + 1 : 0;
    best = run > best ? run : best;
  }
  return (double)best;
}

/* ------------------------------------------------------ pattern cost -- */
static double sat(double x) { return x < FAR ? x : FAR; }

typedef struct shape {
  long nitem, nquant, nscan;
  long last_fail;  /* last item that can fail on its own (0: none)   */
  long last_dots;  /* last ".*" or ".-" (can reach the end; 0: none) */
  int eos;         /* the pattern ends in the '$' anchor             */
} shape;

/* An item matches whatever follows unless it is a capture or takes a
 * '*', '-' or '?'. */
static void read_shape(const char *p, const char *end, shape *sh) {
  item it;
  sh->nitem = sh->nquant = sh->nscan = sh->last_fail = sh->last_dots = 0;
  sh->eos = 0;
  while ((p = next_item(p, end, &it)), it.k != ITEM_END) {
    sh->nitem++;
    if (it.k == ITEM_EOS)
      sh->eos = 1;
    else if (it.k == ITEM_SCAN || (it.k == ITEM_ONE && it.quant == 0) ||
             it.quant == '+')
      sh->last_fail = sh->nitem;
    if (it.k == ITEM_SCAN)
      sh->nscan++;
    if (it.quant != 0)
      sh->nquant++;
    if ((it.quant == '*' || it.quant == '-') && *it.cls == '.')
      sh->last_dots = sh->nitem;
  }
}

/* Can a %bxy (or back-reference) item at cls scan far in s[0, n)?  A %b
 * whose x never occurs fails at its first byte. */
static int scan_reaches(const char *cls, const char *s, size_t n) {
  return s == NULL || cls[1] != 'b' || memchr(s, cls[2], n) != NULL;
}

/*
 * Worst-case matcher steps of a call that tries `starts` starts in a
 * subject of n bytes s (NULL: any bytes; else a quantifier reaches at most
 * its class's longest run in s, and a %b whose opening byte is absent
 * fails at once).  Items are walked left to right: one start costs
 * sum_i (prod_{j<i} b_j) a_i + prod_j b_j, where item i costs a_i per visit
 * and tries the rest with b_i choices.  A quantifier makes one choice when
 * the rest cannot fail (its first try succeeds): no fixed item, '+', %b or
 * %1 after it, and no '$' at the end unless a ".*" or ".-" after it can
 * reach it.  When no quantifier makes more than one choice, a start never
 * backtracks, and the greedy scans of all starts together cover the
 * subject about once (a start that reaches one succeeds, and the next
 * start is past its match).
 */
static double call_cost(const char *p, const char *end, const shape *sh,
                        const char *s, double n, double starts) {
  double sum = 0, fixed = 0, prod = 1, a, b, run;
  long i = 0;
  int linear = 1;
  item it;
  while ((p = next_item(p, end, &it)), it.k != ITEM_END) {
    int rest_fails = ++i < sh->last_fail || (sh->eos && sh->last_dots <= i);
    a = b = 1;
    if (it.k == ITEM_SCAN && scan_reaches(it.cls, s, (size_t)n)) {
      a = n;
    } else if (it.quant != 0) {
      run = s != NULL ? longest_run(&it, s, (size_t)n) : n;
      if (it.quant != '?')
        a = run + 1;
      if (rest_fails)
        b = it.quant == '?' ? 2 : run + 1;
      linear = linear && !rest_fails;
    }
    fixed += it.quant != 0 ? 1 : a;
    sum = sat(sum + prod * a);
    prod = sat(prod * b);
  }
  if (linear)
    return sat(starts * (fixed + 1) + 2 * n);
  return sat(starts * sat(sum + prod));
}

/* Steps of one find/match/gsub/gmatch call: subject s[0, n), pattern
 * p[0, lp), `anchored` when the call tries one start.  The bound for any
 * subject of n bytes decides when it fits in `left`; else the bound for
 * this subject (a pass over s per quantifier, itself kept within `left`). */
static double pattern_cost(const char *s, size_t n, const char *p, size_t lp,
                           int anchored, double left) {
  const char *end = p + lp;
  double starts = anchored ? 1 : (double)n + 1, cost;
  shape sh;
  read_shape(p, end, &sh);
  cost = call_cost(p, end, &sh, NULL, (double)n, starts);
  if (cost <= left || (double)(sh.nquant + sh.nscan) * (double)n > left)
    return cost;
  return call_cost(p, end, &sh, s, (double)n, starts);
}

/* --------------------------------------------------- string wrappers -- */
/* Lua's posrelatI: a 1-based start position in [1, inf). */
static size_t start_index(lua_Integer pos, size_t len) {
  if (pos > 0)
    return (size_t)pos;
  if (pos == 0 || pos < -(lua_Integer)len)
    return 1;
  return len + (size_t)pos + 1;
}

/* The wrapper of `name`: init_arg is the argument holding the start
 * position (0: none), anchors tells that a leading '^' anchors, plain_arg
 * the argument that makes find plain (0: none). */
static int guard_pattern(lua_State *L, const char *name, int init_arg,
                         int anchors, int plain_arg) {
  size_t ls, lp, from = 1;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  double cost, left = cutelua_budget_left(L);
  if (init_arg != 0)
    from = start_index(luaL_optinteger(L, init_arg, 1), ls);
  if (from > ls + 1)
    return call_library(L);  /* starts past the end: nothing to match */
  s += from - 1;
  ls -= from - 1;
  if (plain_arg != 0 && lua_toboolean(L, plain_arg))
    cost = sat(((double)ls + 1) * ((double)lp + 1));
  else if (anchors && lp > 0 && *p == '^')
    cost = pattern_cost(s, ls, p + 1, lp - 1, 1, left);
  else
    cost = pattern_cost(s, ls, p, lp, 0, left);
  if (cost > left) {
    char steps[32];
    snprintf(steps, sizeof steps, cost < 1e15 ? "%.0f" : "%.3g", cost);
    return cutelua_budget_stop(L, "pattern too complex for the instruction "
                                  "budget: string.%s could take %s steps, "
                                  "%I instructions are left", name, steps,
                               (lua_Integer)left);
  }
  return call_library(L);
}

static int guard_find(lua_State *L) {
  return guard_pattern(L, "find", 3, 1, 4);
}

static int guard_match(lua_State *L) {
  return guard_pattern(L, "match", 3, 1, 0);
}

static int guard_gmatch(lua_State *L) {
  return guard_pattern(L, "gmatch", 3, 0, 0);
}

static int guard_gsub(lua_State *L) {
  int t = lua_type(L, 3);  /* checked here to be named (see length_of) */
  luaL_argexpected(L, t == LUA_TNUMBER || t == LUA_TSTRING ||
                   t == LUA_TFUNCTION || t == LUA_TTABLE, 3,
                   "string/function/table");
  return guard_pattern(L, "gsub", 0, 1, 0);
}

static int guard_rep(lua_State *L) {
  size_t l, lsep;
  luaL_checklstring(L, 1, &l);
  luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  if (l + lsep == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  return call_library(L);
}

/* ---------------------------------------------------- table wrappers -- */
/* #t as the table library reads it (honouring __len).  A value that is
 * no table and has no __len is refused here, with the library's message:
 * raised inside the wrapped function, an argument error could not name
 * it ("bad argument #1 to '?'"). */
static lua_Integer length_of(lua_State *L) {
  if (lua_type(L, 1) != LUA_TTABLE) {
    if (luaL_getmetafield(L, 1, "__len") == LUA_TNIL)
      luaL_checktype(L, 1, LUA_TTABLE);
    lua_pop(L, 1);
  }
  return luaL_len(L, 1);
}

/* Elements from i to j: 0 when j < i, in floating point (no overflow). */
static double span(lua_Integer i, lua_Integer j) {
  return j < i ? 0 : (double)j - (double)i + 1;
}

static int guard_insert(lua_State *L) {
  lua_Integer n = length_of(L);
  if (lua_gettop(L) == 3)
    cutelua_budget_take(L, span(luaL_checkinteger(L, 2), n), "table.insert");
  return call_library(L);
}

static int guard_remove(lua_State *L) {
  lua_Integer n = length_of(L);
  cutelua_budget_take(L, span(luaL_optinteger(L, 2, n), n), "table.remove");
  return call_library(L);
}

static int guard_move(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
  cutelua_budget_take(L, span(f, e), "table.move");
  return call_library(L);
}

static int guard_concat(lua_State *L) {
  lua_Integer i = luaL_optinteger(L, 3, 1);
  lua_Integer j = lua_isnoneornil(L, 4) ? length_of(L)
                                        : luaL_checkinteger(L, 4);
  cutelua_budget_take(L, span(i, j), "table.concat");
  return call_library(L);
}

static int guard_sort(lua_State *L) {
  double n = (double)length_of(L);
  cutelua_budget_take(L, n > 1 ? n * log2(n) : 0, "table.sort");
  return call_library(L);
}

/* ------------------------------------------------------- finalizers -- */
/* Lua runs a __gc metamethod with hooks off: a loop in one would escape
 * the budget (and lua_close, which runs them all, would never return).  A
 * table gets a finalizer only when setmetatable sees a __gc field, so
 * refusing such a metatable there leaves no Lua finalizer to run; one
 * added to the metatable later is never called (Lua's rule).  Userdata
 * come from C: cute's classes are read-only to scripts (bindings/
 * lua_core.c), io's file handles are protected below. */
static int guard_setmetatable(lua_State *L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL)
      return luaL_error(L, "setmetatable: a state with an instruction "
                           "budget has no __gc metamethods (a finalizer "
                           "runs outside the budget)");
    lua_pop(L, 1);
  }
  return call_library(L);
}

/* io's file handles share one metatable whose __gc (fclose) runs on every
 * handle: a script that replaced it would run Lua in finalizers. */
static void protect_files(lua_State *L) {
  if (luaL_getmetatable(L, LUA_FILEHANDLE) == LUA_TTABLE) {
    lua_pushliteral(L, LUA_FILEHANDLE);
    lua_setfield(L, -2, "__metatable");
  }
  lua_pop(L, 1);
}

/* ------------------------------------------------------------ C work -- */
/* registry[CUTELUA_CHARGE] (cute_lua.h): cute.core's work in C, in steps
 * of about one VM instruction's time, taken from the budget. */
static int charge(lua_State *L) {
  cutelua_budget_take(L, luaL_checknumber(L, 1), luaL_checkstring(L, 2));
  return 0;
}

/* ------------------------------------------------------------ install -- */
static void wrap(lua_State *L, const char *lib, const luaL_Reg *fns) {
  lua_getglobal(L, lib);
  for (; fns->name != NULL; fns++) {
    lua_getfield(L, -1, fns->name);
    lua_pushcclosure(L, fns->func, 1);
    lua_setfield(L, -2, fns->name);
  }
  lua_pop(L, 1);
}

void cutelua_guard(lua_State *L) {
  static const luaL_Reg string_fns[] = {
    {"find", guard_find}, {"match", guard_match}, {"gmatch", guard_gmatch},
    {"gsub", guard_gsub}, {"rep", guard_rep}, {NULL, NULL}};
  static const luaL_Reg table_fns[] = {
    {"insert", guard_insert}, {"remove", guard_remove},
    {"move", guard_move}, {"concat", guard_concat}, {"sort", guard_sort},
    {NULL, NULL}};
  wrap(L, LUA_STRLIBNAME, string_fns);
  wrap(L, LUA_TABLIBNAME, table_fns);
  lua_getglobal(L, "setmetatable");
  lua_pushcclosure(L, guard_setmetatable, 1);
  lua_setglobal(L, "setmetatable");
  protect_files(L);
  lua_pushcfunction(L, charge);
  lua_setfield(L, LUA_REGISTRYINDEX, CUTELUA_CHARGE);
}
