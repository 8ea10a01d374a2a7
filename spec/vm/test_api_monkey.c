/*
 * test_api_monkey.c -- every public function of `cute` called with random
 * argument lists (spec/vm/api_monkey.lua makes them) in a state with a
 * memory limit and an instruction budget.  A call may fail, with an error
 * that names the function and is not Lua's own; it may not crash, run
 * long while the budget should stop it, escape its pcall or grow the
 * process far past the memory limit.
 *
 *   test_api_monkey [seed [calls [script]]]     (defaults: 1 20000)
 *
 * Each finding prints the call as Lua text, which replays it alone.  The
 * exit status is 1 if there was any, or if a target was never called.
 */
#define _POSIX_C_SOURCE 200809L  /* clock_gettime */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cutelua.h"

/* Under ASan/UBSan (CUTELUA_SANITIZE) a finding ends the process in the
 * sanitizer, which calls back first: the call is printed then.  Shadow
 * memory makes the resident size no measure of the Lua heap there. */
#if defined(__SANITIZE_ADDRESS__)
#define MONKEY_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MONKEY_SANITIZED 1
#endif
#endif
#ifdef MONKEY_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

#ifndef MONKEY_SCRIPT
#define MONKEY_SCRIPT "api_monkey.lua"
#endif

enum {
  MEMORY = 64 << 20,         /* bytes of Lua heap                           */
  BUDGET = 2000000,          /* instructions per call (~50 ms of Lua)        */
  SLOW_S = 5,                /* seconds a budgeted call may take (~50x the   */
                             /* budget: a loaded CI machine, ASan)           */
  RSS_MIB = 3 * (MEMORY >> 20), /* peak RSS: the heap, pools, the program */
  HANG_S = 30                /* seconds after which the watchdog kills us    */
};

/* The call in flight, for the signal handlers: they can only write(). */
static char current[1 << 17];

static void say(const char *s) {
  ssize_t ignored = write(2, s, strlen(s));
  (void)ignored;
}

static void on_signal(int sig) {
  say(sig == SIGALRM ? "\nHANG (the budget did not stop it):\n"
                     : "\nCRASH (a signal):\n");
  say(current);
  say("\n");
  signal(sig, SIG_DFL);
  raise(sig);
}

#ifdef MONKEY_SANITIZED
static void on_sanitizer_death(void) {
  say("\nSANITIZER finding in:\n");
  say(current);
  say("\n");
}
#endif

static void watch(void) {
  static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM};
  size_t i;
  for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    signal(sigs[i], on_signal);
#ifdef MONKEY_SANITIZED
  __sanitizer_set_death_callback(on_sanitizer_death);
#endif
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* What the run saw. */
typedef struct tally {
  long calls, ok, errors, budget, memory, findings;
  double slowest;
} tally;

static void finding(tally *t, const char *what, const char *detail) {
  t->findings++;
  printf("FINDING %s: %s\n--- call:\n%s\n---\n", what, detail, current);
}

/* Runs call i: the script writes its text into `current`, then makes it
 * under the budget and judges the error. */
static void one_call(cutelua_state *S, long i, tally *t) {
  char code[64];
  cutelua_value v;
  cutelua_status st;
  double t0, secs;
  snprintf(code, sizeof code, "return monkey.prepare(%ld)", i);
  if (cutelua_run_string(S, code, "=prepare") != CUTELUA_OK ||
      cutelua_result(S, 1, &v) != CUTELUA_OK || v.kind != CUTELUA_TSTRING) {
    finding(t, "the state is unusable", cutelua_last_error(S));
    return;
  }
  snprintf(current, sizeof current, "%s", v.string);
  t->calls++;
  alarm(HANG_S);
  t0 = now();
  st = cutelua_run_string(S, "return monkey.fire()", "=fire");
  secs = now() - t0;
  alarm(0);
  t->slowest = secs > t->slowest ? secs : t->slowest;
  if (secs > SLOW_S) {
    char why[64];
    snprintf(why, sizeof why, "%.2f s under a budget of %d", secs, BUDGET);
    finding(t, "slow", why);
  }
  if (st == CUTELUA_EBUDGET) t->budget++;
  else if (st == CUTELUA_EMEM) t->memory++;
  else if (st != CUTELUA_OK) finding(t, "escaped its pcall", cutelua_last_error(S));
  else if (cutelua_result(S, 1, &v) != CUTELUA_OK || v.kind == CUTELUA_TNIL)
    t->ok++;
  else if (v.kind == CUTELUA_TBOOLEAN)
    t->errors++;
  else
    finding(t, "error", v.string);
}

/* Every target was called at least once (a run long enough for it). */
static void coverage(cutelua_state *S, tally *t) {
  cutelua_value n, missing;
  if (cutelua_run_string(S, "return monkey.coverage()", "=coverage") != CUTELUA_OK ||
      cutelua_result(S, 1, &n) != CUTELUA_OK || cutelua_result(S, 2, &missing)) {
    finding(t, "coverage", cutelua_last_error(S));
    return;
  }
  printf("%lld targets", (long long)n.integer);
  if (missing.length > 0) {
    t->findings++;
    printf("; never called:\n%s\n", missing.string);
  }
  printf("\n");
}

static cutelua_state *open_monkey(const char *script, long seed) {
  cutelua_options opt;
  cutelua_state *S;
  cutelua_options_init(&opt);
  opt.memory_limit = MEMORY;
  opt.instruction_limit = BUDGET;
  S = cutelua_open(&opt);
  if (S != NULL && (cutelua_set_integer(S, "MONKEY_SEED", seed) != CUTELUA_OK ||
                    cutelua_run_file(S, script) != CUTELUA_OK)) {
    fprintf(stderr, "%s: %s\n", script, cutelua_last_error(S));
    cutelua_close(S);
    return NULL;
  }
  return S;
}

int main(int argc, char **argv) {
  long seed = argc > 1 ? atol(argv[1]) : 1;
  long calls = argc > 2 ? atol(argv[2]) : 20000, i;
  const char *script = argc > 3 ? argv[3] : MONKEY_SCRIPT;
  tally t = {0, 0, 0, 0, 0, 0, 0};
  struct rusage ru;
  double t0 = now();
  cutelua_state *S = open_monkey(script, seed);
  if (S == NULL) return 2;
  watch();
  for (i = 0; i < calls; i++) one_call(S, i, &t);
  coverage(S, &t);
  cutelua_close(S);
  getrusage(RUSAGE_SELF, &ru);
#ifndef MONKEY_SANITIZED
  if (ru.ru_maxrss >> 10 > RSS_MIB) {
    printf("FINDING memory: peak RSS %ld MiB, past %d MiB for a %d MiB Lua heap\n",
           ru.ru_maxrss >> 10, RSS_MIB, MEMORY >> 20);
    t.findings++;
  }
#endif
  printf("seed %ld: %ld calls (%ld ok, %ld errors, %ld "
         "budget, %ld memory), %ld findings, slowest %.3f s, %.1f s, max RSS "
         "%ld MiB\n", seed, t.calls, t.ok, t.errors,
         t.budget, t.memory, t.findings, t.slowest, now() - t0, ru.ru_maxrss >> 10);
  return t.findings > 0;
}
