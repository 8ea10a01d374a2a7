/*
 * vmtest.h -- what the C tests of the embedding API share: a state opened
 * with limits, and code that must run or must fail with a given status and
 * message.  Included by one test program each (static inline functions).
 */
#ifndef CUTELUA_VMTEST_H
#define CUTELUA_VMTEST_H

#include <string.h>

#include "cutelua.h"
#include "testlib.h"

#define HAS(haystack, needle) \
  CHECK(strstr((haystack), (needle)) != NULL, "[%s] lacks [%s]", (haystack), \
        (needle))

/* A state with memory limit `mem`, instruction budget `budget` (0: none)
 * and io and os open or closed together. */
static inline cutelua_state *open_with(size_t mem, uint64_t budget, int io) {
  cutelua_options opt;
  cutelua_options_init(&opt);
  opt.memory_limit = mem;
  opt.instruction_limit = budget;
  opt.open_io = opt.open_os = io;
  return cutelua_open(&opt);
}

/* Runs `code`, which must succeed. */
static inline void run_ok(cutelua_state *S, const char *code) {
  cutelua_status st = cutelua_run_string(S, code, "=t");
  CHECK(st == CUTELUA_OK, "%s: %s", code, cutelua_last_error(S));
}

/* Runs `code`, which must fail with status `st` and `msg` in its message. */
static inline void run_fails(cutelua_state *S, const char *code,
                             cutelua_status st, const char *msg) {
  cutelua_status got = cutelua_run_string(S, code, "=t");
  CHECK(got == st, "%s: status %d, want %d (%s)", code, (int)got, (int)st,
        cutelua_last_error(S));
  HAS(cutelua_last_error(S), msg);
}

#endif
