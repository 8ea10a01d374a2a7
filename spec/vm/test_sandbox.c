/*
 * test_sandbox.c -- what a script can reach in a state opened without io
 * (vm/sandbox.c): no bytecode, no file system through package, no CUDA
 * bridge; and what the instruction budget bounds inside library calls
 * (vm/guard.c).  A regression of the guards hangs instead of failing: ctest
 * stops this test at its TIMEOUT.
 */
#include <stdio.h>
#include <string.h>

#include "cutelua.h"
#include "testlib.h"

#define HAS(haystack, needle) \
  CHECK(strstr((haystack), (needle)) != NULL, "[%s] lacks [%s]", (haystack), \
        (needle))

static cutelua_state *open_with(uint64_t budget, int io) {
  cutelua_options opt;
  cutelua_options_init(&opt);
  opt.instruction_limit = budget;
  opt.memory_limit = (size_t)64 << 20;
  opt.open_io = opt.open_os = io;
  return cutelua_open(&opt);
}

/* Runs `code`, which must succeed. */
static void run_ok(cutelua_state *S, const char *code) {
  cutelua_status st = cutelua_run_string(S, code, "=t");
  CHECK(st == CUTELUA_OK, "%s: %s", code, cutelua_last_error(S));
}

/* Runs `code`, which must fail with status `st` and `msg` in its message. */
static void run_fails(cutelua_state *S, const char *code, cutelua_status st,
                      const char *msg) {
  cutelua_status got = cutelua_run_string(S, code, "=t");
  CHECK(got == st, "%s: status %d, want %d (%s)", code, (int)got, (int)st,
        cutelua_last_error(S));
  HAS(cutelua_last_error(S), msg);
}

static void test_no_bytecode(void) {
  cutelua_state *S = open_with(0, 0);
  run_ok(S, "assert(string.dump == nil and ('').dump == nil)");
  /* the header of a Lua 5.4 binary chunk, as string.dump writes it */
  run_ok(S, "local f, err = load('\\27Lua\\x54\\0\\x19\\x93\\r\\n\\x1a\\n')\n"
            "assert(f == nil and err:find(\"binary chunk (mode is 't')\", 1,"
            " true), err)");
  run_ok(S, "local f, err = load('\\27Lua', 'x', 'b')\n"
            "assert(f == nil and err:find(\"mode is 't'\", 1, true), err)");
  run_ok(S, "assert(load('return 1 + 1')() == 2)");
  run_ok(S, "assert(load('return x', 'c', 't', {x = 5})() == 5)");
  run_ok(S, "assert(load('return x', 'c', nil, {x = 6})() == 6)");
  run_ok(S, "x = 7 assert(load('return x', 'c')() == 7)");
  run_ok(S, "local parts = {'return ', '8'}\n"
            "assert(load(function() return table.remove(parts, 1) end)()"
            " == 8)");
  run_fails(S, "local f, err = load('x = = 1', '=chunk') error(err)",
            CUTELUA_ERUN, "chunk:1:");
  cutelua_close(S);
  S = open_with(0, 1);  /* io open: the host trusts the script */
  run_ok(S, "local d = string.dump(function() return 9 end)\n"
            "assert(load(d)() == 9)");
  cutelua_close(S);
}

static void test_no_files_through_package(void) {
  cutelua_state *S = open_with(0, 0);
  run_ok(S, "assert(package.searchpath == nil and package.loadlib == nil)");
  run_ok(S, "assert(package.path == '' and package.cpath == '')");
  run_ok(S, "assert(#package.searchers == 1)");
  run_ok(S, "assert(require('cute').layout {2, 2})");
  cutelua_close(S);
  S = open_with(0, 1);
  run_ok(S, "assert(package.searchpath and package.path ~= '')");
  cutelua_close(S);
}

static void test_no_cuda(void) {
  cutelua_state *S = open_with(0, 0);
  const char *off = "cute.cuda is disabled in a state opened without io";
  run_fails(S, "require 'cute.cuda'", CUTELUA_ERUN, off);
  run_fails(S, "require 'cute.cuda.core'", CUTELUA_ERUN, off);
  run_fails(S, "return require('cute').cuda", CUTELUA_ERUN, off);
  run_fails(S, "return require('cute.gemm').plan(nil)", CUTELUA_ERUN, off);
  run_ok(S, "assert(require('cute').layout {4, 8})");
  cutelua_close(S);
  S = open_with(0, 1);
  if (cutelua_run_string(S, "require 'cute.cuda.core'", NULL) != CUTELUA_OK)
    HAS(cutelua_last_error(S), "not available in this build");
  else
    run_ok(S, "assert(require('cute.cuda').available)");
  cutelua_close(S);
}

int main(void) {
  test_no_bytecode();
  test_no_files_through_package();
  test_no_cuda();
  return test_finish();
}
