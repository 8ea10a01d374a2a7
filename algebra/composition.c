/*
 * composition.c -- R = A o B (paper 3.3) and by-mode composition with a
 * tiler (3.3.5).
 *
 * R keeps B's structure: each leaf s:d of B becomes A o s:d (the base case,
 * eq. 19), a single mode or a group in place of that leaf, so B <= R.  A
 * leaf whose stride is a scaled basis a@p composes with the mode p of A
 * instead (coordinate case): A o (s : a@p) = A_p o s:a.
 *
 * The base case works on A flattened and coalesced on its *extended*
 * domain: the last mode is unbounded (A(i) for i >= size(A) continues along
 * it), so it keeps its stride even when its shape is 1:
 *     1:1 o 2:1 = 2:1,   7:11 o 3:4 = 3:44.
 * Then, with Sbar_r the exclusive prefix product of A's shape:
 *   1. truncate: a mode r >= 1 with Sbar_r > (s-1)*d is never reached and
 *      is dropped; the last kept mode becomes the unbounded one
 *        (4,2,8):(3,12,97) o 3:3 = (8,8):(3,97) o 3:3 = 8:3 o 3:3 = 3:9;
 *   2. divide out d: whole leading modes vanish while Sbar divides d, the
 *      next one is split (stride divisibility, eq. 20);
 *   3. keep s: whole modes while their size divides what is left of s, then
 *      part of one (shape divisibility, eq. 21); the unbounded mode takes
 *      the rest
 *        (4,6,8,10):(2,3,5,7) o 6:12 = (2,3):(9,5).
 *
 * Distribution over B's leaves (eq. 22) is only valid when their images do
 * not carry into one another in A's mixed radix.  CuTe does not check this
 * and returns wrong layouts ((4,2):(1,10) o (2,2):(3,1) would give
 * (2,2):(3,1), but A(B(1,1)) = A(4) = 10).  Here every leaf records the
 * largest digit it produces in each bounded mode of coalesced A; if the
 * digits of the leaves can add up past a mode's extent, the composition
 * fails.  This is exact up to coincidental cancellation of several carries
 * and weaker than the paper's mutual segregation (7:11 o (3,5):(6,3) and
 * (4,8):(1,5) o (2,2):(1,1) are accepted: no carry is possible).
 *
 * Negative strides in B: A(i*d) for d < 0 walks A's extended domain
 * backwards with floor division, which is linear only when |d| steps over
 * whole non-last modes of A; then R = -(A o s:|d|).  Other cases are
 * rejected rather than approximated.
 */
#include "compose_base.h"
#include "leaves.h"
#include "tiling.h"

#include <stdio.h>
#include <string.h>

/* The result modes of all of B's leaves, in one pool, and where each leaf's
 * modes lie in it.  The result has at most CUTE_MAX_LEAVES leaves, so the
 * pool can be that small.  `extra` counts the tokens the pieces add to
 * B's (a piece of n > 1 modes replaces its 'x' by n + 2 tokens). */
typedef struct pieces {
  int n, extra, ordered; /* ordered: pieces in B's leaf order */
  int64_t s[CUTE_MAX_LEAVES], d[CUTE_MAX_LEAVES];
  cute_basis e[CUTE_MAX_LEAVES];
  int off[CUTE_MAX_LEAVES], cnt[CUTE_MAX_LEAVES];
} pieces;

/* A o B for the part `a` of A: all of A, or one mode of it for a tiler
 * (composed in place, never copied out of A). */
typedef struct ctx {
  const cute_layout *A, *B;
  const cute_span *a;
  cute_error *err;
  int f2; /* set when A or B has binary strides: linear_f2.c composes */
} ctx;

#define OP "composition"

static cute_status overflow(const ctx *c)
{
  return cute_fail_op(c->err, CUTE_EOVERFLOW, OP, c->A, c->B,
                      "64-bit overflow");
}

/* ---------------------------------------------------------- left operand -- */

/* Leaves [*lo, *hi) of the part of A that B's leaf k addresses: all of
 * c->a for an integer stride, its mode p for a basis stride a@p (an
 * integer's mode 0 being itself). */
static cute_status target(const ctx *c, int k, int *lo, int *hi)
{
  cute_basis e = c->B->stride.e[k];
  /* c->a is a pointer: copying the span whole just after its fields were
   * stored one by one stalls store forwarding (measured: a third slower
   * on small compositions). */
  const cute_span *sp = c->a;
  cute_span sub[2];
  int j;
  for (j = 0; j < CUTE_BASIS_LEN(e); sp = &sub[j % 2], j++)
    if (cute_tuple_child(&c->A->shape, sp, CUTE_BASIS_AT(e, j),
                         &sub[j % 2])) {
      char b[64];
      cute_tuple leaf; /* one leaf a@p: the printer writes it */
      cute_tuple_clear(&leaf);
      cute_tuple_leaf(&leaf, c->B->stride.v[k], e, NULL);
      cute_tuple_print(&leaf, b, sizeof b);
      *lo = *hi = 0; /* unread on error; for -Wmaybe-uninitialized */
      return cute_fail_op(c->err, CUTE_ERANK, OP, c->A, c->B,
                          "stride %s of B names no mode of A", b);
    }
  *lo = sp->leaf0;
  *hi = sp->leaf1;
  return CUTE_OK;
}

/* ------------------------------------------------------------- base case -- */

/* Steps 2 and 3 on the first m modes of a (m >= 2, d > 0), and what
 * fails, reported. */
static cute_status divide_keep(const ctx *c, const cute_target *a, int m,
                               int64_t s, int64_t d, cute_wmode *w, int *nw)
{
  int at = 0;
  int64_t pre;
  switch (cute_target_walk(a, m, s, d, w, nw, &at)) {
  case CUTE_WALK_DONE:
    return CUTE_OK;
  case CUTE_WALK_STRIDE:
    return cute_fail_op(c->err, CUTE_EDIVISIBILITY, OP, c->A, c->B,
                        "stride divisibility condition violated: prefix "
                        "product %lld of A's shape and stride %lld of B "
                        "divide neither way",
                        (long long)cute_sat_mul(a->r[at], a->s[at]),
                        (long long)d);
  case CUTE_WALK_SHAPE:
    pre = cute_sat_mul(a->r[w[at].r], a->s[w[at].r]);
    return cute_fail_op(c->err, CUTE_EDIVISIBILITY, OP, c->A, c->B,
                        "shape divisibility condition violated: "
                        "ceil(%lld/%lld) = %lld and shape %lld of B "
                        "divide neither way", (long long)pre, (long long)d,
                        (long long)(pre / d + (pre % d != 0)), (long long)s);
  default:
    return overflow(c);
  }
}

static cute_status overlap(const ctx *c, const cute_target *a, int r)
{
  return cute_fail_op(c->err, CUTE_EDIVISIBILITY, OP, c->A, c->B,
                      "distributivity condition violated: the images of "
                      "B's modes overlap within mode %d (extent %lld) of "
                      "coalesced A", r, (long long)a->s[r]);
}

/* Adds the largest A-digit of each bounded working mode to acc[]; fails
 * when B's leaves together would carry out of a mode of A. */
static inline cute_status distribute(const ctx *c, const cute_target *a,
                                     const cute_wmode *w, int nw, int64_t *acc)
{
  int i;
  for (i = 0; i < nw; i++) {
    int r = w[i].r;
    int64_t top;
    if (r == a->n - 1) continue; /* unbounded: never carries */
    top = (w[i].s - 1) * w[i].step; /* < a->s[r]: no overflow */
    if (acc[r] > a->s[r] - 1 - top) return overlap(c, a, r);
    acc[r] += top;
  }
  return CUTE_OK;
}

/* One result mode into the pool; 0 when the pool is full. */
static int put(pieces *p, int64_t s, int64_t d, cute_basis e)
{
  if (p->n == CUTE_MAX_LEAVES) return 0;
  p->s[p->n] = s;
  p->d[p->n] = d;
  p->e[p->n++] = e;
  return 1;
}

static cute_status too_many(const ctx *c)
{
  return cute_fail_op(c->err, CUTE_ELIMIT, OP, c->A, c->B,
                      "result above %d leaves (CUTE_MAX_LEAVES)",
                      CUTE_MAX_LEAVES);
}

/* Appends the modes of w to p as leaf k, sign applied.  They are already
 * coalesced: coalesced A has no mergeable neighbours, splitting a mode into
 * S/q : D*q keeps S*D, and only the last kept mode can have size 1 (it is
 * dropped; no mode at all is 1:0). */
static inline cute_status emit_piece(const ctx *c, pieces *p, int k,
                                     const cute_wmode *w, int nw, int negate)
{
  int i, n0 = p->n;
  for (i = 0; i < nw; i++) {
    if (w[i].s == 1) continue;
    if (negate && w[i].d == INT64_MIN) return overflow(c);
    if (!put(p, w[i].s, negate ? -w[i].d : w[i].d, w[i].e))
      return too_many(c);
  }
  if (p->n == n0 && !put(p, 1, 0, 0)) return too_many(c);
  p->off[k] = n0;
  p->cnt[k] = p->n - n0;
  if (p->cnt[k] > 1) p->extra += p->cnt[k] + 1;
  return CUTE_OK;
}

/* Steps 2 and 3 failed (status st, its message in c->err), yet leaf k of
 * B may still walk A linearly: when adding d never carries between the
 * first m modes of a -- every digit g_r of d in a's mixed radix (the last
 * mode unbounded) has (s-1)*g_r inside its mode -- then A(i*d) =
 * i * sum_r g_r*D_r, one mode whose stride is that sum (stride.c):
 *   (4,8):(1@0,1@1) o 2:5 = 2:(1@0+1@1)     (4,8):(1,10) o 2:5 = 2:11
 * The digits join B's other leaves' in acc (distribute).  Otherwise st
 * stands: the paper's divisibility conditions are what failed. */
static cute_status no_carry(const ctx *c, const cute_target *a, int m,
                            int64_t s, int64_t d, int64_t *acc, pieces *p,
                            int k, cute_status st)
{
  cute_wmode w[CUTE_MAX_LEAVES];
  cute_stride sum, dr;
  int r, nw = 0;
  int64_t x = d;
  sum.n = 0;
  for (r = 0; r < m; r++) {
    int64_t g = r < m - 1 ? x % a->s[r] : x;
    if (r < m - 1 && g > (a->s[r] - 1) / (s - 1)) return st; /* carries */
    if (r < m - 1) x /= a->s[r];
    cute_wput(w, &nw, s, 0, 0, g, r);
    cute_stride_of(&dr, a->d[r], a->e[r]);
    if (cute_stride_axpy(&sum, g, &dr, NULL)) return st;
  }
  if ((st = distribute(c, a, w, nw, acc))) return st;
  nw = 0;
  cute_wput(w, &nw, s, 0, 0, 1, 0);
  if (cute_stride_pack(&w[0].d, &w[0].e, &sum, c->err)) {
    cute_error_context(c->err, OP, c->A, c->B);
    return c->err ? c->err->code : CUTE_ELIMIT;
  }
  return emit_piece(c, p, k, w, nw, 0);
}

/* Leaf k of B walking the first m >= 2 modes of the coalesced target a
 * (ad = |d|): steps 2 and 3, then the carry budget and the pool. */
static cute_status compose_modes(const ctx *c, const cute_target *a, int m,
                                 int64_t s, int64_t d, int64_t ad,
                                 int64_t *acc, pieces *p, int k)
{
  cute_wmode w[CUTE_MAX_LEAVES];
  int nw = 0;
  cute_status st;
  if ((st = divide_keep(c, a, m, s, ad, w, &nw))) {
    /* d < 0 walks backwards through floor division: never linear here */
    if (st != CUTE_EDIVISIBILITY || d < 0) return st;
    return no_carry(c, a, m, s, d, acc, p, k, st);
  }
  if ((st = distribute(c, a, w, d < 0 ? 0 : nw, acc))) return st;
  return emit_piece(c, p, k, w, nw, d < 0);
}

static cute_status negative(const ctx *c, int64_t d)
{
  return cute_fail_op(c->err, CUTE_EINVAL, OP, c->A, c->B,
                      "negative stride in right operand not supported "
                      "(stride %lld)", (long long)d);
}

/* Leaf k of B (s : d, d != 0, already mapped to the integer stride d of
 * its target) composed with the coalesced target a.  Most leaves walk one
 * mode of a: that case is done here, without compose_modes' arrays (the
 * same steps: the stride is divided by Sbar_0 = 1, one mode keeps s). */
#if defined(__GNUC__)
__attribute__((always_inline)) /* one call per leaf of B: most of the time */
#endif
static inline cute_status compose_leaf(const ctx *c, const cute_target *a,
                                       int64_t s, int64_t d,
                                       int64_t *acc, pieces *p, int k)
{
  int m = a->n;
  int64_t ad, t;
  if (d == INT64_MIN) return overflow(c);
  ad = d < 0 ? -d : d;
  if (d < 0 && s > 1) {
    /* Backwards walks are linear only across whole non-last modes. */
    if (m > 1 && ad % a->r[m - 1] != 0) return negative(c, d);
  } else {
    m = cute_target_reached(a, cute_sat_mul(s - 1, ad));
  }
  if (m > 1) return compose_modes(c, a, m, s, d, ad, acc, p, k);
  if (cute_mul(a->d[0], ad, &t)) return overflow(c);
  if (d > 0 && a->n > 1) { /* distribute: mode 0 is bounded */
    int64_t top = (s - 1) * ad; /* reach < Sbar_1: no overflow */
    if (acc[0] > a->s[0] - 1 - top) return overlap(c, a, 0);
    acc[0] += top;
  }
  if (d < 0 && s > 1 && t == INT64_MIN) return overflow(c);
  p->off[k] = p->n;
  p->cnt[k] = 1;
  if (!put(p, s, s == 1 ? 0 : d < 0 ? -t : t, s == 1 ? 0 : a->e[0]))
    return too_many(c);
  return CUTE_OK;
}

/* ------------------------------------------------------------ right side -- */

/* Binary strides leave this file's algorithm (linear_f2.c composes). */
static cute_status binary(ctx *c)
{
  c->f2 = 1;
  return CUTE_ECODOMAIN;
}

/* All leaves of B, grouped by the mode of A they address (one group for an
 * integral B), each group sharing one coalesced target and one carry
 * budget. */
static cute_status compose_leaves(ctx *c, pieces *p)
{
  const cute_tuple *bs = &c->B->shape, *bd = &c->B->stride;
  int n = bs->nleaf, k, j, lo, hi, ints = 0, bases = 0;
  unsigned char done[CUTE_MAX_LEAVES];
  int64_t acc[CUTE_MAX_LEAVES];
  cute_target a;
  cute_status st;
  p->n = p->extra = p->ordered = 0;
  for (k = 0; k < n; k++) {
    done[k] = bd->v[k] == 0;
    if (done[k]) {
      p->off[k] = p->n;
      p->cnt[k] = 1;
      put(p, bs->v[k], 0, 0); /* first, so the pool has room */
    } else if (bd->e[k] == 0) ints = 1;
    else if (bd->e[k] & CUTE_BASIS_F2) return binary(c);
    else bases = 1;
  }
  if (ints && bases)
    return cute_fail_op(c->err, CUTE_ECODOMAIN, OP, c->A, c->B,
                        "strides of B mix integers and basis elements");
  for (k = 0; k < n; k++) {
    if (done[k]) continue;
    if ((st = target(c, k, &lo, &hi))) return st;
    if (cute_target_coalesce(&a, c->A, lo, hi) & CUTE_BASIS_F2)
      return binary(c);
    memset(acc, 0, a.n * sizeof acc[0]);
    for (j = k; j < n; j++) {
      if (done[j] || bd->e[j] != bd->e[k]) continue;
      done[j] = 1;
      if ((st = compose_leaf(c, &a, bs->v[j], bd->v[j], acc, p, j)))
        return st;
    }
  }
  return CUTE_OK;
}

/* compose_leaves for the common case, A's part and B with plain integer
 * strides: one group, B's leaves in order, none of the grouping.  It
 * keeps successes only: 0 where it does not apply (a basis or a binary
 * stride) or a leaf fails, and the caller runs compose_leaves, which
 * reports.  Both run the same compose_leaf on the same group in the same
 * order, so the same pieces come out (spec/c/test_fast_paths.c). */
static int compose_integral(const ctx *c, pieces *p)
{
  const cute_tuple *bs = &c->B->shape, *bd = &c->B->stride;
  int k, n = bs->nleaf;
  int64_t acc[CUTE_MAX_LEAVES];
  cute_target a;
  if (cute_target_coalesce(&a, c->A, c->a->leaf0, c->a->leaf1)) return 0;
  for (k = 0; k < a.n; k++) acc[k] = 0;
  p->n = p->extra = 0;
  p->ordered = 1;
  for (k = 0; k < n; k++) {
    if (bd->e[k]) return 0;
    if (bd->v[k] == 0) {
      p->off[k] = p->n;
      p->cnt[k] = 1;
      if (!put(p, bs->v[k], 0, 0)) return 0;
    } else if (compose_leaf(c, &a, bs->v[k], bd->v[k], acc, p, k)) {
      return 0;
    }
  }
  return 1;
}

/* The depth of R: B's tokens with leaf k replaced by its piece (a group
 * when it has several modes). */
static int depth_of(const cute_tuple *bs, const pieces *p)
{
  int i, k = 0, d = 0, maxd = 0;
  for (i = 0; i < bs->ntok; i++) {
    char t = bs->tok[i];
    d += t == '(' ? 1 : t == ')' ? -1 : 0;
    if (d > maxd) maxd = d;
    if (t == 'x' && p->cnt[k++] > 1 && d + 1 > maxd) maxd = d + 1;
  }
  return maxd;
}

/* R's token count and depth, checked before anything is written, so that
 * `out` is never left half-made.  The depth is walked only when R has the
 * tokens to pass CUTE_MAX_DEPTH - 1 (depth D takes 2D + 1 tokens), else
 * reported as 0. */
static inline cute_status measure(const ctx *c, const pieces *p, int *depth)
{
  int nt = c->B->shape.ntok + p->extra;
  *depth = nt > 2 * CUTE_MAX_DEPTH ? depth_of(&c->B->shape, p) : 0;
  if (nt > CUTE_MAX_TOKENS || *depth > CUTE_MAX_DEPTH)
    return cute_fail_op(c->err, CUTE_ELIMIT, OP, c->A, c->B,
                        "result above %d tokens (CUTE_MAX_TOKENS) or "
                        "depth %d (CUTE_MAX_DEPTH)",
                        CUTE_MAX_TOKENS, CUTE_MAX_DEPTH);
  return CUTE_OK;
}

/* One token of R, into the shape's and the stride's tokens at once: a
 * copy of the shape's tokens read back right after these byte stores
 * would stall on store forwarding (measured: a fifth of a small
 * composition). */
static inline void put_tok(cute_layout *r, int *nt, char c)
{
  r->shape.tok[*nt] = c;
  r->stride.tok[(*nt)++] = c;
}

/* Appends R, made from B's tokens tok[0, ntok) and the pieces, to the
 * scratch layout r (scratch.h: tokens, leaves of both); nb is B's leaf
 * count.  Leaves, then tokens: a byte store may alias anything, so the
 * leaves' loop would reload the pieces after each token written.  Pieces
 * made in B's leaf order (compose_integral) are the leaves in order, and
 * without groups B's tokens are R's. */
static void emit(cute_layout *r, const char *tok, int ntok, int nb,
                 const pieces *p)
{
  int i, k, q, nt = r->shape.ntok, nl = r->shape.nleaf;
  if (p->ordered)
    for (q = 0; q < p->n; q++, nl++) {
      r->shape.v[nl] = p->s[q];
      r->shape.e[nl] = 0;
      r->stride.v[nl] = p->d[q];
      r->stride.e[nl] = p->e[q];
    }
  else
    for (k = 0; k < nb; k++)
      for (q = p->off[k]; q < p->off[k] + p->cnt[k]; q++, nl++) {
        r->shape.v[nl] = p->s[q];
        r->shape.e[nl] = 0;
        r->stride.v[nl] = p->d[q];
        r->stride.e[nl] = p->e[q];
      }
  if (!p->extra && nt + ntok + 16 <= CUTE_MAX_TOKENS) {
    /* B's tokens as they are, in 16-byte chunks (a byte loop costs
     * more at these sizes; the chunks stay inside the arrays, which the
     * loop's second test, true whenever the first is, shows gcc -O3). */
    for (i = 0; i < ntok && nt + i + 16 <= CUTE_MAX_TOKENS; i += 16) {
      memcpy(r->shape.tok + nt + i, tok + i, 16);
      memcpy(r->stride.tok + nt + i, tok + i, 16);
    }
    nt += ntok;
    ntok = 0;
  }
  for (i = 0, k = 0; i < ntok; i++) {
    int n = tok[i] == 'x' ? p->cnt[k++] : 0;
    if (n <= 1) { put_tok(r, &nt, tok[i]); continue; }
    put_tok(r, &nt, '(');
    while (n-- > 0) put_tok(r, &nt, 'x');
    put_tok(r, &nt, ')');
  }
  r->shape.ntok = (uint8_t)nt;
  r->shape.nleaf = (uint8_t)nl;
}

/* A o B for all of A (the span a), reporting to err. */
static void start(ctx *c, cute_span *a, const cute_layout *A,
                  const cute_layout *B, cute_error *err)
{
  c->A = A;
  c->B = B;
  c->err = err;
  c->f2 = 0;
  c->a = a;
  a->tok0 = 0;
  a->tok1 = A->shape.ntok;
  a->leaf0 = 0;
  a->leaf1 = A->shape.nleaf;
}

/* out = R.  out may alias A or B: the pieces are computed before out is
 * written, and B's tokens copied first when out is B (only then:
 * measured, the copy costs ~10% of a small composition). */
static void finish(cute_layout *out, const cute_layout *B, const pieces *p)
{
  char buf[CUTE_MAX_TOKENS];
  const char *tok = B->shape.tok;
  int nb = B->shape.ntok, nl = B->shape.nleaf;
  if (out == B) tok = memcpy(buf, B->shape.tok, nb);
  out->shape.ntok = out->shape.nleaf = 0; /* cute_scratch_start */
  emit(out, tok, nb, nl, p);
  out->stride.ntok = out->shape.ntok;
  out->stride.nleaf = out->shape.nleaf;
}

cute_status cute_composition_general(cute_layout *out, const cute_layout *A,
                                     const cute_layout *B, cute_error *err)
{
  ctx c;
  pieces p;
  cute_span a;
  int depth;
  cute_status st;
  if (cute_tuple_has_sum(&A->stride) || cute_tuple_has_sum(&B->stride))
    return cute_composition_sums(out, A, B, err);
  start(&c, &a, A, B, err);
  if ((st = compose_leaves(&c, &p)))
    return c.f2 ? cute_f2_composition(out, A, B, err) : st;
  if ((st = measure(&c, &p, &depth)))
    return st;
  finish(out, B, &p);
  return CUTE_OK;
}

/* The integral pass where it succeeds (an integral A and B have no sum
 * strides), else the general path, which decides and reports.  Apart
 * from cute_composition, so that a call the closed form takes does not
 * set up its frame (the pieces and the target, ~2 KB). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static cute_status compose_pass(cute_layout *out, const cute_layout *A,
                                const cute_layout *B, cute_error *err)
{
  ctx c;
  pieces p;
  cute_span a;
  int depth;
  start(&c, &a, A, B, NULL);
  if (!compose_integral(&c, &p) || measure(&c, &p, &depth))
    return cute_composition_general(out, A, B, err);
  finish(out, B, &p);
  return CUTE_OK;
}

/* The closed form (composition_closed.c), else compose_pass. */
cute_status cute_composition(cute_layout *out, const cute_layout *A,
                             const cute_layout *B, cute_error *err)
{
  return cute_composition_closed(out, A, B) ? CUTE_OK
                                            : compose_pass(out, A, B, err);
}

/* ----------------------------------------------------------------- tiler -- */

/* "composition(A, <T>): mode i: <inner message>", A and T elided in their
 * middle when long and the inner message keeping its reason (error.c). */
static cute_status tiler_fail(cute_error *err, cute_status code,
                              const cute_layout *A, const cute_tiler *T,
                              int mode, const char *reason)
{
  char a[CUTE_MAX_TEXT], t[CUTE_MAX_TEXT], note[32];
  if (!err) return code;
  /* reason may be err->msg itself (mode_fail passes it). */
  if (reason != err->msg)
    cute_fail(err, code, "%s", reason);
  err->code = code;
  err->column = 0;
  if (mode >= 0) {
    snprintf(note, sizeof note, "mode %d: ", mode);
    cute_error_note(err, note);
  }
  cute_layout_print(A, a, sizeof a);
  cute_tiler_print(T, t, sizeof t);
  cute_error_prefix(err, OP, a, t, (char *)NULL);
  return code;
}

/* Mode i failed in the one-pass build below, which never makes mode i of
 * A as a layout of its own.  The message names it, so this cold path makes
 * it and composes again: the same inputs fail the same way. */
static cute_status mode_fail(cute_error *err, cute_status st,
                             const cute_layout *A, const cute_tiler *T, int i)
{
  cute_layout ai, ri;
  if (!err) return st;
  if ((st = cute_layout_mode(&ai, A, i, err)) == CUTE_OK)
    st = cute_composition(&ri, &ai, &T->mode[i], err);
  return tiler_fail(err, st, A, T, i, err->msg);
}

/* The limits of appending a mode of ntok tokens, nleaf leaves and the
 * given depth to the open group r, whose ')' is reserved (the checks and
 * messages of cute_tuple_push); NULL when it fits. */
static const char *overfull(const cute_layout *r, int ntok, int nleaf,
                            int depth, char *why, size_t cap)
{
  if (r->shape.ntok + ntok + 1 > CUTE_MAX_TOKENS)
    snprintf(why, cap, "tuple: more than %d tokens (CUTE_MAX_TOKENS)",
             CUTE_MAX_TOKENS);
  else if (r->shape.nleaf + nleaf > CUTE_MAX_LEAVES)
    snprintf(why, cap, "tuple: more than %d leaves (CUTE_MAX_LEAVES)",
             CUTE_MAX_LEAVES);
  else if (1 + depth > CUTE_MAX_DEPTH)
    snprintf(why, cap, "tuple: depth above %d (CUTE_MAX_DEPTH)",
             CUTE_MAX_DEPTH);
  else
    return NULL;
  return why;
}

cute_status cute_composition_append(cute_layout *r, const cute_layout *A,
                                    const cute_span *a, const cute_layout *B,
                                    char *why, size_t cap)
{
  ctx c;
  pieces p;
  cute_status st = CUTE_OK;
  int depth;
  c.A = A;
  c.B = B;
  c.a = a;
  c.err = NULL; /* the callers report (mode_fail, the general paths) */
  c.f2 = 0;
  why[0] = '\0';
  if (!compose_integral(&c, &p) && (st = compose_leaves(&c, &p)) && c.f2)
    snprintf(why, cap, "binary (F2) strides compose with a layout, not by "
             "a tiler's modes");
  if (st || (st = measure(&c, &p, &depth)))
    return st;
  /* p.n: the pool holds exactly this composition's leaves. */
  if (overfull(r, B->shape.ntok + p.extra, p.n, depth, why, cap))
    return CUTE_ELIMIT;
  emit(r, B->shape.tok, B->shape.ntok, B->shape.nleaf, &p);
  return CUTE_OK;
}

/* (A0 o T0, A1 o T1, ...) in one pass: each mode of A is composed where it
 * lies in A and its result emitted straight into the result. */
cute_status cute_composition_flat(cute_layout *out, const cute_layout *A,
                                  const cute_tiler *T, cute_error *err)
{
  cute_layout tmp, *r;
  cute_span a[CUTE_MAX_TILER];
  cute_status st;
  int i;
  char why[96];
  if (T->n < 0 || T->n > CUTE_MAX_TILER)
    return cute_fail(err, CUTE_EINVAL, OP ": malformed tiler (%d modes)",
                     T->n);
  if (cute_tuple_spans(&A->shape, a, T->n) < T->n) {
    snprintf(why, sizeof why, "tiler has %d modes but the layout has rank %d",
             T->n, cute_layout_rank(A));
    return tiler_fail(err, CUTE_ERANK, A, T, -1, why);
  }
  r = cute_tiler_target(out, &tmp, A, T);
  r->shape.tok[r->shape.ntok++] = '(';
  for (i = 0; i < T->n; i++) {
    st = cute_composition_append(r, A, &a[i], &T->mode[i], why, sizeof why);
    if (st && why[0]) return tiler_fail(err, st, A, T, i, why);
    if (st) return mode_fail(err, st, A, T, i);
  }
  r->shape.tok[r->shape.ntok++] = ')';
  cute_tiler_done(out, r);
  return CUTE_OK;
}
