/*
 * compose_base.h -- the base case of composition (paper eq. 19), A o s:d
 * for one leaf s:d of B, on the part of A that leaf addresses: that part
 * flattened and coalesced on its extended domain (the target), then the
 * leaf walked onto it (steps 2 and 3 of composition.c's header).  One
 * copy, inline, for composition.c's passes (which report what fails) and
 * tiler.c's closed form for tilers (which refuses instead).
 *
 *   target of ((4,2),8):((3,12),97), all of it:  (8,8):(3,97), Sbar (1,8)
 *   walk of 6:12 on (4,6,8,10):(2,3,5,7)      -> (2,3):(9,5)
 */
#ifndef CUTE_COMPOSE_BASE_H
#define CUTE_COMPOSE_BASE_H

#include "cute_internal.h"

/* The target: mode i is s[i]:d[i] (basis e[i]) and r[i] is Sbar_i, the
 * product of the shapes before it (saturated at INT64_MAX, which then
 * only ever means "not reached").  Arrays, not cute_leaves: a mode's four
 * fields are read apart. */
typedef struct cute_target {
  int n;
  int64_t s[CUTE_MAX_LEAVES], d[CUTE_MAX_LEAVES], r[CUTE_MAX_LEAVES];
  cute_basis e[CUTE_MAX_LEAVES];
} cute_target;

static inline int64_t cute_sat_mul(int64_t a, int64_t b)
{
  int64_t r;
  return cute_mul(a, b, &r) ? INT64_MAX : r;
}

/* x = leaves [lo, hi) of A, coalesced on the extended domain (coalesce's
 * merge on offsets: a size-1 leaf vanishes unless it is the last, a leaf
 * continuing its predecessor joins it).  An empty A is the zero function
 * 1:0.  Returns the union of the leaves' bases (CUTE_BASIS_F2 set: the
 * merge does not apply, the caller leaves this algorithm). */
static inline cute_basis cute_target_coalesce(cute_target *x,
                                              const cute_layout *A, int lo,
                                              int hi)
{
  int i, n = 0;
  int64_t pre = 1, t;
  cute_basis any = 0;
  for (i = lo; i < hi; i++) {
    int64_t s = A->shape.v[i], d = A->stride.v[i];
    cute_basis e = A->stride.e[i];
    any |= e;
    if (s == 1 && i != hi - 1) continue;
    /* A merged shape that overflows stays two modes: same values. */
    if (s != 1 && n > 0 && x->e[n - 1] == e &&
        !cute_mul(x->s[n - 1], x->d[n - 1], &t) && t == d &&
        !cute_mul(x->s[n - 1], s, &t)) {
      x->s[n - 1] = t;
    } else {
      x->s[n] = s;
      x->d[n] = d;
      x->e[n] = e;
      x->r[n++] = pre; /* the modes' product so far: the leaves' */
    }
    pre = cute_sat_mul(pre, s);
  }
  /* A trailing size-1 mode that continues its predecessor adds nothing
   * even on the extended domain: (4,1):(1,4) is 4:1. */
  if (n >= 2 && x->s[n - 1] == 1 && x->e[n - 2] == x->e[n - 1] &&
      cute_sat_mul(x->s[n - 2], x->d[n - 2]) == x->d[n - 1] &&
      x->d[n - 1] != INT64_MAX)
    n--;
  if (n == 0) {
    x->s[0] = 1;
    x->d[0] = 0;
    x->e[0] = 0;
    x->r[0] = 1;
    n = 1;
  }
  x->n = n;
  return any;
}

/* Step 1, truncate: the modes a leaf of reach (s-1)*d walks, the first
 * m of a (a mode r >= 1 with Sbar_r > reach is never reached). */
static inline int cute_target_reached(const cute_target *a, int64_t reach)
{
  int m = a->n;
  while (m > 1 && a->r[m - 1] > reach) m--;
  return m;
}

/* A working mode of A o s:d: its shape and stride, the step of A's digit
 * per step of its own coordinate, and the mode r of the target it walks. */
typedef struct cute_wmode { int64_t s, d, step; cute_basis e; int r; } cute_wmode;

static inline void cute_wput(cute_wmode *w, int *k, int64_t s, int64_t d,
                             cute_basis e, int64_t step, int r)
{
  w[*k].s = s;
  w[*k].d = d;
  w[*k].e = e;
  w[*k].step = step;
  w[*k].r = r;
  (*k)++;
}

/* The larger of a, b over the smaller, or 0 when that division is not
 * exact (or an operand is not positive). */
static inline int64_t cute_exact_ratio(int64_t a, int64_t b)
{
  int64_t hi = a >= b ? a : b, lo = a >= b ? b : a, q, rem;
  if (lo <= 0) return 0;
  q = cute_divmod(hi, lo, &rem);
  return rem ? 0 : q;
}

/* How a walk ends: done, or the condition that failed. */
enum cute_walk_end {
  CUTE_WALK_DONE = 0,
  CUTE_WALK_STRIDE,   /* stride divisibility (eq. 20) at target mode *at */
  CUTE_WALK_SHAPE,    /* shape divisibility (eq. 21) at working mode *at  */
  CUTE_WALK_OVERFLOW  /* a stride past 64 bits                            */
};

/* Steps 2 and 3 for s:d (d > 0) on the first m >= 2 modes of a: the
 * working modes w[0, *nw), the last one's shape set to what is left of s.
 * Divisions only while something is left to divide (they dominate the
 * cost); rest >= S_r and S_r > rest are the two ways to divide. */
static inline enum cute_walk_end cute_target_walk(const cute_target *a,
                                                  int m, int64_t s,
                                                  int64_t d, cute_wmode *w,
                                                  int *nw, int *at)
{
  int r, k = 0, i;
  int64_t rest = d, t;
  for (r = 0; r < m - 1 && rest > 1; r++) {
    int64_t sr = a->s[r], q = cute_exact_ratio(rest, sr);
    if (q == 0) return *at = r, CUTE_WALK_STRIDE;
    if (rest >= sr) { rest = q; continue; }
    if (cute_mul(a->d[r], rest, &t)) return CUTE_WALK_OVERFLOW;
    cute_wput(w, &k, q, t, a->e[r], rest, r);
    rest = 1;
  }
  for (; r < m - 1; r++)
    cute_wput(w, &k, a->s[r], a->d[r], a->e[r], 1, r);
  if (cute_mul(a->d[m - 1], rest, &t)) return CUTE_WALK_OVERFLOW;
  cute_wput(w, &k, 0, t, a->e[m - 1], rest, m - 1); /* unbounded: s below */
  rest = s;
  for (i = 0; i < k - 1 && rest > 1; i++) {
    int64_t q = cute_exact_ratio(rest, w[i].s);
    if (q == 0) return *at = i, CUTE_WALK_SHAPE;
    if (rest < w[i].s) break; /* keep part of this mode and stop */
    rest = q;
  }
  w[i].s = rest;
  *nw = i + 1;
  return CUTE_WALK_DONE;
}

#endif
