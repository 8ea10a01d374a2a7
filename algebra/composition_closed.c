/*
 * composition_closed.c -- A o B (composition.c) in closed form for the
 * common case: A of one or two integral leaves (a 2-D tile, nested or
 * not) and B of a few integral leaves.  cute_composition takes it first;
 * it gives what the general path gives (spec/c/test_fast_paths.c) and
 * leaves everything else, errors included, to composition.c.
 *
 * Coalesced A is then one mode, or s0:d0 and an unbounded mode of
 * stride d1, so a leaf s:d of B (d > 0) does one of three things, each
 * a formula, and only mode 0 has a carry budget (composition.c's
 * distribute):
 *   (s-1)*d < s0   stays in mode 0               s : d0*d
 *   s0 | d         steps over it into mode 1     s : d1*(d/s0)
 *   d | s0, q | s  splits it and goes on         (q, s/q) : (d0*d, d1),
 *                                                q = s0/d
 * With A of one mode every leaf is s : d0*d; a stride 0 gives s:0, a
 * leaf of size 1 gives 1:0.
 *   (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8)
 * Anything else (a stride that is negative or fails a division, a carry,
 * an overflow) is left to the integral pass and the general path.
 */
#include "leaves.h"
#include "tiling.h"

#include <string.h>

#define CLOSED_LEAVES 4  /* of B; a piece has 1 or 2 modes               */
#define CLOSED_TOKENS 16 /* of B: depth <= 7, so R's stays within limits */

/* The arrays apart from the scalars, which then live in registers. */
typedef struct closed {
  int64_t s0, d0, d1; /* coalesced A: s0:d0 (unbounded when n == 1), d1 */
  int n;
  int64_t acc;        /* mode 0's digits taken so far (distribute)        */
  int m;              /* R's modes so far, in s[] and d[]                 */
  int64_t *s, *d;
} closed;

/* cute_target_coalesce (compose_base.h) written out for A's one or two
 * leaves (shapes >= 1, as every layout's), without the prefix products
 * this form does not read: through the loop, the compositions this file
 * makes cost 15-20% more (measured: (6,2):(8,2) o (4,3):(3,1) 298 -> 352
 * instructions).  spec/c/test_fast_paths.c checks both give one result.
 * 0 when A has none, or a basis or binary stride. */
static int closed_target(closed *c, const cute_layout *A)
{
  const int64_t *s = A->shape.v, *d = A->stride.v;
  int64_t t, u;
  c->n = 1;
  c->acc = c->d1 = 0;
  c->m = 0;
  if (A->shape.nleaf == 1) {
    c->s0 = s[0];
    c->d0 = d[0];
    return A->stride.e[0] == 0;
  }
  if (A->shape.nleaf != 2 || (A->stride.e[0] | A->stride.e[1])) return 0;
  /* Leaf 0 of size 1 vanishes; leaf 1 continuing leaf 0 joins it, and
   * so does a last leaf of size 1 (on the extended domain). */
  c->s0 = s[0] == 1 ? s[1] : s[0];
  c->d0 = s[0] == 1 ? d[1] : d[0];
  if (s[0] == 1) return 1;
  if (!cute_mul(s[0], d[0], &t) && t == d[1]) {
    if (s[1] != 1 && !cute_mul(s[0], s[1], &u)) return c->s0 = u, 1;
    if (s[1] == 1 && d[1] != INT64_MAX) return 1;
  }
  c->n = 2;
  c->d1 = d[1];
  return 1;
}

/* Appends the mode s:d to R; returns 1, for the conditions below. */
static int closed_put(closed *c, int64_t s, int64_t d)
{
  c->s[c->m] = s;
  c->d[c->m++] = d;
  return 1;
}

/* Leaf s:d of B composed onto the target (composition.c's compose_leaf
 * for these cases):
 * 1 when its piece is one mode, 2 when a group of two; 0 where the
 * integral pass would fail or take another way. */
#if defined(__GNUC__)
__attribute__((always_inline)) /* one call per leaf of B */
#endif
static inline int closed_leaf(closed *c, int64_t s, int64_t d)
{
  int64_t t, q, rem, reach;
  if (d == 0) return closed_put(c, s, 0);
  if (d < 0 || cute_mul(c->d0, d, &t)) return 0;
  if (s == 1) return closed_put(c, 1, 0);
  if (c->n == 1) return closed_put(c, s, t);
  if (cute_mul(s - 1, d, &reach)) reach = INT64_MAX; /* >= s0 */
  if (reach < c->s0) { /* mode 0 alone */
    if (c->acc > c->s0 - 1 - reach) return 0;
    c->acc += reach;
    return closed_put(c, s, t);
  }
  if (d >= c->s0) { /* whole steps of mode 0: mode 1 alone */
    q = cute_divmod(d, c->s0, &rem);
    return !rem && !cute_mul(c->d1, q, &t) && closed_put(c, s, t);
  }
  /* d | s0: mode 0 split, its top digit s0-d used; s > q = s0/d, as
   * (s-1)*d >= s0, so both modes have size > 1. */
  q = cute_divmod(c->s0, d, &rem);
  if (rem || c->acc > d - 1) return 0;
  s = cute_divmod(s, q, &rem);
  if (rem) return 0;
  c->acc += c->s0 - d;
  return closed_put(c, q, t) + closed_put(c, s, c->d1);
}

/* R's tokens into out when B is flat, "x" or "(x...x)" of nb leaves:
 * a leaf at a time rather than a token at a time, each "x" or "(xx)"
 * written as four bytes (what follows writes over the rest of an "x");
 * the count.  In both tuples at once (tiling.h's cute_put_tok says
 * why). */
static int closed_flat_tokens(cute_layout *out, int nb, unsigned groups)
{
  int k, n = nb > 1;
  out->shape.tok[0] = out->stride.tok[0] = '(';
  for (k = 0; k < nb; k++, groups >>= 1) {
    memcpy(out->shape.tok + n, groups & 1 ? "(xx)" : "x)))", 4);
    memcpy(out->stride.tok + n, groups & 1 ? "(xx)" : "x)))", 4);
    n += groups & 1 ? 4 : 1;
  }
  return nb > 1 ? cute_put_tok(out, n, ')') : n;
}

/* R's tokens into out: B's (read before out is written), with leaf k
 * made "(xx)" where bit k of groups is set. */
static void closed_tokens(cute_layout *out, const cute_tuple *bs,
                          unsigned groups)
{
  char src[CLOSED_TOKENS];
  int i, n = 0, nt = bs->ntok;
  memcpy(src, bs->tok, CLOSED_TOKENS);
  if (!groups) {
    memcpy(out->shape.tok, src, CLOSED_TOKENS);
    memcpy(out->stride.tok, src, CLOSED_TOKENS);
    n = nt;
    nt = 0;
  } else if (cute_flat_is(bs, bs->nleaf)) {
    n = closed_flat_tokens(out, bs->nleaf, groups);
    nt = 0;
  }
  for (i = 0; i < nt; i++)
    if (src[i] == 'x' && (groups & 1)) {
      memcpy(out->shape.tok + n, "(xx)", 4);
      memcpy(out->stride.tok + n, "(xx)", 4);
      n += 4;
      groups >>= 1;
    } else {
      groups >>= src[i] == 'x';
      n = cute_put_tok(out, n, src[i]);
    }
  out->shape.ntok = out->stride.ntok = (uint8_t)n;
}

/* Written in place once every leaf is made (A and B read first: out may
 * be either, and is left as it was where the form does not apply: its
 * callers may pass a layout they read again then). */
int cute_composition_closed(cute_layout *out, const cute_layout *A,
                            const cute_layout *B)
{
  int64_t s[2 * CLOSED_LEAVES], d[2 * CLOSED_LEAVES];
  closed c;
  int k, got, nb = B->shape.nleaf;
  unsigned groups = 0;
  if (A->shape.nleaf > 2 || nb < 1 || nb > CLOSED_LEAVES ||
      B->shape.ntok > CLOSED_TOKENS)
    return 0;
  c.s = s;
  c.d = d;
  if (!closed_target(&c, A)) return 0;
  for (k = 0; k < nb; k++) {
    if (B->stride.e[k] ||
        !(got = closed_leaf(&c, B->shape.v[k], B->stride.v[k])))
      return 0;
    groups |= (unsigned)(got - 1) << k;
  }
  closed_tokens(out, &B->shape, groups);
  /* All of s and d, not c.m of them: a few wide copies, no loop (the
   * leaves past c.m are not R's). */
  memcpy(out->shape.v, s, sizeof s);
  memcpy(out->stride.v, d, sizeof d);
  for (k = 0; k < 2 * CLOSED_LEAVES; k++)
    out->shape.e[k] = out->stride.e[k] = 0;
  out->shape.nleaf = out->stride.nleaf = (uint8_t)c.m;
  return 1;
}

