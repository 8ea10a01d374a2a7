/*
 * product.c -- logical product and the products built on it (paper
 * 3.5.1, Figures 10 and 11; CuTe's logical_product family).
 *
 *   A x B = (A, A* o B),   A* the minimal complement of A
 *
 * The paper's own examples use the minimal complement on its extended
 * domain: its last mode's stride marks the end of A's codomain, so A* o B
 * keeps stepping past A for as long as B needs.  This is the same function
 * as complement(A, size(A) * cosize(B)) wherever that exists, and it also
 * exists where that cotarget's holes do not tile exactly, as in
 * (4,8):(20,2) x (3,2):(2,1) (paper 3.5.1).
 */
#include "leaves.h"
#include "tiling.h"

#include <string.h>

static cute_status product1(cute_layout *out, const cute_layout *A,
                            const cute_layout *B, cute_error *err)
{
  cute_layout grid;
  const cute_layout *parts[2];
  cute_status st;
  parts[0] = A;
  parts[1] = &grid;
  if ((st = cute_complement(&grid, A, 0, err)) ||
      (st = cute_composition(&grid, &grid, B, err)))
    return st;
  return cute_layout_concat(out, parts, 2, err);
}

/* star o B's leaves into r from leaf nl on, where star is one mode c:D
 * (A's complement when A is compact: the usual case) and B integral:
 * each leaf s:d of B is s:D*d, as composition.c makes it (one mode of
 * star, unbounded on its extended domain: it scales), s:0 for d = 0 and
 * 1:0 for s = 1.  0 where that does not apply (a negative or basis
 * stride, an overflow): cute_composition then decides. */
static int scale_leaves(cute_layout *r, int nl, int64_t D,
                        const cute_layout *B)
{
  const cute_tuple *bs = &B->shape, *bd = &B->stride;
  int k;
  int64_t d;
  for (k = 0; k < bs->nleaf; k++, nl++) {
    int64_t s = bs->v[k];
    if (bs->e[k] != 0 || bd->e[k] != 0 || bd->v[k] < 0) return 0;
    d = 0; /* a size-1 leaf still overflows as composition.c's does */
    if (bd->v[k] != 0 && cute_mul(D, bd->v[k], &d)) return 0;
    cute_put_leaf(r, nl, s, s == 1 ? 0 : d);
  }
  return 1;
}

/* Appends star o B to r (scale_leaves) when star is one leaf; r's counts
 * untouched where that does not apply or r has no room. */
static int scaled(cute_layout *r, const cute_layout *star,
                  const cute_layout *B)
{
  const cute_tuple *bs = &B->shape;
  int k, nt = r->shape.ntok, nl = r->shape.nleaf;
  if (star->shape.ntok != 1 || nt + bs->ntok + 2 > CUTE_MAX_TOKENS ||
      nl + bs->nleaf > CUTE_MAX_LEAVES ||
      !scale_leaves(r, nl, star->stride.v[0], B))
    return 0;
  for (k = 0; k < bs->ntok; k++)
    r->shape.tok[nt + k] = r->stride.tok[nt + k] = bs->tok[k];
  r->shape.ntok = (uint8_t)(nt + bs->ntok);
  r->shape.nleaf = (uint8_t)(nl + bs->nleaf);
  return 1;
}

/* t's tokens "(" a[0, na) g's ")" (na <= 6, g's at most 32 tokens: B's
 * 16 and a group per leaf): fixed-size copies, no token loop. */
static void product_tokens(cute_tuple *t, const char *a, int na,
                           const cute_tuple *g)
{
  t->tok[0] = '(';
  memcpy(t->tok + 1, a, 6);
  memcpy(t->tok + 1 + na, g->tok, 32);
  t->tok[1 + na + g->ntok] = ')';
  t->ntok = (uint8_t)(na + g->ntok + 2);
}

/* Appends (A_a, A_a* o B) to the scratch r for the element a of A, as
 * product1 makes it (its own group); 0 when a step fails or a limit
 * would be passed: the general path then reports. */
static int product_append(cute_layout *r, const cute_layout *A,
                          const cute_span *a, const cute_layout *B)
{
  cute_layout star, grid;
  if (!cute_tiler_layout_ok(B) ||
      !cute_complement_integral(&star, A, a, 0) ||
      cute_scratch_tok(r, '(', NULL) || cute_scratch_span(r, A, a, NULL))
    return 0;
  if (!scaled(r, &star, B) &&
      (cute_composition(&grid, &star, B, NULL) ||
       cute_scratch_whole(r, &grid, NULL)))
    return 0;
  return !cute_scratch_tok(r, ')', NULL); /* depth: product_flat checks */
}

/* The logical product by a layout or a flat list of layouts in one pass
 * (as divide_flat, divide.c): no mode of A copied out, no intermediate
 * copied back; 0 when T is another tiler or a step fails. */
static int product_flat(cute_layout *out, const cute_layout *A,
                        const cute_tiler *T, int how)
{
  cute_layout tmp, *r;
  cute_span a;
  int i, rank = 0, list = cute_tiler_tok(T, 0) == '<';
  if (how >= 0) return 0; /* arranged by the run */
  if (list && (rank = cute_layout_rank(A)) < T->n) return 0;
  if (list ? !cute_tiler_is_flat(T) : cute_tiler_tok(T, 0) != 'L') return 0;
  r = cute_tiler_target(out, &tmp, A, T);
  if (list) (void)cute_scratch_tok(r, '(', NULL); /* r is empty */
  a.tok0 = a.leaf0 = 0;
  a.tok1 = A->shape.ntok;
  a.leaf1 = A->shape.nleaf;
  for (i = 0; i < (list ? T->n : 1); i++) {
    if (list) cute_tuple_span(&A->shape, i, &a); /* i < rank: it exists */
    if (!product_append(r, A, &a, &T->mode[i])) return 0;
  }
  if (list && (cute_scratch_modes(r, A, T->n, rank, NULL) ||
               cute_scratch_tok(r, ')', NULL)))
    return 0;
  if (cute_tiler_deep(r) && cute_tuple_check(&r->shape, NULL)) return 0;
  cute_tiler_end_both(out, r);
  return 1;
}

/* A x B in closed form where A and B are flat integral layouts of 1..4
 * leaves (a leaf, or a flat group) and A's complement A* has one or two
 * modes (A compact, or one hole: most tiles): out = (A, A* o B) written
 * in place, tokens "(" A's, the grid's ")" in one copy each, the grid
 * B's leaves scaled (A* one mode) or the composition's closed form.  0
 * where any of it does not apply or out is A or B (the tiler run then
 * decides and reports).
 *   (3,4):(4,1) x (2,5):(1,2) = ((3,4),(2,5)):((4,1),(12,24))   A* = 1:12
 *   (4,8):(20,2) x (3,2):(2,1) = ((4,8),(3,2)):((20,2),(80,1))
 *                                              A* = (2,1):(1,80) */
static int product_closed(cute_layout *out, const cute_layout *A,
                          const cute_layout *B)
{
  int64_t hs[CUTE_MAX_LEAVES], hd[CUTE_MAX_LEAVES];
  cute_layout star, grid;
  const cute_tuple *g = &B->shape;
  int k, na = A->shape.nleaf, nb = B->shape.nleaf, m;
  if (out == A || out == B || na < 1 || na > 4 || nb < 1 || nb > 4 ||
      !cute_flat_is(&A->shape, na) || !cute_flat_is(&A->stride, na) ||
      !cute_flat_is(&B->shape, nb) || !cute_flat_is(&B->stride, nb))
    return 0;
  m = cute_complement_flat(hs, hd, A, 0);
  if (m == 1) {
    if (!scale_leaves(out, na, hd[0], B)) return 0;
  } else {
    if (m != 2) return 0;
    cute_flat_head(&star.shape, 2);
    cute_flat_head(&star.stride, 2);
    cute_put_leaf(&star, 0, hs[0], hd[0]);
    cute_put_leaf(&star, 1, hs[1], hd[1]);
    if (!cute_composition_closed(&grid, &star, B)) return 0;
    g = &grid.shape;
    for (k = 0; k < g->nleaf; k++)
      cute_put_leaf(out, na + k, grid.shape.v[k], grid.stride.v[k]);
  }
  for (k = 0; k < na; k++) { /* a stride 0@p keeps its basis */
    cute_put_leaf(out, k, A->shape.v[k], A->stride.v[k]);
    out->stride.e[k] = A->stride.e[k];
  }
  product_tokens(&out->shape, A->shape.tok, A->shape.ntok, g);
  product_tokens(&out->stride, A->shape.tok, A->shape.ntok, g);
  out->shape.nleaf = out->stride.nleaf = (uint8_t)(na + g->nleaf);
  return 1;
}

cute_status cute_logical_product(cute_layout *out, const cute_layout *A,
                                 const cute_tiler *T, cute_error *err)
{
  if (T->ntok == 1 && T->tok[0] == 'L' && T->n == 1 &&
      product_closed(out, A, &T->mode[0]))
    return CUTE_OK;
  return cute_tiler_run(out, A, T, -1, "logical_product",
                        product_flat, product1, err);
}

cute_status cute_product_general(cute_layout *out, const cute_layout *A,
                                 const cute_tiler *T, int how,
                                 cute_error *err)
{
  static const char *const names[] = {"zipped_product", "tiled_product",
                                      "flat_product"};
  return cute_tiler_run(out, A, T, how, how < 0 ? "logical_product"
                        : names[how], NULL, product1, err);
}

cute_status cute_zipped_product(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_ZIPPED, "zipped_product",
                        product_flat, product1, err);
}

cute_status cute_tiled_product(cute_layout *out, const cute_layout *A,
                               const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_TILED, "tiled_product",
                        product_flat, product1, err);
}

cute_status cute_flat_product(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T, cute_error *err)
{
  return cute_tiler_run(out, A, T, CUTE_FLAT, "flat_product",
                        product_flat, product1, err);
}

/* L with 1:0 modes appended up to rank r (CuTe's append<R>); the unit
 * mode is made only when one is needed (most operands have the rank). */
static cute_status pad(cute_layout *out, const cute_layout *L, int r,
                       cute_error *err)
{
  cute_layout unit;
  cute_status st = CUTE_OK;
  int n = cute_layout_rank(L);
  cute_tuple_copy(&out->shape, &L->shape);
  cute_tuple_copy(&out->stride, &L->stride);
  if (n >= r) return CUTE_OK;
  cute_tuple_int(&unit.shape, 1);
  cute_tuple_int(&unit.stride, 0);
  for (; !st && n < r; n++) st = cute_layout_append(out, out, &unit, err);
  return st;
}

/* m = mode i of L, well formed (so its mode is, and fits): the mode's
 * tokens and leaves, without cute_layout_mode's checks and copy. */
static void mode_of(cute_layout *m, const cute_layout *L, int i)
{
  cute_span sp;
  cute_tuple_span(&L->shape, i, &sp);
  cute_scratch_start(m);
  cute_scratch_span(m, L, &sp, NULL);
  m->stride.ntok = m->shape.ntok;
  m->stride.nleaf = m->shape.nleaf;
}

/* Mode i pairs A_i with its grid A* o B_i: the grid of mode i is composed
 * on its own, since (A* o B)'s mode i would split an integer-shaped B
 * whose image is a tuple.  An integer-shaped A is the pair itself.  The
 * operands are checked once; their modes are then read in place. */
static cute_status zip_product(cute_layout *out, const cute_layout *A0,
                               const cute_layout *B0, int grid_first,
                               cute_error *err)
{
  cute_layout A, B, star, r, a, b, g;
  cute_status st;
  int i, n;
  if ((st = cute_layout_well_formed(A0, err)) ||
      (st = cute_layout_well_formed(B0, err)))
    return st;
  n = cute_layout_rank(A0);
  if (cute_layout_rank(B0) > n) n = cute_layout_rank(B0);
  if ((st = pad(&A, A0, n, err)) || (st = pad(&B, B0, n, err)) ||
      (st = cute_complement(&star, &A, 0, err)))
    return st;
  cute_scratch_start(&r);
  if (!cute_tuple_is_int(&A.shape) && (st = cute_scratch_tok(&r, '(', err)))
    return st;
  for (i = 0; i < n; i++) {
    const cute_layout *first = grid_first ? &g : &a, *second;
    second = grid_first ? &a : &g;
    mode_of(&a, &A, i);
    mode_of(&b, &B, i);
    if ((st = cute_composition(&g, &star, &b, err)) ||
        (st = cute_scratch_tok(&r, '(', err)) ||
        (st = cute_scratch_whole(&r, first, err)) ||
        (st = cute_scratch_whole(&r, second, err)) ||
        (st = cute_scratch_tok(&r, ')', err)))
      return st;
  }
  if (!cute_tuple_is_int(&A.shape) && (st = cute_scratch_tok(&r, ')', err)))
    return st;
  return cute_scratch_finish(out, &r, err);
}

static cute_status zipped_modes(cute_layout *out, const cute_layout *A,
                                const cute_layout *B, int grid_first,
                                const char *op, cute_error *err)
{
  cute_status st = zip_product(out, A, B, grid_first, err);
  if (st) cute_error_context(err, op, A, B);
  return st;
}

cute_status cute_blocked_product(cute_layout *out, const cute_layout *A,
                                 const cute_layout *B, cute_error *err)
{
  return zipped_modes(out, A, B, 0, "blocked_product", err);
}

cute_status cute_raked_product(cute_layout *out, const cute_layout *A,
                               const cute_layout *B, cute_error *err)
{
  return zipped_modes(out, A, B, 1, "raked_product", err);
}
