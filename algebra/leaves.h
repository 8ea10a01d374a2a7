/*
 * leaves.h -- a layout seen as its flat list of modes, for the operations
 * that reason about strides rather than structure: complement and the
 * inverses (complement.c, inverse.c).  Private to algebra/.
 *
 * Each leaf keeps, besides its shape s and stride d (coefficient d with
 * basis e), its column-major index stride r in the flattened layout: the
 * product of the shapes before it.  r is what an inverse maps back to, and
 * it must be taken before any mode is dropped or merged.
 *   ((2,2),(4,2)):((1,8),(2,16))  ->  s {2,2,4,2}  d {1,8,2,16}  r {1,2,4,16}
 */
#ifndef CUTE_LEAVES_H
#define CUTE_LEAVES_H

#include "cute_internal.h"

#include <string.h>

typedef struct cute_leaf {
  int64_t s, d, r;
  cute_basis e;
} cute_leaf;

/* One spare slot: a complement adds a rest mode to up to MAX_LEAVES modes
 * (cute_leaves_layout reports the limit if merging does not absorb it). */
typedef struct cute_leaves {
  int n;
  cute_leaf m[CUTE_MAX_LEAVES + 1];
} cute_leaves;

/* Stable sort by stride, ties by shape (the order of complement). */
void cute_leaves_sort(cute_leaves *x);

/* Drop size-1 leaves (except the last one when keep_last) and merge each
 * leaf into its predecessor when both relations hold: d' = s*d and
 * r' = s*r (lists that do not carry index strides leave r at 0, which
 * makes the second relation vacuous).  The values on the domain are kept:
 * this is coalesce on the (s, d, r) triples. */
void cute_leaves_merge(cute_leaves *x, int keep_last);

/* The flat layout of the leaves' (s, d@e): none -> 1:0, one -> a leaf
 * (12:1), more -> a group ((2,3):(1,8)). */
cute_status cute_leaves_layout(cute_layout *out, const cute_leaves *x,
                               cute_error *err);

/* An inversion or complement of one codomain component: res from the
 * selected leaves sel (all of basis e, s > 1, d != 0, in L's order),
 * which fn may reorder or merge in place (they are its own copy). */
typedef cute_status (*cute_leaves_fn)(cute_leaves *res, cute_leaves *sel,
                                      cute_basis e, const cute_layout *L,
                                      void *ctx, cute_error *err);

/* cute_leaves_apply's flags: refuse negative strides (on modes that reach
 * the image: s > 1) with CUTE_EINVAL "negative stride d", before fn. */
#define CUTE_LEAVES_POSITIVE 1

/* Applies fn per codomain component (paper: the result is weakly congruent
 * to the codomain profile).  An integral L gives the flat layout of fn's
 * leaves; a coordinate L with strides in e_0..e_{n-1} gives a rank-n
 * layout whose mode c is fn's result for component c, a leaf when it has
 * one mode.  Integers mixed with bases are CUTE_ECODOMAIN; nested basis
 * paths (1@1@0) CUTE_EINVAL.  Zero strides count for neither. */
cute_status cute_leaves_apply(cute_layout *out, const cute_layout *L,
                              const char *op, cute_leaves_fn fn, void *ctx,
                              int flags, cute_error *err);

/* The general paths of operations that also have a fast path for common
 * inputs: the public function is the fast path where it applies, else
 * this; both give the same result (spec/c/test_fast_paths.c checks it on
 * random inputs). */
/* ---------------------------------------------------- integral fast paths */
/* Complement and the inverses of an integral layout (no basis strides) in
 * one pass each, over small arrays instead of the leaves structs above
 * (copying those cost a third of their time).  Each returns 0 where it
 * does not apply or the operation fails, and its caller then takes the
 * general path, which decides and reports; out is written only on
 * success (it may alias the operand). */
typedef struct cute_flat {
  int n;
  int64_t s[CUTE_MAX_LEAVES], d[CUTE_MAX_LEAVES], r[CUTE_MAX_LEAVES];
} cute_flat;

/* The image-bearing leaves (s > 1, d != 0) among L's leaves [l0, l1),
 * with their index strides within [l0, l1), stably sorted by (d, s)
 * (cute_leaves_sort's order; each inserted in its place as it is read:
 * few leaves, no second pass); 0 when those are not integral, have a
 * negative stride, an index stride or the size past 64 bits. */
static inline int cute_flat_select_sorted(cute_flat *x,
                                          const cute_layout *L, int l0,
                                          int l1)
{
  int i, j, n = 0;
  int64_t r = 1;
  if (l1 > CUTE_MAX_LEAVES) return 0;
  for (i = l0; i < l1; i++) {
    int64_t s = L->shape.v[i], d = L->stride.v[i];
    if (d != 0 && L->stride.e[i] != 0) return 0;
    if (s > 1 && d != 0) {
      if (d < 0) return 0;
      for (j = n++; j > 0 && (d < x->d[j - 1] ||
                              (d == x->d[j - 1] && s < x->s[j - 1])); j--) {
        x->s[j] = x->s[j - 1];
        x->d[j] = x->d[j - 1];
        x->r[j] = x->r[j - 1];
      }
      x->s[j] = s;
      x->d[j] = d;
      x->r[j] = r;
    }
    /* After the last leaf too, where r is not used: a size past 64 bits
     * is rare (the general path then decides), a test a leaf is not. */
    if (cute_mul(r, s, &r)) return 0;
  }
  x->n = n;
  return 1;
}
/* Appends the mode ms:md to the *n modes s[i]:d[i] as
 * cute_leaves_merge(keep_last) leaves it: a size-1 mode vanishes unless
 * `last`, a mode continuing its predecessor (md = s'*d') joins it.  0
 * when a new mode would pass CUTE_MAX_LEAVES (modes never vanish once
 * there: the general path then fails the same way).  Inline: called once
 * per mode of a result; s and d may be a cute_flat's or out's leaves. */
static inline int cute_flat_put(int64_t *s, int64_t *d, int *n, int64_t ms,
                                int64_t md, int last)
{
  int64_t t;
  int k = *n;
  if (ms == 1 && !last) return 1;
  if (ms != 1 && k > 0 && !cute_mul(s[k - 1], d[k - 1], &t) && t == md &&
      !cute_mul(s[k - 1], ms, &t)) {
    s[k - 1] = t;
    return 1;
  }
  if (k == CUTE_MAX_LEAVES) return 0;
  s[k] = ms;
  d[k] = md;
  *n = k + 1;
  return 1;
}

/* out = the flat layout of x's modes s:d, as cute_leaves_layout. */
void cute_flat_layout(cute_layout *out, const cute_flat *x);
/* out = the flat layout of its first m leaves, whose values (shape and
 * stride) are written already: counts and tokens one store per tuple
 * for 1..4 modes (most results, no token loop), the bases zeroed; 1:0
 * for m = 0. */
void cute_flat_finish(cute_layout *out, int m);

/* The first 8 bytes of a cute_tuple that is a flat tuple of m = 1..4
 * leaves (a leaf "x", or "(x...x)"): ntok, nleaf and tok[0..5], the
 * bytes past the tokens 0; and which of those bytes count. */
extern const uint8_t cute_flat_heads[5][8], cute_flat_masks[5][8];

/* t's counts and tokens those of a flat tuple of m = 1..4 leaves: one
 * 8-byte store, no token loop (its leaves are the caller's). */
static inline void cute_flat_head(cute_tuple *t, int m)
{
  memcpy(t, cute_flat_heads[m], 8);
}

/* out = the flat integral layout of its first m = 1..4 leaves, whose
 * values are written already: counts and tokens one 8-byte store per
 * tuple, the bases of the first four leaves of each zeroed in two. */
static inline void cute_flat_small(cute_layout *out, int m)
{
  cute_flat_head(&out->shape, m);
  cute_flat_head(&out->stride, m);
  memset(out->shape.e, 0, 4 * sizeof out->shape.e[0]);
  memset(out->stride.e, 0, 4 * sizeof out->stride.e[0]);
}

/* cute_flat_finish with its common case, 1..4 modes, inline: the call
 * cost a thirtieth of an inverse. */
static inline void cute_flat_end(cute_layout *out, int m)
{
  if (m >= 1 && m <= 4)
    cute_flat_small(out, m);
  else
    cute_flat_finish(out, m);
}

/* Is t a flat tuple of m = 1..4 leaves (its counts and tokens; not its
 * values)?  One 8-byte compare; byte order does not matter, as the
 * tuple, the head and the mask are all read alike. */
static inline int cute_flat_is(const cute_tuple *t, int m)
{
  uint64_t x, h, k;
  memcpy(&x, t, 8);
  memcpy(&h, cute_flat_heads[m], 8);
  memcpy(&k, cute_flat_masks[m], 8);
  return ((x ^ h) & k) == 0;
}

/* complement(A restricted to its element a, cotarget). */
int cute_complement_integral(cute_layout *out, const cute_layout *A,
                             const cute_span *a, int64_t cotarget);
/* The same as modes s[i]:d[i] (arrays of CUTE_MAX_LEAVES) of A's leaves
 * [l0, l1): their count, or 0 (then the general path decides). */
int cute_complement_modes(int64_t *s, int64_t *d, const cute_layout *A,
                          int l0, int l1, int64_t cotarget);
/* The same of all of A's leaves, two of them in closed form. */
int cute_complement_flat(int64_t *s, int64_t *d, const cute_layout *A,
                         int64_t cotarget);
cute_status cute_complement_general(cute_layout *out, const cute_layout *A,
                                    int64_t cotarget, cute_error *err);
cute_status cute_right_inverse_general(cute_layout *out, const cute_layout *L,
                                       cute_error *err);
cute_status cute_left_inverse_general(cute_layout *out, const cute_layout *L,
                                      cute_error *err);

#endif
