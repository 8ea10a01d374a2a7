/*
 * test_composition_conditions.c -- composition errs exactly when one of
 * its admissibility conditions fails (docs/architecture.md, "Semantic
 * choices": R(c) = A(B(c)) for every c of B, or an error naming the
 * condition).
 *
 * The conditions are evaluated here independently of composition.c, from
 * the paper (3.3.2-3.3.3) and, for distributivity, from the rule that
 * composition.c documents:
 *   - A is coalesced on its extended domain (its last mode is unbounded,
 *     so it stays even at size 1, unless its predecessor runs into it);
 *   - for a leaf s:d of B (d > 0), A is truncated to the modes r with
 *     Sbar_r <= (s-1)*d (always mode 0): the others are never reached;
 *   - stride divisibility (20): Sbar_r | d or d | Sbar_r, r = 0..R;
 *   - shape divisibility (21): ceil(Sbar_r / d) | s, r = 0..R;
 *   - unless the walk c*d, c < s, never carries between the modes r < R
 *     (composition.c's no_carry: then A(c*d) = c*A(d), one mode of stride
 *     A(d), a sum of bases for a coordinate A);
 *   - distributivity (22, composition.c): for every bounded mode r of
 *     coalesced A (all but the last), the largest digits that B's leaves
 *     produce in mode r, max over c < s of floor(c*d / Sbar_r) mod S_r
 *     (found by brute force), sum to at most S_r - 1.
 * For random integral pairs, single-leaf and multi-leaf B, the library must
 * err exactly when one of these fails, with CUTE_EDIVISIBILITY and a
 * message naming a failing condition, and otherwise return R with
 * R(c) = A(B(c)) for every c (A on its extended domain).
 */
#include "testlib.h"

#include <string.h>

/* A flat, coalesced on the extended domain, with exclusive prefix
 * products pre[r] = Sbar_r. */
typedef struct flat {
  int n;
  int64_t s[CUTE_MAX_LEAVES], d[CUTE_MAX_LEAVES], pre[CUTE_MAX_LEAVES + 1];
} flat;

static flat coalesce_extended(const cute_layout *A)
{
  flat f;
  int k, last = A->shape.nleaf - 1;
  f.n = 0;
  for (k = 0; k <= last; k++) {
    int64_t s = A->shape.v[k], d = A->stride.v[k];
    if (s == 1 && k != last) continue;
    if (f.n > 0 && d == f.s[f.n - 1] * f.d[f.n - 1]) {
      f.s[f.n - 1] *= s; /* (s0,s1):(d0,s0*d0) = s0*s1:d0, unbounded too */
      continue;
    }
    f.s[f.n] = s;
    f.d[f.n++] = d;
  }
  if (f.n == 0) { /* ():() is the zero function */
    f.s[0] = 1;
    f.d[0] = 0;
    f.n = 1;
  }
  f.pre[0] = 1;
  for (k = 0; k < f.n; k++) f.pre[k + 1] = f.pre[k] * f.s[k];
  return f;
}

enum { STRIDE = 1, SHAPE = 2, DISTRIBUTIVITY = 4 };

/* Does the walk c*d, c < s, never carry between the bounded modes
 * r < R of f: is every digit of c*d c times the digit of d?  (By brute
 * force; then A(c*d) = c*A(d), one mode.) */
static int linear_walk(const flat *f, int R, int64_t s, int64_t d)
{
  int64_t c;
  int r;
  for (c = 0; c < s; c++)
    for (r = 0; r < R; r++)
      if ((c * d / f->pre[r]) % f->s[r] != c * ((d / f->pre[r]) % f->s[r]))
        return 0;
  return 1;
}

/* The base-case conditions (20), (21) for the leaf s:d against f, which
 * do not apply when the walk is linear. */
static int base_failures(const flat *f, int64_t s, int64_t d)
{
  int r, R = 0, fail = 0;
  if (d == 0) return 0;
  while (R + 1 < f->n && f->pre[R + 1] <= (s - 1) * d) R++;
  for (r = 0; r <= R; r++) {
    int64_t p = f->pre[r], up = (p + d - 1) / d;
    if (p % d != 0 && d % p != 0) fail |= STRIDE;
    if (s % up != 0) fail |= SHAPE;
  }
  return fail && linear_walk(f, R, s, d) ? 0 : fail;
}

/* Largest digit of mode r of f over the walk c*d, c < s. */
static int64_t max_digit(const flat *f, int r, int64_t s, int64_t d)
{
  int64_t c, best = 0;
  for (c = 0; c < s; c++) {
    int64_t digit = (c * d / f->pre[r]) % f->s[r];
    if (digit > best) best = digit;
  }
  return best;
}

/* All failing conditions of A o B (B integral, strides >= 0). */
static int failures(const cute_layout *A, const cute_layout *B)
{
  flat f = coalesce_extended(A);
  int k, r, fail = 0;
  for (k = 0; k < B->shape.nleaf; k++)
    fail |= base_failures(&f, B->shape.v[k], B->stride.v[k]);
  for (r = 0; r + 1 < f.n; r++) {
    int64_t sum = 0;
    for (k = 0; k < B->shape.nleaf; k++)
      if (B->stride.v[k] != 0)
        sum += max_digit(&f, r, B->shape.v[k], B->stride.v[k]);
    if (sum > f.s[r] - 1) fail |= DISTRIBUTIVITY;
  }
  return fail;
}

static const char *const names[] = {
  "stride divisibility condition violated",
  "shape divisibility condition violated",
  "distributivity condition violated"
};

typedef struct tally { int ok, stride, shape, dist; } tally;

/* One pair: the library against the oracle, and R(c) = A(B(c)). */
static void check_pair(const cute_layout *A, const cute_layout *B, tally *t)
{
  cute_layout R;
  cute_error e;
  int fail = failures(A, B), named = 0, k;
  cute_status st = cute_composition(&R, A, B, &e);
  if (st == CUTE_OK) {
    int64_t c, n = size_of(B);
    CHECK(fail == 0, "%s o %s = %s, yet condition(s) %d fail", S(A), S(B),
          S(&R), fail);
    for (c = 0; c < n && eval_i(&R, c) == eval_i(A, eval_i(B, c)); c++) {}
    CHECK(c == n, "%s o %s = %s: R(%lld) != A(B(%lld))", S(A), S(B), S(&R),
          (long long)c, (long long)c);
    t->ok++;
    return;
  }
  for (k = 0; k < 3; k++)
    if ((fail & (1 << k)) && strstr(e.msg, names[k])) named = 1 << k;
  CHECK(st == CUTE_EDIVISIBILITY && named, "%s o %s: %s (%s), yet the "
        "failing conditions are %d", S(A), S(B), cute_status_name(st),
        e.msg, fail);
  t->stride += named == STRIDE;
  t->shape += named == SHAPE;
  t->dist += named == DISTRIBUTIVITY;
}

/* A stride for B that meets A's prefix products often: one of them, a
 * divisor or multiple of one, or anything small. */
static int64_t pick_stride(test_rng *r, const cute_layout *A)
{
  flat f = coalesce_extended(A);
  int64_t p = f.pre[rng_range(r, 0, f.n)], k = rng_range(r, 1, 4);
  switch (rng_range(r, 0, 4)) {
  case 0: return p;
  case 1: return p % k == 0 ? p / k : p;
  case 2: return p * k;
  case 3: return 0;
  default: return rng_range(r, 1, 24);
  }
}

static cute_layout leaf_layout(int64_t s, int64_t d)
{
  cute_layout l;
  cute_tuple_int(&l.shape, s);
  cute_tuple_int(&l.stride, d);
  return l;
}

static void single_leaf(void)
{
  test_rng r;
  tally t = {0, 0, 0, 0};
  int i;
  rng_seed(&r, 2020);
  for (i = 0; i < 12000; i++) {
    cute_layout A = rng_layout(&r, 3, 5, 8, 512);
    cute_layout B = leaf_layout(rng_range(&r, 1, 16), pick_stride(&r, &A));
    check_pair(&A, &B, &t);
  }
  CHECK(t.ok > 3000 && t.stride > 500 && t.shape > 500 && t.dist == 0,
        "single leaf coverage: %d ok, %d stride, %d shape, %d distributivity",
        t.ok, t.stride, t.shape, t.dist);
}

/* B = (s0,(s1,s2),...) or flat, 2 to 4 leaves, strides as above or
 * compact in a random order (those distribute). */
static cute_layout multi_leaf(test_rng *r, const cute_layout *A)
{
  cute_layout B = rng_layout(r, 2, 4, 6, 64);
  int k, compact = rng_range(r, 0, 2) == 0;
  int64_t p = pick_stride(r, A);
  if (B.shape.nleaf < 2) B = rng_layout(r, 1, 4, 6, 64);
  for (k = 0; k < B.shape.nleaf; k++) {
    B.stride.v[k] = compact ? p : pick_stride(r, A);
    p *= B.shape.v[k];
  }
  return B;
}

static void multiple_leaves(void)
{
  test_rng r;
  tally t = {0, 0, 0, 0};
  int i;
  rng_seed(&r, 2021);
  for (i = 0; i < 20000; i++) {
    cute_layout A = rng_layout(&r, 3, 5, 8, 512);
    cute_layout B = multi_leaf(&r, &A);
    check_pair(&A, &B, &t);
  }
  CHECK(t.ok > 2000 && t.stride > 500 && t.shape > 500 && t.dist > 200,
        "multi-leaf coverage: %d ok, %d stride, %d shape, %d distributivity",
        t.ok, t.stride, t.shape, t.dist);
}

int main(void)
{
  single_leaf();
  multiple_leaves();
  return test_finish();
}
