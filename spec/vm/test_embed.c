/*
 * test_embed.c -- the embedding API (vm/cutelua.h) through libcutelua.so:
 * running code, statuses and messages, layouts and every other value read
 * back into C, values set from C, the memory limit, the instruction
 * budget, and closed io/os.
 */
#define _POSIX_C_SOURCE 200809L  /* mkstemp, fdopen */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmtest.h"

static void test_run_and_errors(void) {
  cutelua_state *S = cutelua_open(NULL);
  CHECK(S != NULL, "open with defaults");
  CHECK(strcmp(cutelua_last_error(S), "") == 0, "no error yet");
  CHECK(cutelua_run_string(S, "return 6 * 7, 'x'", NULL) == CUTELUA_OK, "run");
  CHECK(cutelua_nresults(S) == 2, "two results, got %d", cutelua_nresults(S));

  CHECK(cutelua_run_string(S, "x = = 1", "=syn") == CUTELUA_ESYNTAX, "syntax");
  HAS(cutelua_last_error(S), "syn:1:");
  CHECK(cutelua_nresults(S) == 0, "a failed run has no results");

  CHECK(cutelua_run_string(S, "local function f() error('boom') end f()",
                           "=rt") == CUTELUA_ERUN, "runtime error");
  HAS(cutelua_last_error(S), "rt:1: boom");
  HAS(cutelua_last_error(S), "stack traceback:");

  CHECK(cutelua_run_string(S, "error(setmetatable({}, {__tostring = "
                              "function() return 'custom' end}))", NULL)
            == CUTELUA_ERUN, "error object with __tostring");
  HAS(cutelua_last_error(S), "custom");

  CHECK(cutelua_run_string(S, "return require('cute').layout '(4,8'", NULL)
            == CUTELUA_ERUN, "algebra error");
  HAS(cutelua_last_error(S), "(4,8");

  CHECK(cutelua_run_file(S, "/nonexistent/x.lua") == CUTELUA_EFILE, "file");
  HAS(cutelua_last_error(S), "/nonexistent/x.lua");

  CHECK(cutelua_run_string(S, "assert(cute == nil)", NULL) == CUTELUA_OK,
        "fine after errors; cute is preloaded, not a global");
  CHECK(cutelua_run_string(S, NULL, NULL) == CUTELUA_EARG, "NULL code");
  cutelua_close(S);
  cutelua_close(NULL);
}

static void test_run_file(void) {
  char path[] = "/tmp/cutelua_embed_XXXXXX";
  cutelua_state *S = cutelua_open(NULL);
  cutelua_layout L;
  FILE *f = fdopen(mkstemp(path), "w");
  fputs("local cute = require 'cute'\nreturn cute.layout {2, 3}\n", f);
  fclose(f);
  CHECK(cutelua_run_file(S, path) == CUTELUA_OK, "run_file: %s",
        cutelua_last_error(S));
  CHECK(cutelua_result_layout(S, 1, &L) == CUTELUA_OK, "file result");
  CHECK(strcmp(L.text, "(2,3):(1,2)") == 0, "file result text %s", L.text);
  remove(path);
  cutelua_close(S);
}

static void test_layout_readback(void) {
  cutelua_state *S = cutelua_open(NULL);
  cutelua_layout L;
  CHECK(cutelua_run_string(S, "local cute = require 'cute'\n"
                              "A = cute.layout '(4,(2,2)):(1,(4,8))'\n"
                              "n = 3\n"
                              "return cute.layout {4, 8}, 'text', A",
                           NULL) == CUTELUA_OK, "%s", cutelua_last_error(S));
  CHECK(cutelua_global_layout(S, "A", &L) == CUTELUA_OK, "global A");
  CHECK(strcmp(L.text, "(4,(2,2)):(1,(4,8))") == 0, "text %s", L.text);
  CHECK(strcmp(L.profile, "(_,(_,_))") == 0, "profile %s", L.profile);
  CHECK(L.rank == 2 && L.depth == 2 && L.nleaf == 3, "rank %d depth %d "
        "leaves %d", L.rank, L.depth, L.nleaf);
  CHECK(L.shape[0] == 4 && L.shape[1] == 2 && L.shape[2] == 2, "shape");
  CHECK(L.stride[0] == 1 && L.stride[1] == 4 && L.stride[2] == 8, "stride");
  CHECK(L.basis[0] == 0 && L.basis[2] == 0, "integral strides");
  CHECK(cute_layout_equal(&L.layout, &L.layout), "algebra value usable");

  CHECK(cutelua_result_layout(S, 1, &L) == CUTELUA_OK, "result 1");
  CHECK(strcmp(L.text, "(4,8):(1,4)") == 0, "result 1 text %s", L.text);
  CHECK(strcmp(L.profile, "(_,_)") == 0, "profile %s", L.profile);
  CHECK(cutelua_result_layout(S, 3, &L) == CUTELUA_OK, "result 3");
  CHECK(L.shape[0] == 4, "result 3 is A");

  CHECK(cutelua_result_layout(S, 2, &L) == CUTELUA_ETYPE, "string result");
  HAS(cutelua_last_error(S), "result 2 is a string value, not a layout");
  CHECK(cutelua_result_layout(S, 4, &L) == CUTELUA_EARG, "no result 4");
  HAS(cutelua_last_error(S), "no result 4");
  CHECK(cutelua_global_layout(S, "n", &L) == CUTELUA_ETYPE, "number");
  HAS(cutelua_last_error(S), "global 'n' is a number value");
  CHECK(cutelua_global_layout(S, "missing", &L) == CUTELUA_ETYPE, "nil");
  CHECK(cutelua_result_layout(S, 1, &L) == CUTELUA_OK, "results kept");

  CHECK(cutelua_run_string(S, "return require('cute').layout '8:2', "
                              "require('cute').make_identity_layout {4, 8}",
                           NULL) == CUTELUA_OK, "%s", cutelua_last_error(S));
  CHECK(cutelua_result_layout(S, 1, &L) == CUTELUA_OK, "8:2");
  CHECK(strcmp(L.profile, "_") == 0 && L.rank == 1 && L.depth == 0,
        "integral layout: profile %s rank %d depth %d", L.profile, L.rank,
        L.depth);
  CHECK(cutelua_result_layout(S, 2, &L) == CUTELUA_OK, "identity");
  CHECK(strcmp(L.text, "(4,8):(1@0,1@1)") == 0, "identity text %s", L.text);
  CHECK(L.stride[1] == 1 && L.basis[1] == CUTE_BASIS1(1), "basis stride");
  cutelua_close(S);
}

static void test_memory_limit(void) {
  cutelua_state *S = open_with((size_t)2 << 20, 0, 0);
  CHECK(S != NULL, "open with 2 MiB");
  CHECK(cutelua_run_string(S, "local t = {} for i = 1, 1e8 do t[i] = i end",
                           NULL) == CUTELUA_EMEM, "table growth stops");
  HAS(cutelua_last_error(S), "not enough memory");
  CHECK(cutelua_run_string(S, "return ('x'):rep(1 << 30)", NULL)
            == CUTELUA_EMEM, "big string stops");
  CHECK(cutelua_run_string(S, "local ok = pcall(string.rep, 'x', 1 << 30) "
                              "return ok", NULL) == CUTELUA_OK,
        "pcall sees the memory error");
  CHECK(cutelua_run_string(S, "return 1 + 1", NULL) == CUTELUA_OK,
        "usable after hitting the limit");
  CHECK(cutelua_run_string(S, "local c = require 'cute' "
                              "return c.layout {4, 8}", NULL) == CUTELUA_OK,
        "cute loads within 2 MiB: %s", cutelua_last_error(S));
  cutelua_close(S);
  CHECK(open_with(1000, 0, 0) == NULL, "too small a limit: NULL, no crash");
}

/* The state's small blocks go through free lists by size class
 * (vm/pool.c): blocks of every class and past the largest, grown and
 * shrunk across classes (tables, string buffers), keep their contents,
 * and the limit still counts what Lua holds.  valgrind (vm.valgrind) and
 * LSan check that cutelua_close returns the kept blocks. */
static void test_pool(void) {
  cutelua_state *S = open_with((size_t)8 << 20, 0, 0);
  cutelua_value v;
  CHECK(S != NULL, "open with 8 MiB");
  CHECK(cutelua_run_string(S,
          "local c, sum = require 'cute', 0 "
          "for round = 1, 3 do "
          "  local keep = {} "
          "  for n = 1, 1200, 7 do "
          "    local t = {} for i = 1, n // 8 do t[i] = i end "
          "    keep[#keep + 1] = ('x'):rep(n) .. #t "
          "    keep[#keep + 1] = c.layout {n % 13 + 1, 4} "
          "    t[#t + 1] = n sum = sum + #t + #keep[#keep - 1] "
          "  end "
          "  for i = 1, #keep, 2 do "
          "    local n = 1 + 7 * ((i - 1) // 2) "
          "    assert(keep[i] == ('x'):rep(n) .. (n // 8), i) "
          "    assert(tostring(keep[i + 1]) == "
          "           ('(%d,4):(1,%d)'):format(n % 13 + 1, n % 13 + 1)) "
          "  end "
          "  collectgarbage() "
          "end "
          "return sum", NULL) == CUTELUA_OK, "%s", cutelua_last_error(S));
  CHECK(cutelua_result(S, 1, &v) == CUTELUA_OK && v.integer == 3 * 116489,
        "sum %lld", (long long)v.integer);
  CHECK(cutelua_run_string(S, "local t = {} for i = 1, 1e8 do "
                              "t[i] = ('y'):rep(i % 1100) end", NULL)
            == CUTELUA_EMEM, "the limit still stops a pooled heap");
  CHECK(cutelua_run_string(S, "return #('z'):rep(5000)", NULL) == CUTELUA_OK,
        "usable after the limit: %s", cutelua_last_error(S));
  cutelua_close(S);
}

static void test_instruction_budget(void) {
  cutelua_state *S = open_with(0, 100000, 0);
  CHECK(cutelua_run_string(S, "while true do end", NULL) == CUTELUA_EBUDGET,
        "endless loop stops");
  HAS(cutelua_last_error(S), "instruction budget exhausted");
  CHECK(cutelua_run_string(S, "while true do pcall(function() "
                              "while true do end end) end", NULL)
            == CUTELUA_EBUDGET, "pcall cannot swallow the budget");
  CHECK(cutelua_run_string(S, "coroutine.wrap(function() "
                              "while true do end end)()", NULL)
            == CUTELUA_EBUDGET, "coroutines are counted");
  CHECK(cutelua_run_string(S, "local s = 0 for i = 1, 1000 do s = s + i end "
                              "return s", NULL) == CUTELUA_OK,
        "budget refilled for the next run: %s", cutelua_last_error(S));
  CHECK(cutelua_run_string(S, "x = = 1", NULL) == CUTELUA_ESYNTAX,
        "syntax error after a budget stop is a syntax error");
  cutelua_close(S);
}

/* Each way of hitting a limit, then a run that needs the state whole: the
 * Lua heap, the registry's `cute` and the budget's hook all survive. */
static void stop_then_usable(cutelua_state *S, const char *code,
                             cutelua_status want, const char *why) {
  cutelua_status st = cutelua_run_string(S, code, "=limit");
  CHECK(st == want, "%s: status %d, want %d (%s)", code, (int)st, (int)want,
        cutelua_last_error(S));
  HAS(cutelua_last_error(S), why);
  st = cutelua_run_string(S, "local c = require 'cute'\n"
                             "return c.logical_divide(c.layout {8, 8}, {2, 4})",
                          "=after");
  CHECK(st == CUTELUA_OK, "usable after [%s]: %s", code,
        cutelua_last_error(S));
}

static void test_limits_keep_state(void) {
  const char *mem = "not enough memory", *ex = "instruction budget exhausted";
  cutelua_state *S = open_with((size_t)4 << 20, 0, 0);
  /* the memory cap, hit by Layout userdata that a loop keeps */
  stop_then_usable(S, "local c = require 'cute' local t = {}\n"
                      "for i = 1, 1e9 do t[i] = c.layout {4, i} end",
                   CUTELUA_EMEM, mem);
  /* ... and inside one C call of cute (its result table) */
  stop_then_usable(S, "local c = require 'cute' local t = {}\n"
                      "for i = 1, 1e9 do t[i] = c.tuple '((2,2),(4,2))' end",
                   CUTELUA_EMEM, mem);
  cutelua_close(S);
  S = open_with(0, 200000, 0);
  /* the budget, hit by pure Lua, by a loop of cute operations, by a
   * stdlib walk in Lua (tv.bijection visits 2^16 elements) and by a
   * guarded library call */
  stop_then_usable(S, "local n = 0 while true do n = n + 1 end",
                   CUTELUA_EBUDGET, ex);
  stop_then_usable(S, "local c = require 'cute'\n"
                      "local A = c.layout '(4,6,8):(2,3,5)'\n"
                      "while true do c.composition(A, c.layout '6:12') end",
                   CUTELUA_EBUDGET, ex);
  stop_then_usable(S, "local c = require 'cute'\n"
                      "require('cute.tv').bijection(c.layout {256, 256}, "
                      "65536)", CUTELUA_EBUDGET, ex);
  stop_then_usable(S, "table.move({}, 1, 1 << 40, 2)", CUTELUA_EBUDGET, ex);
  /* a cute limit is an ordinary error, caught by pcall */
  stop_then_usable(S, "local c = require 'cute'\n"
                      "c.print_layout(c.layout {1000, 1000})", CUTELUA_ERUN,
                   "1000000 cells exceed the limit of 65536 cells");
  cutelua_close(S);
}

static void test_io_flags(void) {
  cutelua_state *S = open_with(0, 0, 0);
  CHECK(cutelua_run_string(S, "assert(io == nil and os == nil and "
                              "loadfile == nil and dofile == nil and "
                              "package.loadlib == nil)", NULL) == CUTELUA_OK,
        "io, os and file loaders closed: %s", cutelua_last_error(S));
  CHECK(cutelua_run_string(S, "require 'nosuchmodule'", NULL) == CUTELUA_ERUN,
        "no module from disk");
  CHECK(cutelua_run_string(S, "assert(require('cute.tiler'))", NULL)
            == CUTELUA_OK, "preloaded submodule: %s", cutelua_last_error(S));
  CHECK(cutelua_run_string(S, "assert(debug == nil)", NULL) == CUTELUA_OK,
        "no debug library");
  cutelua_close(S);
  S = open_with(0, 0, 1);
  CHECK(cutelua_run_string(S, "assert(io.write and os.time and loadfile)",
                           NULL) == CUTELUA_OK, "io and os open");
  cutelua_close(S);
}

static void test_value_readback(void) {
  cutelua_state *S = cutelua_open(NULL);
  cutelua_value v;
  CHECK(cutelua_run_string(S, "local cute = require 'cute'\n"
                              "return cute.layout 'Sw<3,4,3> o 32 o (8,64):(64,1)',"
                              " 42, 2.5, 'a\\0b', {4, {2, 2}}, true, nil,"
                              " cute.swizzle(2, 3, 3), cute.layout '(4,8):(1,4)',"
                              " print, 8.0, cute.layout '(4,8)':shape()",
                           NULL) == CUTELUA_OK, "run: %s", cutelua_last_error(S));
  CHECK(cutelua_nresults(S) == 12, "12 results, got %d", cutelua_nresults(S));
  CHECK(cutelua_result(S, 1, &v) == CUTELUA_OK, "composed");
  CHECK(v.kind == CUTELUA_TCOMPOSED && v.swizzle.b == 3 && v.swizzle.m == 4 &&
        v.swizzle.s == 3 && v.offset == 32, "swizzle and offset");
  CHECK(strcmp(v.layout.text, "(8,64):(64,1)") == 0, "inner %s", v.layout.text);
  CHECK(strcmp(v.text, "Sw<3,4,3> o 32 o (8,64):(64,1)") == 0, "text %s", v.text);
  CHECK(cutelua_result(S, 2, &v) == CUTELUA_OK && v.kind == CUTELUA_TINTEGER &&
        v.integer == 42, "integer");
  CHECK(cutelua_result(S, 3, &v) == CUTELUA_OK && v.kind == CUTELUA_TNUMBER &&
        v.number == 2.5, "number");
  CHECK(cutelua_result(S, 4, &v) == CUTELUA_OK && v.kind == CUTELUA_TSTRING &&
        v.length == 3 && memcmp(v.string, "a\0b", 3) == 0, "string with NUL");
  CHECK(cutelua_result(S, 5, &v) == CUTELUA_OK && v.kind == CUTELUA_TTUPLE &&
        strcmp(v.text, "(4,(2,2))") == 0 && v.tuple.nleaf == 3, "tuple %s",
        v.text);
  CHECK(cutelua_result(S, 6, &v) == CUTELUA_OK && v.kind == CUTELUA_TBOOLEAN &&
        v.boolean == 1, "boolean");
  CHECK(cutelua_result(S, 7, &v) == CUTELUA_OK && v.kind == CUTELUA_TNIL, "nil");
  CHECK(cutelua_result(S, 8, &v) == CUTELUA_OK && v.kind == CUTELUA_TSWIZZLE &&
        strcmp(v.text, "Sw<2,3,3>") == 0, "swizzle %s", v.text);
  CHECK(cutelua_result(S, 9, &v) == CUTELUA_OK && v.kind == CUTELUA_TLAYOUT &&
        v.layout.nleaf == 2 && v.layout.stride[1] == 4, "layout");
  CHECK(cutelua_result(S, 10, &v) == CUTELUA_OK && v.kind == CUTELUA_TOTHER &&
        strcmp(v.text, "function") == 0, "other: %s", v.text);
  CHECK(cutelua_result(S, 11, &v) == CUTELUA_OK && v.kind == CUTELUA_TINTEGER &&
        v.integer == 8, "an integral float");
  CHECK(cutelua_result(S, 12, &v) == CUTELUA_OK && v.kind == CUTELUA_TTUPLE &&
        strcmp(v.text, "(4,8)") == 0, "a shape");
  CHECK(cutelua_result(S, 13, &v) == CUTELUA_EARG, "no result 13");
  HAS(cutelua_last_error(S), "no result 13");
  CHECK(cutelua_run_string(S, "s = 'kept'", NULL) == CUTELUA_OK, "global");
  CHECK(cutelua_global(S, "s", &v) == CUTELUA_OK && v.kind == CUTELUA_TSTRING &&
        strcmp(v.string, "kept") == 0, "global string");
  CHECK(cutelua_global(S, "unset", &v) == CUTELUA_OK && v.kind == CUTELUA_TNIL,
        "unset global");
  CHECK(cutelua_global(S, "s", NULL) == CUTELUA_EARG, "NULL out");
  cutelua_close(S);
}

static void test_values_in(void) {
  cutelua_state *S = cutelua_open(NULL);
  cutelua_value v;
  cute_layout A;
  cute_tuple t;
  cute_composed C;
  cute_error err;
  CHECK(cute_layout_parse(&A, "(4,8):(1,4)", &err) == CUTE_OK, "parse");
  CHECK(cute_tuple_parse(&t, "(2,4)", &err) == CUTE_OK, "parse tuple");
  CHECK(cutelua_set_layout(S, "A", &A) == CUTELUA_OK, "set layout");
  CHECK(cutelua_set_tuple(S, "T", &t) == CUTELUA_OK, "set tuple");
  CHECK(cutelua_set_integer(S, "n", 3) == CUTELUA_OK, "set integer");
  CHECK(cutelua_set_number(S, "x", 0.5) == CUTELUA_OK, "set number");
  CHECK(cutelua_set_string(S, "s", "text") == CUTELUA_OK, "set string");
  C.sw.b = 3; C.sw.m = 4; C.sw.s = 3; C.offset = 0;
  CHECK(cute_layout_parse(&C.layout, "(8,64):(64,1)", &err) == CUTE_OK, "parse");
  CHECK(cutelua_set_composed(S, "C", &C) == CUTELUA_OK, "set composed");
  CHECK(cutelua_run_string(S, "local cute = require 'cute'\n"
                              "return tostring(cute.logical_divide(A, T)), n + x,"
                              " s, tostring(C), C(1, 8)", NULL) == CUTELUA_OK,
        "run: %s", cutelua_last_error(S));
  CHECK(cutelua_result(S, 1, &v) == CUTELUA_OK &&
        strcmp(v.string, "((2,2),(4,2)):((1,2),(4,16))") == 0, "divide %s",
        v.string);
  CHECK(cutelua_result(S, 2, &v) == CUTELUA_OK && v.number == 3.5, "n + x");
  CHECK(cutelua_result(S, 3, &v) == CUTELUA_OK && strcmp(v.string, "text") == 0,
        "string");
  CHECK(cutelua_result(S, 4, &v) == CUTELUA_OK &&
        strcmp(v.string, "Sw<3,4,3> o 0 o (8,64):(64,1)") == 0, "composed %s",
        v.string);
  CHECK(cutelua_result(S, 5, &v) == CUTELUA_OK && v.integer == 72, "C(1, 8)");
  CHECK(cutelua_set_layout(S, NULL, &A) == CUTELUA_EARG, "NULL name");
  cutelua_close(S);
}

int main(void) {
  test_run_and_errors();
  test_run_file();
  test_layout_readback();
  test_value_readback();
  test_values_in();
  test_memory_limit();
  test_pool();
  test_instruction_budget();
  test_limits_keep_state();
  test_io_flags();
  return test_finish();
}
