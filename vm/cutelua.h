/*
 * cutelua.h -- embed cutelua (Lua 5.4 with the `cute` layout module) in a C
 * or C++ program.
 *
 * A host opens a state with limits, runs Lua text that builds layouts with
 * `require "cute"`, and reads layouts back as plain C data:
 *
 *     #include <cutelua.h>
 *     #include <stdio.h>
 *
 *     int main(void) {
 *       cutelua_options opt;
 *       cutelua_layout A;
 *       cutelua_state *S;
 *       cutelua_options_init(&opt);
 *       opt.memory_limit = 8 << 20;            // 8 MiB of Lua heap
 *       opt.instruction_limit = 10000000;      // per run call
 *       S = cutelua_open(&opt);
 *       if (S == NULL) return 1;
 *       if (cutelua_run_string(S, "local cute = require 'cute'\n"
 *                                 "A = cute.layout '(4,8):(1,4)'", NULL) ||
 *           cutelua_global_layout(S, "A", &A)) {
 *         fprintf(stderr, "%s\n", cutelua_last_error(S));
 *         cutelua_close(S);
 *         return 1;
 *       }
 *       printf("%s has %d modes, shape[1] = %lld\n", A.text, A.rank,
 *              (long long)A.shape[1]);         // (4,8):(1,4) has 2 modes, 8
 *       cutelua_close(S);
 *       return 0;
 *     }
 *
 * Build it with `cc host.c $(pkg-config --cflags --libs cutelua)`, or in
 * CMake with `find_package(cutelua)` and `target_link_libraries(host
 * cutelua::cutelua)`.  examples/host/ is this example, grown up.
 *
 * Rules of the API:
 *   - no global state: everything hangs off an opaque cutelua_state, and
 *     states are independent (one thread at a time per state);
 *   - every fallible function returns a cutelua_status; the message (with a
 *     Lua traceback for run-time errors) is cutelua_last_error(S);
 *   - a state stays usable after any error, including hitting its memory
 *     limit or its instruction budget.
 * The library carries the `cute` standard library inside; libcutelua.a
 * carries Lua 5.4 too, libcutelua.so uses the system's liblua5.4.so.
 */
#ifndef CUTELUA_H
#define CUTELUA_H

#include <stddef.h>
#include <stdint.h>

#include "cute.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUTELUA_VERSION "0.1.0"

typedef enum cutelua_status {
  CUTELUA_OK = 0,
  CUTELUA_ESYNTAX,   /* the Lua text does not compile                      */
  CUTELUA_ERUN,      /* the script raised an error (cute algebra errors too) */
  CUTELUA_EMEM,      /* the memory limit was hit (or malloc failed), also   */
                     /* where a pcall on the way re-raised Lua's message  */
  CUTELUA_EBUDGET,   /* the instruction budget of the run call ran out      */
  CUTELUA_EFILE,     /* cutelua_run_file could not read the file            */
  CUTELUA_ETYPE,     /* the value asked for is not a layout                 */
  CUTELUA_EARG       /* bad argument (no such result, NULL pointer)         */
} cutelua_status;

/* ------------------------------------------------------------- a state -- */
typedef struct cutelua_state cutelua_state;

typedef struct cutelua_options {
  /* Bytes the Lua heap may hold; 0 = unlimited.  An allocation past it
   * fails, so the script gets Lua's "not enough memory" error and the run
   * call returns CUTELUA_EMEM; the next run starts with a full collection.
   * The standard libraries and `cute` need a few hundred KiB.  Freed small
   * blocks are kept for reuse, up to 64 of each 16-byte size class up to
   * 1088 bytes (not counted: ~70 KB for a usual script, ~2 MB at most),
   * until cutelua_close. */
  size_t memory_limit;
  /* Lua VM instructions one run call may execute; 0 = unlimited.  Past it
   * the script stops with "instruction budget exhausted" (CUTELUA_EBUDGET);
   * pcall inside the script cannot swallow it.  Counted in steps of 1000.
   *
   * What it bounds: time.  The count hook sees the instructions of the
   * script and of everything it calls in Lua (the stdlib, metamethods,
   * coroutines -- each inherits the hook).  Work done in C is bounded one
   * of three ways, so that no call runs long for few instructions:
   *   - cute.core: every call does work bounded by the constants of cute.h
   *     (leaves, tokens, text), except cosize of a swizzled layout, which
   *     walks up to 2^24 elements: it is charged one instruction per
   *     element before it starts (bindings/cute_lua.h: CUTELUA_CHARGE, the
   *     one place where C work meets the budget), so a budget too small for
   *     it stops the run ("cosize would touch N elements"); cute.cuda's
   *     codegen of a swizzled layout computes it too and is charged alike.
   *     Not bounded: NVRTC compiling a kernel (cute.cuda.kernel, with io
   *     open), whose time grows with the source the script writes;
   *   - string.find, match, gmatch, gsub: backtracking may take time
   *     exponential in the pattern (('a'):rep(40):find(('.-'):rep(10)
   *     .. 'b') is ~10^10 steps).  Each call's worst case is bounded from
   *     the pattern, the subject's length and its longest runs of each
   *     quantified class; a call whose bound exceeds the instructions left
   *     stops the run before it starts (CUTELUA_EBUDGET, "pattern too
   *     complex for the instruction budget").  The bound is conservative:
   *     a several-quantifier pattern on a long subject may be refused
   *     where it would have matched at once.  Calls that fit are not
   *     charged, so a loop of such calls is bounded per call only;
   *   - string.rep("", n): answered without looping n times;
   *     table.insert, remove, move, concat, sort: ranges chosen by the
   *     arguments or a __len need no memory (table.move({}, 1, 1 << 40,
   *     2)): charged one instruction per element (sort: n log2 n).
   * Lua runs __gc finalizers with hooks off, so a budgeted state has
   * none: setmetatable refuses a metatable with a __gc field ("a state
   * with an instruction budget has no __gc metamethods"), cute's classes
   * are read-only to scripts, and io's file handles hide their metatable.
   * Left proportional to the data: the rest of the C library (a
   * concatenation `..` copies its operands, string.rep copies), linear in
   * memory that memory_limit bounds.  A host that needs a hard limit on
   * wall-clock time (a machine under load) runs scripts in a separate
   * process that it can kill. */
  uint64_t instruction_limit;
  /* Nonzero opens the io library and file access from scripts (loadfile,
   * dofile, Lua and C modules found on package.path / package.cpath): the
   * host trusts the script.  Zero makes the state a sandbox: io, loadfile,
   * dofile, package.loadlib and package.searchpath are nil, package.path
   * and cpath are "", and require still finds `cute` and everything
   * preloaded but nothing on disk; load takes text only (mode "t" whatever
   * the script asks: Lua 5.4 does not verify bytecode, so a crafted binary
   * chunk could crash the host) and string.dump is nil; cute.cuda (which
   * loads libcuda and NVRTC and keeps a kernel cache on disk) is disabled:
   * require "cute.cuda" raises "cute.cuda is disabled in a state opened
   * without io". */
  int open_io;
  /* Nonzero opens the os library; zero leaves os nil.  os.remove, rename,
   * execute and tmpname touch files: a sandbox keeps os closed too. */
  int open_os;
} cutelua_options;

/* Defaults: no memory limit, no instruction budget, io and os closed.
 *     cutelua_options opt;
 *     cutelua_options_init(&opt);
 *     opt.open_io = 1;                // a trusted script may read files */
void cutelua_options_init(cutelua_options *opt);

/* A new state: Lua's base, package, coroutine, table, string, math and utf8
 * libraries (+ io, os as asked), with `cute` and its submodules preloaded
 * (`require "cute"` loads them from the library itself, not from disk).
 * `opt` NULL means the defaults.  Returns NULL only when memory runs out
 * (a memory_limit below what the libraries need).
 *     cutelua_state *S = cutelua_open(NULL);
 *     ...
 *     cutelua_close(S); */
cutelua_state *cutelua_open(const cutelua_options *opt);

/* Every state, budgeted or not, wraps coroutine.close: Lua 5.4.4 lets
 * __close handlers that close other coroutines recurse in C without limit
 * (a segfault); a close is refused, with an error the script may catch
 * ("coroutine.close: nested too deeply"), once the running call has used
 * 1 MiB of C stack.  A host thread running scripts needs a few MiB of
 * stack (the main thread's 8 MiB is plenty).  The classes of `cute`
 * (Layout, Swizzle, ComposedLayout, E) are read-only to scripts:
 * getmetatable gives a view that refuses writes, so no run can change
 * what a layout does in the runs after it. */

/* Frees everything the state holds (layouts read back stay valid: they are
 * copies); NULL is allowed.
 *     cutelua_close(S);
 *     S = NULL; */
void cutelua_close(cutelua_state *S);

/* ----------------------------------------------------------- run code -- */
/* Compiles and runs Lua text (no precompiled chunks).  `chunkname` names it
 * in messages ("=name" verbatim, "@file" as a file); NULL means "=(string)".
 * The values it returns are kept as the state's results until the next run.
 *     if (cutelua_run_string(S, "return 6 * 7", "=answer") != CUTELUA_OK)
 *       fprintf(stderr, "%s\n", cutelua_last_error(S)); */
cutelua_status cutelua_run_string(cutelua_state *S, const char *code,
                                  const char *chunkname);

/* Runs the Lua file at `path` (read by the host, whatever open_io says);
 * its results are kept like cutelua_run_string's.
 *     if (cutelua_run_file(S, "tile.lua") == CUTELUA_EFILE) ... */
cutelua_status cutelua_run_file(cutelua_state *S, const char *path);

/* The message of the last failed call ("" when none failed yet): for run
 * errors "chunk:line: message" and a stack traceback, for algebra errors
 * the algebra's message ("composition(...): ..."). Valid until the next
 * call on S.
 *     cutelua_run_string(S, "error 'boom'", "=x");
 *     cutelua_last_error(S);    // "x:1: boom\nstack traceback:..." */
const char *cutelua_last_error(const cutelua_state *S);

/* ------------------------------------------------- layouts back into C -- */
/* A layout as plain C data.  `layout` is the algebra value itself (pass it
 * to the cute_* functions of cute.h); the rest is derived from it. */
typedef struct cutelua_layout {
  cute_layout layout;
  int rank;                          /* top-level modes (1 for 8:1)        */
  int depth;                         /* nesting depth (0 for 8:1)          */
  int nleaf;                         /* leaves of shape and of stride      */
  int64_t shape[CUTE_MAX_LEAVES];    /* shape leaves, left to right        */
  int64_t stride[CUTE_MAX_LEAVES];   /* stride leaves (coefficient of a@i) */
  cute_basis basis[CUTE_MAX_LEAVES]; /* 0, or the basis path of a@i        */
  char profile[CUTE_MAX_TOKENS * 2]; /* nesting as text: "(_,(_,_))", "_"  */
  char text[CUTE_MAX_TEXT];          /* CuTe text "(4,(2,2)):(1,(4,8))"    */
} cutelua_layout;

/* Number of values the last run returned (0 after a failed run).
 *     cutelua_run_string(S, "return 1, 2, 3", NULL);
 *     cutelua_nresults(S);                // 3 */
int cutelua_nresults(const cutelua_state *S);

/* Result i (1-based) of the last run, as a layout.
 *     cutelua_layout L;
 *     cutelua_run_string(S, "return require('cute').layout '(4,(2,2))'", 0);
 *     cutelua_result_layout(S, 1, &L);  // L.text "(4,(2,2)):(1,(4,8))",
 *                                       // L.profile "(_,(_,_))",
 *                                       // L.nleaf 3, L.stride {1,4,8} */
cutelua_status cutelua_result_layout(cutelua_state *S, int i,
                                     cutelua_layout *out);

/* Global variable `name` as a layout; CUTELUA_ETYPE when it holds anything
 * else (the message says what it holds).
 *     cutelua_run_string(S, "A = require('cute').layout {4, 8}", NULL);
 *     cutelua_global_layout(S, "A", &L);  // L.text "(4,8):(1,4)" */
cutelua_status cutelua_global_layout(cutelua_state *S, const char *name,
                                     cutelua_layout *out);

/* ------------------------------------------------ any value into C -- */
/* What a script can return, as C data: numbers, strings, booleans, tuples
 * (Lua tables of integers), layouts, swizzles and swizzled layouts. */
typedef enum cutelua_kind {
  CUTELUA_TNIL, CUTELUA_TBOOLEAN, CUTELUA_TINTEGER, CUTELUA_TNUMBER,
  CUTELUA_TSTRING, CUTELUA_TTUPLE, CUTELUA_TLAYOUT, CUTELUA_TSWIZZLE,
  CUTELUA_TCOMPOSED,
  CUTELUA_TOTHER      /* a function, a table that is no tuple, ... */
} cutelua_kind;

typedef struct cutelua_value {
  cutelua_kind kind;
  int boolean;                  /* BOOLEAN                                  */
  int64_t integer;              /* INTEGER (a float with an integral value  */
  double number;                /* counts as INTEGER too); NUMBER, INTEGER  */
  const char *string;           /* STRING: valid until the next call on S   */
  size_t length;                /*   (may hold NUL bytes: use length)      */
  cute_tuple tuple;             /* TUPLE                                    */
  cutelua_layout layout;        /* LAYOUT, and COMPOSED's inner layout      */
  cute_swizzle swizzle;         /* SWIZZLE, COMPOSED                        */
  int64_t offset;               /* COMPOSED: Sw o offset o layout           */
  char text[CUTE_MAX_TEXT];     /* TUPLE, LAYOUT, SWIZZLE, COMPOSED: CuTe
                                   text; others: the Lua type's name        */
} cutelua_value;

/* Result i (1-based) of the last run, whatever it is.
 *     cutelua_value v;
 *     cutelua_run_string(S, "return cute.layout 'Sw<3,4,3> o 0 o "
 *                           "(8,64):(64,1)', 42, 'ok', {4, {2, 2}}", 0);
 *     cutelua_result(S, 1, &v);  // v.kind CUTELUA_TCOMPOSED, v.swizzle
 *                                // {3,4,3}, v.offset 0, v.layout.text
 *                                // "(8,64):(64,1)"
 *     cutelua_result(S, 2, &v);  // CUTELUA_TINTEGER, v.integer 42
 *     cutelua_result(S, 4, &v);  // CUTELUA_TTUPLE, v.text "(4,(2,2))" */
cutelua_status cutelua_result(cutelua_state *S, int i, cutelua_value *out);

/* Global variable `name`, whatever it is (CUTELUA_TNIL when unset). */
cutelua_status cutelua_global(cutelua_state *S, const char *name,
                              cutelua_value *out);

/* --------------------------------------------------- values from C -- */
/* Sets global `name` to a value built from C data, without writing Lua
 * source: the script sees an integer, a number, a string, a tuple table,
 * a cute.Layout or a swizzled cute.ComposedLayout.
 *     cute_layout A;
 *     cute_error err;
 *     cute_layout_parse(&A, "(4,8):(1,4)", &err);
 *     cutelua_set_layout(S, "A", &A);
 *     cutelua_set_integer(S, "n", 2);
 *     cutelua_run_string(S, "return cute.logical_divide(A, n)", 0); */
cutelua_status cutelua_set_integer(cutelua_state *S, const char *name,
                                   int64_t v);
cutelua_status cutelua_set_number(cutelua_state *S, const char *name,
                                  double v);
cutelua_status cutelua_set_string(cutelua_state *S, const char *name,
                                  const char *s);
cutelua_status cutelua_set_tuple(cutelua_state *S, const char *name,
                                 const cute_tuple *t);
cutelua_status cutelua_set_layout(cutelua_state *S, const char *name,
                                  const cute_layout *l);
cutelua_status cutelua_set_composed(cutelua_state *S, const char *name,
                                    const cute_composed *c);

#ifdef __cplusplus
}
#endif
#endif /* CUTELUA_H */
