/*
 * testlib.h -- tiny assertion and generator kit for the algebra's C tests.
 * Each test_<op>.c is one ctest; it ends with test_finish(), which prints
 * "N passed, N failed" and returns the exit code.
 */
#ifndef CUTE_TESTLIB_H
#define CUTE_TESTLIB_H

#include "cute.h"

#include <stdint.h>
#include <stdio.h>

extern int test_passed, test_failed;

/* Record one check; on failure print file:line and the message. */
void test_check(int ok, const char *file, int line, const char *fmt, ...);
#define CHECK(cond, ...) test_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
int test_finish(void);

/* Parse helpers that abort the test (not the library) on bad test input. */
cute_layout L(const char *text);
cute_tuple T(const char *text);
/* Print into a rotating static buffer (valid for a few calls). */
const char *S(const cute_layout *l);
const char *ST(const cute_tuple *t);

/* Assert that text(op result) == expected. */
#define CHECK_LAYOUT(res, expected) \
  CHECK(strcmp(S(&(res)), (expected)) == 0, "got %s, expected %s", S(&(res)), (expected))

/* A unary layout operation checked from text, failures reported at the
 * caller's line: op(in) succeeds and prints `expected`; or op(in) fails
 * with `code` and a message that starts with "name(" and contains
 * `needle`. */
typedef cute_status (*test_unary_fn)(cute_layout *out, const cute_layout *in,
                                     cute_error *err);
void test_unary(const char *file, int line, test_unary_fn op,
                const char *name, const char *in, const char *expected);
void test_unary_fails(const char *file, int line, test_unary_fn op,
                      const char *name, const char *in, cute_status code,
                      const char *needle);
#define CHECK_UNARY(op, name, in, expected) \
  test_unary(__FILE__, __LINE__, (op), (name), (in), (expected))
#define CHECK_UNARY_FAILS(op, name, in, code, needle) \
  test_unary_fails(__FILE__, __LINE__, (op), (name), (in), (code), (needle))

/* Deterministic PRNG (xorshift64*), seeded per test. */
typedef struct test_rng { uint64_t s; } test_rng;
void rng_seed(test_rng *r, uint64_t seed);
uint64_t rng_next(test_rng *r);
int64_t rng_range(test_rng *r, int64_t lo, int64_t hi); /* inclusive */

/* A random layout: depth <= max_depth (<= 3), <= max_leaves leaves, shape
 * leaves in [1, max_extent] (non-powers of two included), strides drawn from
 * {0, compact, compact*k, gaps, small odd}; sizes stay small enough to
 * brute-force (size <= max_size). */
cute_layout rng_layout(test_rng *r, int max_depth, int max_leaves,
                       int64_t max_extent, int64_t max_size);
/* A random injective layout with non-negative strides (a permuted, possibly
 * gapped compact layout), size <= max_size. */
cute_layout rng_injective_layout(test_rng *r, int max_depth, int max_leaves,
                                 int64_t max_size);

/* Brute force: L(i) for integral i (aborts the test on error). */
int64_t eval_i(const cute_layout *l, int64_t i);
int64_t size_of(const cute_layout *l);

#endif
