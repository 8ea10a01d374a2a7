/*
 * test_sandbox.c -- what a script can reach in a state opened without io
 * (vm/sandbox.c): no bytecode, no file system through package, no CUDA
 * bridge; and what the instruction budget bounds inside library calls
 * (vm/guard.c).  A regression of the guards hangs instead of failing: ctest
 * stops this test at its TIMEOUT.
 */
#include <stdio.h>
#include <string.h>

#include "vmtest.h"

/* A state with 64 MiB of memory, the budget and io as given. */
static cutelua_state *open_sandbox(uint64_t budget, int io) {
  return open_with((size_t)64 << 20, budget, io);
}

static void test_no_bytecode(void) {
  cutelua_state *S = open_sandbox(0, 0);
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
  run_fails(S, "load({})", CUTELUA_ERUN,
            "bad argument #1 to 'load' (function expected, got table)");
  run_fails(S, "load('x', {})", CUTELUA_ERUN, "bad argument #2 to 'load'");
  cutelua_close(S);
  S = open_sandbox(0, 1);  /* io open: the host trusts the script */
  run_ok(S, "local d = string.dump(function() return 9 end)\n"
            "assert(load(d)() == 9)");
  cutelua_close(S);
}

static void test_no_files_through_package(void) {
  cutelua_state *S = open_sandbox(0, 0);
  run_ok(S, "assert(package.searchpath == nil and package.loadlib == nil)");
  run_ok(S, "assert(package.path == '' and package.cpath == '')");
  run_ok(S, "assert(#package.searchers == 1)");
  run_ok(S, "assert(require('cute').layout {2, 2})");
  cutelua_close(S);
  S = open_sandbox(0, 1);
  run_ok(S, "assert(package.searchpath and package.path ~= '')");
  cutelua_close(S);
}

static void test_no_cuda(void) {
  cutelua_state *S = open_sandbox(0, 0);
  const char *off = "cute.cuda is disabled in a state opened without io";
  run_fails(S, "require 'cute.cuda'", CUTELUA_ERUN, off);
  run_fails(S, "require 'cute.cuda.core'", CUTELUA_ERUN, off);
  run_fails(S, "return require('cute').cuda", CUTELUA_ERUN, off);
  run_fails(S, "return require('cute.gemm').plan(nil)", CUTELUA_ERUN, off);
  run_ok(S, "assert(require('cute').layout {4, 8})");
  cutelua_close(S);
  S = open_sandbox(0, 1);
  if (cutelua_run_string(S, "require 'cute.cuda.core'", NULL) != CUTELUA_OK)
    HAS(cutelua_last_error(S), "not available in this build");
  else
    run_ok(S, "assert(require('cute.cuda').available)");
  cutelua_close(S);
}

static void test_pattern_budget(void) {
  cutelua_state *S = open_sandbox(1000000, 0);
  const char *cx = "pattern too complex for the instruction budget";
  /* backtracking 10 lazy items over 40 bytes: ~1e10 steps in one call */
  run_fails(S, "local s = string.rep('a', 40)\n"
               "return s:find('.-.-.-.-.-.-.-.-.-.-b')", CUTELUA_EBUDGET, cx);
  run_fails(S, "return ('a'):rep(40):match('(.-)(.-)(.-)(.-)(.-)x')",
            CUTELUA_EBUDGET, cx);
  run_fails(S, "return ('a'):rep(40):gsub('a*a*a*a*a*b', '')",
            CUTELUA_EBUDGET, cx);
  run_fails(S, "for x in ('a'):rep(40):gmatch('a?a?a?a?a?a?a?a?a?a?a?a?a?"
               "a?a?a?a?a?a?a?a?b') do end", CUTELUA_EBUDGET, cx);
  /* one lazy item, quadratic: 3e5 bytes take ~5e10 steps */
  run_fails(S, "return ('a'):rep(300000):find('.-b')", CUTELUA_EBUDGET, cx);
  run_fails(S, "local ok = pcall(string.find, ('a'):rep(40),"
               " '.-.-.-.-.-.-.-.-.-.-b') return ok", CUTELUA_EBUDGET, cx);
  /* linear uses of long subjects stay allowed */
  run_ok(S, "local s = ('ab,'):rep(20000)\n"
            "local n = 0 for w in s:gmatch('[^,]+') do n = n + 1 end\n"
            "assert(n == 20000)\n"
            "assert(select(2, s:gsub(',', ';')) == 20000)\n"
            "assert(s:find('b,a', 1, true) == 2 and s:find('%a,') == 2)\n"
            "assert(s:find('^(a)') == 1 and s:match('%w+$') == nil)\n"
            "assert(s:match('%s*(.-)%s*$', 59990) == 'b,ab,ab,ab,')");
  run_ok(S, "assert(('  x  '):match('^%s*(.-)%s*$') == 'x')\n"
            "assert(('key=val'):match('(%w+)=(%w+)') == 'key')\n"
            "assert(('f(a(b)c)'):find('%b()') == 2)\n"
            "assert(('abc'):find('b', 10) == nil)\n"
            "assert(('THE (quick) fox'):match('%f[%l]%a+') == 'quick')");
  run_fails(S, "return ('x'):find('[a')", CUTELUA_ERUN, "malformed pattern");
  run_ok(S, "return 1");  /* the budget is refilled after a stop */
  cutelua_close(S);
  S = open_sandbox(0, 0);    /* no budget: no guard */
  run_ok(S, "assert(('a'):rep(40):find('.-.-.-a') == 1)");
  cutelua_close(S);
}

static void test_table_budget(void) {
  cutelua_state *S = open_sandbox(1000000, 0);
  const char *ex = "instruction budget exhausted";
  run_ok(S, "assert(string.rep('', 1 << 40) == '')");
  run_ok(S, "assert(string.rep('', 1 << 40, '') == '')");
  run_ok(S, "assert(('ab'):rep(3, ',') == 'ab,ab,ab')");
  run_fails(S, "table.move({}, 1, 1 << 40, 2)", CUTELUA_EBUDGET, ex);
  run_fails(S, "local t = setmetatable({}, {__len = function()\n"
               "  return 1 << 40 end}) table.insert(t, 1, 'x')",
            CUTELUA_EBUDGET, ex);
  run_fails(S, "local t = setmetatable({}, {__len = function()\n"
               "  return 1 << 40 end}) table.remove(t, 1)",
            CUTELUA_EBUDGET, ex);
  /* rawlen as __index: every element is 0, no VM instruction per read */
  run_fails(S, "local t = setmetatable({}, {__len = function()\n"
               "  return (1 << 31) - 2 end, __index = rawlen}) table.sort(t)",
            CUTELUA_EBUDGET, ex);
  run_fails(S, "local t = setmetatable({}, {__index = tostring})\n"
               "return table.concat(t, '', 1, 1 << 40)", CUTELUA_EBUDGET, ex);
  /* shifting a long array is charged per element: 300 calls x 10^4 */
  run_fails(S, "local t = {} for i = 1, 10000 do t[i] = i end\n"
               "for i = 1, 300 do table.insert(t, 1, i) end",
            CUTELUA_EBUDGET, ex);
  run_ok(S, "local t = {3, 1, 2} table.sort(t) table.insert(t, 1, 0)\n"
            "table.insert(t, 4) assert(table.remove(t, 1) == 0)\n"
            "assert(table.concat(t, ',') == '1,2,3,4')\n"
            "assert(table.concat(table.move(t, 1, 2, 3, {}), ',', 3, 4)"
            " == '1,2')");
  /* argument errors still name the function */
  run_fails(S, "table.insert(5, 1)", CUTELUA_ERUN,
            "bad argument #1 to 'insert' (table expected, got number)");
  run_fails(S, "table.sort('x')", CUTELUA_ERUN, "bad argument #1 to 'sort'");
  run_fails(S, "return ('x'):gsub('x', true)", CUTELUA_ERUN,
            "bad argument #2 to 'gsub' (string/function/table expected");
  cutelua_close(S);
}

int main(void) {
  test_no_bytecode();
  test_no_files_through_package();
  test_no_cuda();
  test_pattern_budget();
  test_table_budget();
  return test_finish();
}
