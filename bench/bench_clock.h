/*
 * bench_clock.h -- the clock of bench/'s CPU benchmarks (algebra.c,
 * cute_cpp.cpp): thread CPU time, and the median of a timer's runs.
 *
 * Each benchmark runs its timers in rounds, one run each per round, so a
 * burst of load from elsewhere on a small shared machine spoils one run of
 * many timers rather than all runs of one; the median then ignores it.
 * C99 needs _POSIX_C_SOURCE >= 199309L for clock_gettime, defined by the
 * includer before any system header.
 */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

#include <stdlib.h>
#include <time.h>

/* CPU time of this thread: time spent descheduled is not work. */
static inline double bench_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of runs[0..n) (sorts them). */
static inline double bench_median(double *runs, size_t n) {
  qsort(runs, n, sizeof runs[0], bench_cmp_double);
  return runs[n / 2];
}

#endif
