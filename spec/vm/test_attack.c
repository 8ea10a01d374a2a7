/*
 * test_attack.c -- the limits of a state against scripts written to break
 * them: finalizers and coroutines under the instruction budget, C work
 * charged to it (a budget bounds time), nested coroutine.close (a C-stack
 * overflow in Lua 5.4.4), the memory limit met inside the stdlib, and the
 * classes of cute.core kept from scripts.  A regression hangs or crashes
 * instead of failing: ctest stops this test at its TIMEOUT.
 */
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "vmtest.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A __gc runs with hooks off: in a budgeted state no script finalizer may
 * exist, by any road (setmetatable, a metatable given __gc later, cute's
 * classes, io's file handles). */
static void test_finalizers(void) {
  const char *loop = "function() while true do end end";
  const char *no_gc = "has no __gc metamethods";
  char code[512];
  cutelua_state *S = open_with(0, 100000, 0);
  snprintf(code, sizeof code, "setmetatable({}, {__gc = %s})", loop);
  run_fails(S, code, CUTELUA_ERUN, no_gc);
  run_fails(S, "setmetatable({}, {__gc = true})", CUTELUA_ERUN, no_gc);
  snprintf(code, sizeof code, "local mt = {} setmetatable({}, mt)\n"
                              "mt.__gc = %s collectgarbage()", loop);
  run_ok(S, code);  /* set later: Lua never calls it */
  snprintf(code, sizeof code, "local c = require 'cute'\n"
                              "getmetatable(c.layout '4:1').__gc = %s", loop);
  run_fails(S, code, CUTELUA_ERUN, "cute.Layout's metatable is read-only");
  run_ok(S, "local ok = pcall(setmetatable, {}, {__gc = print})\n"
            "assert(not ok) collectgarbage() collectgarbage()");
  cutelua_close(S);  /* returns: nothing left to finalize */
  S = open_with((size_t)8 << 20, 100000, 1);
  run_ok(S, "assert(getmetatable(io.stdout) == 'FILE*')");
  snprintf(code, sizeof code, "setmetatable({}, {__gc = %s})", loop);
  run_fails(S, code, CUTELUA_ERUN, no_gc);
  cutelua_close(S);
}

/* Coroutines inherit the budget's hook: loops in them, in nested ones, in
 * __close handlers and in wrap generators all stop. */
static void test_coroutines(void) {
  const char *ex = "instruction budget exhausted";
  cutelua_state *S = open_with(0, 100000, 0);
  run_fails(S, "local co = coroutine.wrap(function()\n"
               "  coroutine.wrap(function() while true do end end)() end)\n"
               "co()", CUTELUA_EBUDGET, ex);
  run_fails(S, "local co = coroutine.create(function() while true do\n"
               "  coroutine.yield() end end)\n"
               "while true do coroutine.resume(co) end", CUTELUA_EBUDGET, ex);
  run_fails(S, "local co = coroutine.create(function()\n"
               "  local x <close> = setmetatable({}, {__close = function()\n"
               "    while true do end end})\n"
               "  coroutine.yield() end)\n"
               "coroutine.resume(co) coroutine.close(co) while true do end",
            CUTELUA_EBUDGET, ex);
  run_fails(S, "while true do pcall(coroutine.wrap(function()\n"
               "  while true do end end)) end", CUTELUA_EBUDGET, ex);
  run_ok(S, "return 1");
  cutelua_close(S);
}

/* "budget N" bounds time: cute.core's walk in C (a swizzled cosize visits
 * up to 2^24 elements in about 4 VM instructions) is charged per element.
 * Before, a budget of 1000 ran 11 s here and 10000 ran 350 s. */
static void test_c_work_charged(void) {
  static const uint64_t budgets[] = {1000, 10000, 1000000, 20000000};
  const char *walk = "local c = require 'cute'\n"
                     "local S = c.composition(c.swizzle(3, 4, 3),\n"
                     "                        c.layout '(16777216):(1)')\n"
                     "while true do c.cosize(S) end";
  size_t i;
  for (i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
    cutelua_state *S = open_with(0, budgets[i], 0);
    double t0 = now(), secs;
    run_fails(S, walk, CUTELUA_EBUDGET, "budget");
    secs = now() - t0;
    CHECK(secs < 2, "budget %llu ran %.2f s", (unsigned long long)budgets[i],
          secs);
    cutelua_close(S);
  }
  {  /* a walk that fits is allowed, and charged */
    cutelua_state *S = open_with(0, 1000000, 0);
    run_ok(S, "local c = require 'cute'\n"
              "return c.cosize(c.composition(c.swizzle(3, 4, 3),\n"
              "                              c.layout '(65536):(1)'))");
    run_fails(S, "local c = require 'cute'\n"
                 "local S = c.composition(c.swizzle(3, 4, 3),\n"
                 "                        c.layout '(65536):(1)')\n"
                 "for i = 1, 16 do c.cosize(S) end",
              CUTELUA_EBUDGET, "cosize would touch 65536 elements");
    cutelua_close(S);
  }
  {  /* codegen computes the same cosize (its constant): charged alike
      * (cute.cuda needs io) */
    cutelua_state *S = open_with(0, 1000000, 1);
    run_fails(S, "local c = require 'cute'\n"
                 "local S = c.layout 'Sw<3,4,3> o 0 o (65536):(1)'\n"
                 "for i = 1, 16 do c.cuda.codegen('L', S) end",
              CUTELUA_EBUDGET, "codegen would touch 65536 elements");
    cutelua_close(S);
  }
}

/* Debian's Lua 5.4.4 recurses in C without limit when __close handlers
 * close other coroutines: a segfault (lua5.4 itself crashes on this chain
 * from about 14000 links, with an 8 MiB stack).  coroutine.close refuses
 * past CUTELUA_MAX_CSTACK of C stack; the script can catch it. */
static void test_nested_close(void) {
  const char *chain =
      "local co = false\n"
      "for i = 1, 20000 do\n"
      "  local prev = co\n"
      "  co = coroutine.create(function()\n"
      "    local x <close> = setmetatable({}, {__close = function()\n"
      "      if prev then assert(coroutine.close(prev)) end end})\n"
      "    coroutine.yield() end)\n"
      "  coroutine.resume(co)\n"
      "end\n"
      "local ok, err = coroutine.close(co)\n"
      "assert(not ok) error(err, 0)";
  static const size_t mems[] = {0, (size_t)48 << 20};
  size_t i;
  for (i = 0; i < sizeof mems / sizeof mems[0]; i++) {
    cutelua_state *S = open_with(mems[i], 0, 0);
    run_fails(S, chain, CUTELUA_ERUN, "coroutine.close: nested too deeply");
    run_ok(S, "local co = coroutine.create(function() coroutine.yield() end)\n"
              "coroutine.resume(co) assert(coroutine.close(co))");
    cutelua_close(S);
  }
}

/* A memory limit hit anywhere -- in a stdlib function that names its call
 * in errors (it catches and re-raises), in C, in Lua -- is CUTELUA_EMEM.
 * Before, 35 of 201 limits between 70 and 80 KB said CUTELUA_ERUN. */
static void test_memory_in_stdlib(void) {
  const char *work = "local c = require 'cute'\n"
                     "local A = c.logical_divide(c.layout {8, 8}, {2, 4})\n"
                     "c.format_layout(c.blocked_product(A, c.layout {2, 2}))\n"
                     "return c.zipped_divide(A, {2, 2})";
  size_t mem;
  int ok = 0, emem = 0;
  for (mem = 40000; mem <= 400000; mem += 1000) {
    cutelua_state *S = open_with(mem, 0, 0);
    cutelua_status st;
    if (S == NULL)
      continue;
    st = cutelua_run_string(S, work, "=w");
    CHECK(st == CUTELUA_OK || st == CUTELUA_EMEM, "limit %zu: status %d: %s",
          mem, (int)st, cutelua_last_error(S));
    ok += st == CUTELUA_OK;
    emem += st == CUTELUA_EMEM;
    cutelua_close(S);
  }
  CHECK(ok > 0 && emem > 0, "the sweep meets both outcomes (%d ok, %d emem)",
        ok, emem);
}

/* cute.core's classes are read-only to scripts: a run that tries to change
 * them fails and the next run finds every layout as it was. */
static void test_classes_protected(void) {
  static const char *const attacks[] = {
      "getmetatable(c.layout '4:1').__index = {}",
      "getmetatable(c.layout '4:1').__mul = nil",
      "getmetatable(c.layout '4:1').__index.shape = nil",
      "getmetatable(c.swizzle(1, 2, 3)).__call = nil",
      "getmetatable(c.layout 'Sw<1,2,3> o 0 o 8:1').__tostring = nil",
      "require('cute.core').metatables.Layout.__gc = print",
      "setmetatable(c.layout '4:1', {})",
      "rawset(getmetatable(c.layout '4:1'), '__index', {})",
  };
  const char *use = "local c = require 'cute'\n"
                    "local A = c.layout '(4,8):(1,4)'\n"
                    "assert(A * c.layout '8:4' == c.composition(A, c.layout '8:4'))\n"
                    "assert(A:shape()[2] == 8 and A(1, 1) == 5)\n"
                    "assert(getmetatable(A).__name == 'cute.Layout')";
  cutelua_state *S = open_with(0, 1000000, 0);
  size_t i;
  char code[256];
  for (i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
    snprintf(code, sizeof code, "local c = require 'cute'\n%s", attacks[i]);
    CHECK(cutelua_run_string(S, code, "=attack") == CUTELUA_ERUN,
          "attack %s succeeded", attacks[i]);
    run_ok(S, use);
  }
  cutelua_close(S);
}

/* A run stopped by the budget inside a stdlib call made of steps
 * (cute/error.lua's within) leaves the state as it was: the next run's
 * misuse is a string naming the call.  Before, within's count stayed
 * raised and every later argument error of the state was a table (found
 * by test_api_monkey). */
static void test_budget_inside_within(void) {
  cutelua_state *S = open_with(0, 1000000, 0);
  run_fails(S, "local spin = setmetatable({}, {__index = function()\n"
               "  while true do end end})\n"
               "require('cute.smem').synthesize(spin)", CUTELUA_EBUDGET, "budget");
  run_ok(S, "local c = require 'cute'\n"
            "local ok, e = pcall(c.make_tensor({1}, c.layout '1:1').size, 7)\n"
            "assert(not ok and type(e) == 'string', tostring(e))\n"
            "assert(e:find(\"to 'size'\", 1, true), e)");
  cutelua_close(S);
}

int main(void) {
  test_finalizers();
  test_coroutines();
  test_c_work_charged();
  test_nested_close();
  test_memory_in_stdlib();
  test_classes_protected();
  test_budget_inside_within();
  return test_finish();
}
