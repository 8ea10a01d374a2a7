/*
 * divide.c -- logical divide and its zipped, tiled and flat arrangements
 * (paper 3.5.2; CuTe's logical_divide family).
 *
 *   A / B = A o (B, B*),   B* = coalesce(complement(B, size(A)))
 *
 * The complement is taken against size(A), so (B, B*) covers all of A;
 * a coordinate tiler B (strides a@i naming A's modes) gets its rest mode
 * by mode (coordinate_rest below).
 * B* is coalesced, as CuTe's complement is: the algebra keeps a trailing
 * size-1 mode whose stride marks the end of the codomain (complement(8:2,
 * 16) = (2,1):(1,16)), needed on the extended domain but always at
 * coordinate 0 inside (B, B*), which covers A; without it the rest mode
 * reads as the paper prints it ((8,16):(20,1) / <4:1,8:2> has rest (2,2)).
 *
 * Three ways to the same result: a closed form when every divided mode
 * and tiler layout is one integral leaf (the tile of a matrix), written
 * with its arrangement straight into out; a one-pass form for flat lists;
 * the general path (tiler.c's apply over divide1), which alone reports.
 */
#include "tiling.h"

#include <string.h>

/* B_p's strides as integer indices of A_p: a nested a@q@... names the
 * sub-mode at path (q, ...) of A_p, whose coordinate i is the index
 * i * (the compact stride of its first leaf), colexicographic as every
 * integer coordinate: (3,4) at 2@1 -> 6. */
static cute_status to_index(cute_layout *Bp, const cute_layout *Ap,
                            cute_error *err)
{
  cute_layout C;
  int k, j;
  cute_status st = cute_layout_left(&C, &Ap->shape, err);
  if (st) return st;
  for (k = 0; k < Bp->stride.nleaf; k++) {
    cute_basis e = Bp->stride.e[k];
    cute_span sp, sub;
    if (e == 0) continue;
    sp.tok0 = sp.leaf0 = 0;
    sp.tok1 = C.shape.ntok;
    sp.leaf1 = C.shape.nleaf;
    for (j = 0; j < CUTE_BASIS_LEN(e); j++, sp = sub)
      if (cute_tuple_child(&C.shape, &sp, CUTE_BASIS_AT(e, j), &sub))
        return cute_fail(err, CUTE_ERANK, "stride leaf %d of the tiler "
                         "names no sub-mode of the layout", k);
    if (cute_mul(Bp->stride.v[k], C.stride.v[sp.leaf0], &Bp->stride.v[k]))
      return CUTE_OVERFLOW(err, "divide");
    Bp->stride.e[k] = 0;
  }
  return CUTE_OK;
}

/* The rest B* of a coordinate tiler B, whose strides name modes of A (the
 * paper's tilers as coordinate layouts, 3.3.5): per mode p of A, the
 * complement of B's component along p (in A_p's integer indices) against
 * size(A_p), its strides a taken as a@p; a mode B never names is whole,
 * size(A_p):1@p.  So (B, B*) covers A's coordinates, as the by-mode tiler
 * of the same components does:
 *   (8,8):(9,1) / 4:1@0 = A o (4:1@0, (2,8):(4@0,1@1))
 *                       = (4,(2,8)):(9,(36,1))
 * A sum stride moves along several modes at once, so per-mode rests
 * would not be disjoint from B: refused. */
static cute_status coordinate_rest(cute_layout *rest, const cute_layout *A,
                                   const cute_layout *B, cute_error *err)
{
  cute_layout acc, Ap, Bp, Rp;
  int64_t n;
  int k, p, any, r = cute_layout_rank(A);
  cute_status st;
  for (k = 0; k < B->stride.nleaf; k++) {
    cute_basis e = B->stride.e[k];
    if (CUTE_BASIS_IS_SUM(e))
      return cute_fail(err, CUTE_ECODOMAIN, "stride leaf %d of the tiler is "
                       "a sum, which moves along several modes at once: "
                       "the rest is taken mode by mode", k);
    if (e == 0 && B->stride.v[k] != 0)
      return cute_fail(err, CUTE_ECODOMAIN, "strides of the tiler mix "
                       "integers and basis elements");
    if (e != 0 && CUTE_BASIS_AT(e, 0) >= r)
      return cute_fail(err, CUTE_ERANK, "stride leaf %d of the tiler names "
                       "mode %d of a rank-%d layout", k, CUTE_BASIS_AT(e, 0),
                       r);
  }
  cute_scratch_start(&acc);
  if ((st = cute_scratch_tok(&acc, '(', err))) return st;
  for (p = 0; p < r; p++) {
    cute_stride_component(&Bp, B, p, &any);
    if ((st = cute_layout_mode(&Ap, A, p, err)) ||
        (st = cute_layout_size(&Ap, &n, err)))
      return st;
    if (!any) {
      cute_tuple s, d;
      cute_tuple_int(&s, n);
      cute_tuple_int(&d, 1);
      st = cute_layout_make(&Rp, &s, &d, err);
    } else if ((st = to_index(&Bp, &Ap, err)) == CUTE_OK) {
      st = cute_complement(&Rp, &Bp, n, err);
    }
    if (st || (st = cute_coalesce(&Rp, &Rp, err))) return st;
    for (k = 0; k < Rp.stride.nleaf; k++)
      Rp.stride.e[k] = Rp.stride.v[k] ? CUTE_BASIS1(p) : 0;
    if ((st = cute_scratch_whole(&acc, &Rp, err))) return st;
  }
  if ((st = cute_scratch_tok(&acc, ')', err)) ||
      (st = cute_scratch_finish(rest, &acc, err)))
    return st;
  return CUTE_OK;
}

static cute_status divide1(cute_layout *out, const cute_layout *A,
                           const cute_layout *B, cute_error *err)
{
  cute_layout rest, both;
  const cute_layout *parts[2];
  int64_t n;
  cute_status st;
  parts[0] = B;
  parts[1] = &rest;
  if (cute_layout_has_basis(B))
    st = coordinate_rest(&rest, A, B, err);
  else if ((st = cute_layout_size(A, &n, err)) == CUTE_OK)
    st = cute_complement(&rest, B, n, err);
  if (st || (st = cute_coalesce(&rest, &rest, err)) ||
      (st = cute_layout_concat(&both, parts, 2, err)))
    return st;
  return cute_composition(out, A, &both, err);
}

/* -------------------------------------------------------- closed form -- */

/* A mode of A that is one integral leaf s:d, divided by a tiler layout
 * that is one integral leaf t:u -- the tile of a matrix, the common case
 * -- has a closed form.  complement(t:u, s) = (u, c):(1, t*u) with
 * c = ceil(s / (t*u)) (complement.c: the hole below u, then the rest),
 * coalesced (a size-1 leaf dropped, 1:0 when both are); and a one-leaf
 * s:d composes with a leaf x:y by scaling y by d (composition.c: one mode,
 * unbounded on its extended domain), so
 *   s:d / t:u = (t, (u, c)):(d*u, (d, d*t*u))
 * as divide1 makes it.  Tile t:tile, rest of nr leaves (a group if 2). */

/* The closed form of a leaf s:d divided by B; 0 where it does not apply
 * (B not one leaf, a size below 2, a stride not positive, an overflow):
 * divide1 then decides. */
#if defined(__GNUC__)
__attribute__((always_inline)) /* once a mode of the tile's divide */
#endif
static inline int split_leaf(cute_split *q, int64_t s, int64_t d,
                             const cute_layout *B)
{
  int64_t t, u, tu, dtu, c;
  int nr;
  if (!cute_tiler_leaf(B)) return 0;
  t = B->shape.v[0];
  u = B->stride.v[0];
  if (s < 2 || d <= 0 || t < 2 || u < 1 || cute_mul(t, u, &tu) ||
      cute_mul(d, tu, &dtu))
    return 0;
  q->t = t;
  q->tile = d * u; /* <= d*t*u */
  if (u > 1) {
    q->rs[0] = u;
    q->rd[0] = d;
  }
  nr = u > 1;
  /* tu is nearly always a power of two: shift, a division costs tens of
   * cycles (a third of the whole divide). */
  if ((tu & (tu - 1)) == 0) {
    int z = __builtin_ctzll((uint64_t)tu);
    c = (s >> z) + ((s & (tu - 1)) != 0);
  } else {
    c = s / tu + (s % tu != 0);
  }
  if (c > 1) {
    q->rs[nr] = c;
    q->rd[nr++] = dtu;
  }
  if (nr == 0) {
    q->rs[0] = 1;
    q->rd[0] = 0;
    nr = 1;
  }
  q->nr = nr;
  return 1;
}

/* The rest of q at token nt and leaf nl: whole (one element, a group
 * when it has two leaves) or as its modes; the next token position. */
static inline int rest(cute_layout *o, int nt, int nl, const cute_split *q,
                       int whole)
{
  int group = whole && q->nr == 2;
  if (group) nt = cute_put_tok(o, nt, '(');
  nt = cute_put_tok(o, nt, 'x');
  cute_put_leaf(o, nl, q->rs[0], q->rd[0]);
  if (q->nr == 2) {
    nt = cute_put_tok(o, nt, 'x');
    cute_put_leaf(o, nl + 1, q->rs[1], q->rd[1]);
  }
  return group ? cute_put_tok(o, nt, ')') : nt;
}

/* ---------------------------------------------------------- one pass -- */

/* dst = (x, y), the concatenation written directly: the group of B and
 * its rest is made once per divided mode.  0 when it would pass a limit. */
static int pair(cute_layout *dst, const cute_layout *x, const cute_layout *y)
{
  int nx = x->shape.ntok, ny = y->shape.ntok, lx = x->shape.nleaf;
  int ly = y->shape.nleaf;
  if (nx + ny + 2 > CUTE_MAX_TOKENS || lx + ly > CUTE_MAX_LEAVES ||
      cute_tuple_depth(&x->shape) + 1 > CUTE_MAX_DEPTH ||
      cute_tuple_depth(&y->shape) + 1 > CUTE_MAX_DEPTH)
    return 0;
  dst->shape.tok[0] = '(';
  memcpy(dst->shape.tok + 1, x->shape.tok, nx);
  memcpy(dst->shape.tok + 1 + nx, y->shape.tok, ny);
  dst->shape.tok[nx + ny + 1] = ')';
  memcpy(dst->shape.v, x->shape.v, lx * sizeof x->shape.v[0]);
  memcpy(dst->shape.v + lx, y->shape.v, ly * sizeof y->shape.v[0]);
  memset(dst->shape.e, 0, (lx + ly) * sizeof dst->shape.e[0]);
  memcpy(dst->stride.v, x->stride.v, lx * sizeof x->stride.v[0]);
  memcpy(dst->stride.v + lx, y->stride.v, ly * sizeof y->stride.v[0]);
  memcpy(dst->stride.e, x->stride.e, lx * sizeof x->stride.e[0]);
  memcpy(dst->stride.e + lx, y->stride.e, ly * sizeof y->stride.e[0]);
  dst->shape.ntok = dst->stride.ntok = (uint8_t)(nx + ny + 2);
  dst->shape.nleaf = dst->stride.nleaf = (uint8_t)(lx + ly);
  memcpy(dst->stride.tok, dst->shape.tok, nx + ny + 2);
  return 1;
}

/* (B, B*) for the element a of A, as divide1 makes it, for the one-pass
 * divide below; any failure is for the general path to report. */
static int with_rest(cute_layout *both, const cute_layout *A,
                     const cute_span *a, const cute_layout *B)
{
  cute_layout bstar;
  cute_split q;
  int64_t n = 1;
  int k;
  for (k = a->leaf0; k < a->leaf1; k++)
    if (cute_mul(n, A->shape.v[k], &n)) return 0;
  /* One leaf t:u: (t:u, B*) in closed form, split_leaf at stride 1. */
  if (split_leaf(&q, n, 1, B)) {
    k = rest(both, cute_put_tok(both, cute_put_tok(both, 0, '('), 'x'), 1, &q, 1);
    both->shape.ntok = both->stride.ntok = (uint8_t)cute_put_tok(both, k, ')');
    both->shape.nleaf = both->stride.nleaf = (uint8_t)(1 + q.nr);
    cute_put_leaf(both, 0, q.t, q.tile);
    return 1;
  }
  /* A coordinate tiler's rest is divide1's coordinate_rest. */
  return !cute_layout_has_basis(B) && !cute_tuple_check(&B->shape, NULL) &&
         !cute_tuple_check(&B->stride, NULL) &&
         !cute_complement(&bstar, B, n, NULL) &&
         !cute_coalesce(&bstar, &bstar, NULL) && pair(both, B, &bstar);
}

/* The logical divide by a layout or a flat list of layouts in one pass:
 * each divided mode is composed where it lies in A and emitted straight
 * into the result, the rest of A copied after it; no mode of A is copied
 * out and no intermediate result copied back.  0 when T is another tiler
 * or a step fails: the general path (tiler_apply over divide1, the same
 * steps) then decides and reports. */
static int divide_flat(cute_layout *out, const cute_layout *A,
                       const cute_tiler *T)
{
  cute_layout tmp, *r, both;
  cute_span a;
  char why[96];
  int i, rank;
  /* Sum strides compose through stride.c, not composition.c's pass. */
  if (cute_tuple_has_sum(&A->stride)) return 0;
  if (cute_tiler_tok(T, 0) == 'L') {
    a.tok0 = a.leaf0 = 0;
    a.tok1 = A->shape.ntok;
    a.leaf1 = A->shape.nleaf;
    return with_rest(&both, A, &a, &T->mode[0]) &&
           !cute_composition(out, A, &both, NULL);
  }
  /* A's rank (a walk of its tokens) only for a list: a whole-layout
   * tiler's divide needs none (a twentieth of its cost). */
  rank = cute_layout_rank(A);
  if (!cute_tiler_is_flat(T) || T->n > rank) return 0;
  r = cute_tiler_target(out, &tmp, A, T);
  r->shape.tok[r->shape.ntok++] = '(';
  for (i = 0; i < T->n; i++) {
    cute_tuple_span(&A->shape, i, &a); /* i < rank: it exists */
    if (!with_rest(&both, A, &a, &T->mode[i]) ||
        cute_composition_append(r, A, &a, &both, why, sizeof why))
      return 0;
  }
  if (cute_scratch_modes(r, A, T->n, rank, NULL) ||
      cute_scratch_tok(r, ')', NULL) || cute_tuple_check(&r->shape, NULL))
    return 0;
  cute_tiler_done(out, r);
  return 1;
}

int cute_divide_gather(cute_closed *c, const cute_layout *A,
                       const cute_tiler *T)
{
  const cute_tuple *as = &A->shape;
  int i, p, d;
  c->list = cute_tiler_tok(T, 0) == '<';
  c->n = T->n;
  if (c->list ? T->ntok != 0 && !cute_tiler_is_flat(T)
              : cute_tiler_tok(T, 0) != 'L')
    return 0;
  if (as->tok[0] == 'x') {
    c->tok0 = c->ntok = c->leaf0 = c->nleaf = c->depth = 0;
    return c->n == 1 && !A->stride.e[0] &&
           split_leaf(&c->q[0], as->v[0], A->stride.v[0], &T->mode[0]);
  }
  if (!c->list || c->n < 1 || c->n > CUTE_MAX_LEAVES || c->n >= as->ntok)
    return 0;
  for (i = 0; i < c->n; i++)
    if (as->tok[i + 1] != 'x' || A->stride.e[i] ||
        !split_leaf(&c->q[i], as->v[i], A->stride.v[i], &T->mode[i]))
      return 0;
  c->tok0 = c->n + 1;
  c->ntok = as->ntok - 1 - c->tok0;
  c->leaf0 = c->n;
  c->nleaf = as->nleaf - c->n;
  for (c->depth = d = 0, p = c->tok0; p < c->tok0 + c->ntok; p++) {
    d += (as->tok[p] == '(') - (as->tok[p] == ')');
    if (d > c->depth) c->depth = d;
  }
  return 1;
}

void cute_closed_tail(cute_layout *o, const cute_layout *A,
                      const cute_closed *c, int nt, int nl)
{
  int k;
  for (k = c->ntok - 1; k >= 0; k--) /* moving right: from the end */
    cute_put_tok(o, nt + k, A->shape.tok[c->tok0 + k]);
  for (k = c->nleaf - 1; k >= 0; k--) {
    o->shape.v[nl + k] = A->shape.v[c->leaf0 + k];
    o->shape.e[nl + k] = 0;
    o->stride.v[nl + k] = A->stride.v[c->leaf0 + k];
    o->stride.e[nl + k] = A->stride.e[c->leaf0 + k];
  }
}

/* The result's size: 0 when it would pass a limit (the general path then
 * reports).  A zipped list nests A's modes past it one level deeper. */
static int fits(const cute_closed *c, int how, int *ntok, int *nleaf)
{
  int i, nt = 2 + c->ntok, nl = c->nleaf, deep = 0;
  int split = !c->list && (how == CUTE_TILED || how == CUTE_FLAT);
  for (i = 0; i < c->n; i++) {
    nl += 1 + c->q[i].nr;
    nt += 1 + (c->list && how < 0 ? 2 : 0) +
          (c->q[i].nr == 2 ? (split ? 2 : 4) : 1);
  }
  if (c->list && how >= 0)
    nt += (how == CUTE_FLAT ? 0 : 2) + (how == CUTE_ZIPPED ? 2 : 0);
  if (c->list && how == CUTE_ZIPPED && c->ntok) deep = 2 + c->depth;
  *ntok = nt;
  *nleaf = nl;
  return nt <= CUTE_MAX_TOKENS && nl <= CUTE_MAX_LEAVES &&
         deep <= CUTE_MAX_DEPTH;
}

/* Writes the result arranged by how (tiling.h; -1 the logical divide):
 *   logical  ((t0,r0),(t1,r1),...,A's rest)
 *   zipped   ((t0,t1,...),(r0,r1,...,A's rest))
 *   tiled    ((t0,t1,...),r0,r1,...,A's rest)
 *   flat     (t0,t1,...,r0,r1,...,A's rest)
 * T one layout over a one-leaf A: (t0,r0), tiled and flat splitting r0. */
static void emit_closed(cute_layout *o, const cute_layout *A,
                        const cute_closed *c, int how, int ntok, int nleaf)
{
  int i, nt = 0, nl = 0, pair = how < 0 || !c->list;
  int tiles = !pair && how != CUTE_FLAT, zipped = c->list && how == CUTE_ZIPPED;
  int whole = how < 0 || how == CUTE_ZIPPED;
  cute_closed_tail(o, A, c, ntok - 1 - zipped - c->ntok,
                   nleaf - c->nleaf);
  nt = cute_put_tok(o, nt, '(');
  if (tiles) nt = cute_put_tok(o, nt, '(');
  for (i = 0; i < c->n; i++) {
    const cute_split *q = &c->q[i];
    if (pair && c->list) nt = cute_put_tok(o, nt, '(');
    nt = cute_put_tok(o, nt, 'x');
    cute_put_leaf(o, nl++, q->t, q->tile);
    if (pair) {
      nt = rest(o, nt, nl, q, whole);
      nl += q->nr;
    }
    if (pair && c->list) nt = cute_put_tok(o, nt, ')');
  }
  if (tiles) nt = cute_put_tok(o, nt, ')');
  if (zipped) nt = cute_put_tok(o, nt, '(');
  for (i = 0; i < c->n && !pair; i++) {
    nt = rest(o, nt, nl, &c->q[i], 1);
    nl += c->q[i].nr;
  }
  nt += c->ntok;
  nl += c->nleaf;
  if (zipped) nt = cute_put_tok(o, nt, ')');
  nt = cute_put_tok(o, nt, ')');
  o->shape.ntok = o->stride.ntok = (uint8_t)nt;
  o->shape.nleaf = o->stride.nleaf = (uint8_t)nl;
}

/* The divide by T arranged by how, in closed form (above); 0 where that
 * does not apply.  Everything read from T before out is written, so out
 * may be a layout of T; A's rest is moved before the head is written. */
static int divide_closed(cute_layout *out, const cute_layout *A,
                         const cute_tiler *T, int how)
{
  cute_closed c;
  int ntok, nleaf;
  if (!cute_divide_gather(&c, A, T) || !fits(&c, how, &ntok, &nleaf))
    return 0;
  emit_closed(out, A, &c, how, ntok, nleaf);
  return 1;
}

/* A's modes past its first n, moved to token nt and leaf nl of out. */
static void tile_tail(cute_layout *out, const cute_layout *A, int n,
                      int nt, int nl)
{
  cute_closed c; /* its tail fields only */
  c.tok0 = n + 1;
  c.ntok = A->shape.ntok - 2 - n;
  c.leaf0 = n;
  c.nleaf = A->shape.nleaf - n;
  cute_closed_tail(out, A, &c, nt, nl);
}

/* The logical divide of the tile of a matrix -- a tiler <t0:u0,...>
 * made of layouts (ntok 0) over A's first modes, each one leaf -- the
 * closed form above without its gathering and arranging, written
 * straight into out one mode at a time, ((t0,r0),(t1,r1),...,A's rest):
 * its tokens eight bytes at a time from tile_toks (a byte loop costs
 * more).  0 where that does not apply, where out is read (A or a layout
 * of T: divide_closed reads all first) or where the longest head (7
 * tokens, 3 leaves a mode) might not fit (divide_closed counts exactly);
 * out may then be half written.  The 8-byte stores fit: mode i's start at
 * token 1 + 7i, and 6n + ntok(A) <= CUTE_MAX_TOKENS with ntok(A) >= n + 2
 * keeps 1 + 7(n-1) + 8 within it. */
static const char tile_toks[2][8] = {"(xx)", "(x(xx))"};

#if defined(__GNUC__)
__attribute__((always_inline)) /* cute_logical_divide's first try */
#endif
static inline int divide_tile(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T)
{
  const cute_tuple *as = &A->shape;
  int i, n = T->n, nt = 1, nl = 0;
  /* The longest head, 7 tokens and 3 leaves a mode, then A's rest
   * (as->ntok - n - 2 tokens, as->nleaf - n leaves) and ')'. */
  if (n < 1 || n > CUTE_MAX_TILER || n + 2 > as->ntok ||
      as->tok[0] != '(' || cute_tile_aliased(out, A, T, n) ||
      6 * n + as->ntok > CUTE_MAX_TOKENS ||
      2 * n + as->nleaf > CUTE_MAX_LEAVES)
    return 0;
  for (i = 0; i < n; i++) {
    cute_split q;
    int two;
    if (as->tok[i + 1] != 'x' || A->stride.e[i] ||
        !split_leaf(&q, as->v[i], A->stride.v[i], &T->mode[i]))
      return 0;
    two = q.nr == 2;
    cute_put_leaf(out, nl++, q.t, q.tile);
    cute_put_leaf(out, nl++, q.rs[0], q.rd[0]);
    memcpy(out->shape.tok + nt, tile_toks[two], 8);
    memcpy(out->stride.tok + nt, tile_toks[two], 8);
    if (two) cute_put_leaf(out, nl++, q.rs[1], q.rd[1]);
    nt += 4 + 3 * two;
  }
  out->shape.tok[0] = out->stride.tok[0] = '(';
  if (as->ntok > n + 2) tile_tail(out, A, n, nt, nl); /* a matrix: none */
  nt += as->ntok - n - 2;
  out->shape.ntok = out->stride.ntok = (uint8_t)cute_put_tok(out, nt, ')');
  out->shape.nleaf = out->stride.nleaf = (uint8_t)(nl + as->nleaf - n);
  return 1;
}

/* The divides: the closed form where it applies, else the one-pass form
 * (arranged by the run), else the general path. */
static int divide_pass(cute_layout *out, const cute_layout *A,
                       const cute_tiler *T, int how)
{
  return divide_closed(out, A, T, how) || (how < 0 && divide_flat(out, A, T));
}

cute_status cute_logical_divide(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, cute_error *err)
{
  if (T->ntok == 0 && divide_tile(out, A, T)) return CUTE_OK;
  return cute_tiler_run(out, A, T, -1, "logical_divide",
                        divide_pass, divide1, err);
}

cute_status cute_divide_general(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, int how,
                                cute_error *err)
{
  static const char *const names[] = {"zipped_divide", "tiled_divide",
                                      "flat_divide"};
  return cute_tiler_run(out, A, T, how, how < 0 ? "logical_divide"
                        : names[how], NULL, divide1, err);
}

cute_status cute_zipped_divide(cute_layout *out, const cute_layout *A,
                               const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_ZIPPED, "zipped_divide",
                        divide_pass, divide1, err);
}

cute_status cute_tiled_divide(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_TILED, "tiled_divide",
                        divide_pass, divide1, err);
}

cute_status cute_flat_divide(cute_layout *out, const cute_layout *A,
                             const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_FLAT, "flat_divide",
                        divide_pass, divide1, err);
}
