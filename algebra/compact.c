/*
 * compact.c -- compact layouts packed in a given order, and the nullspace:
 * CuTe's make_ordered_layout, make_layout_like and nullspace.
 *
 * make_ordered_layout(shape, order): the leaves of `order` (weakly
 * congruent to the shape: a leaf may cover a whole sub-shape) are ranked,
 * ties by position; each covered sub-shape is packed column-major, starting
 * at the product of the sub-shapes ranked before it:
 *   make_ordered_layout((2,2,2,2), (0,2,3,1)) = (2,2,2,2):(1,4,8,2)
 * make_layout_like(L) is make_ordered_layout(shape(L), stride(L)) with the
 * stride-0 leaves kept 0 and left out of the packing, and size-1 leaves
 * ranked last (so that make_layout_like is idempotent: a size-1 leaf has
 * no stride of its own to keep, and ranked by it, it could tie with a
 * real one and swap places on the next call):
 *   make_layout_like((2,3,4,5):(0,42,1,0)) = (2,3,4,5):(0,4,1,0)
 * Coordinate strides rank by basis path (outermost index first), then by
 * coefficient; mixing them with integers is CUTE_ECODOMAIN.
 */
#include "cute_internal.h"

#include <stdio.h>

/* An order key: a basis path and a coefficient, compared path first;
 * `last` keys rank after all others. */
typedef struct okey { cute_basis e; int64_t v; int last; } okey;

static int key_less(okey a, okey b)
{
  int k, la = CUTE_BASIS_LEN(a.e), lb = CUTE_BASIS_LEN(b.e);
  if (a.last != b.last) return b.last;
  for (k = 0; k < la && k < lb; k++)
    if (CUTE_BASIS_AT(a.e, k) != CUTE_BASIS_AT(b.e, k))
      return CUTE_BASIS_AT(a.e, k) < CUTE_BASIS_AT(b.e, k);
  if (la != lb) return la < lb;
  return a.v < b.v;
}

static cute_status fail2(cute_error *err, cute_status st, const char *op,
                         const cute_tuple *a, const cute_tuple *b)
{
  char ta[CUTE_MAX_TEXT], tb[CUTE_MAX_TEXT];
  if (!err) return st;
  err->code = st;
  cute_tuple_print(a, ta, sizeof ta);
  if (b) cute_tuple_print(b, tb, sizeof tb);
  cute_error_prefix(err, op, ta, b ? tb : (char *)NULL, (char *)NULL);
  return st;
}

/* Packs shape's leaves: group g (leaves [first[g], first[g+1])) has key
 * key[g]; skip[g] groups get stride 0 and take no room.  Groups are ranked
 * by a stable insertion sort (at most CUTE_MAX_LEAVES of them). */
static cute_status pack(cute_layout *out, const cute_tuple *shape, int ng,
                        const int *first, const okey *key, const char *skip,
                        cute_error *err)
{
  int rank[CUTE_MAX_LEAVES], g, h, k;
  int64_t p = 1;
  cute_tuple_copy(&out->shape, shape);
  cute_tuple_copy(&out->stride, shape);
  for (g = 0; g < ng; g++) {
    for (h = g; h > 0 && key_less(key[g], key[rank[h - 1]]); h--)
      rank[h] = rank[h - 1];
    rank[h] = g;
  }
  for (k = 0; k < shape->nleaf; k++) out->stride.e[k] = 0;
  for (h = 0; h < ng; h++) {
    g = rank[h];
    for (k = first[g]; k < first[g + 1]; k++) {
      out->stride.v[k] = skip && skip[g] ? 0 : p;
      if (skip && skip[g]) continue;
      if (cute_mul(p, shape->v[k], &p))
        return cute_fail(err, CUTE_EOVERFLOW, "64-bit overflow of the "
                         "compact strides");
    }
  }
  return CUTE_OK;
}

/* The shape's leaves under each leaf of order (weakly congruent): order
 * leaf g covers shape leaves [first[g], first[g+1]). */
static cute_status cover(const cute_tuple *shape, const cute_tuple *order,
                         int *first, cute_error *err)
{
  int po = 0, ps = 0, ls = 0, g = 0;
  if (!cute_weakly_congruent(order, shape))
    return cute_fail(err, CUTE_ERANK, "the order is not congruent to the "
                     "shape");
  /* Walk both token strings together; an order leaf facing a group of the
   * shape skips that whole group. */
  while (po < order->ntok && ps < shape->ntok) {
    char c = order->tok[po++];
    if (c != 'x') { ps++; continue; }
    first[g++] = ls;
    if (shape->tok[ps] == 'x') { ps++; ls++; continue; }
    {
      int d = 0;
      do {
        char s = shape->tok[ps++];
        d += s == '(' ? 1 : s == ')' ? -1 : 0;
        if (s == 'x') ls++;
      } while (d > 0);
    }
  }
  first[g] = ls;
  return CUTE_OK;
}

cute_status cute_layout_ordered(cute_layout *out, const cute_tuple *shape,
                                const cute_tuple *order, cute_error *err)
{
  int first[CUTE_MAX_LEAVES + 1], k;
  okey key[CUTE_MAX_LEAVES];
  cute_layout L;
  cute_status st = cute_tuple_check(shape, err);
  if (!st) st = cute_tuple_check(order, err);
  if (!st) st = cute_layout_left(&L, shape, err);   /* positive shape */
  if (!st) st = cover(shape, order, first, err);
  for (k = 0; !st && k < order->nleaf; k++) {
    if (order->v[k] == CUTE_UNDERSCORE)
      st = cute_fail(err, CUTE_EINVAL, "order leaf %d is _", k);
    else if (CUTE_BASIS_IS_SUM(order->e[k]))
      st = cute_fail(err, CUTE_EINVAL, "order leaf %d is a sum of bases", k);
    key[k].e = order->e[k];
    key[k].v = order->v[k];
    key[k].last = 0;
  }
  if (!st) st = pack(out, shape, order->nleaf, first, key, NULL, err);
  return st ? fail2(err, st, "make_ordered_layout", shape, order) : CUTE_OK;
}

cute_status cute_layout_like(cute_layout *out, const cute_layout *L,
                             cute_error *err)
{
  int first[CUTE_MAX_LEAVES + 1], k, n = L->stride.nleaf, bases = 0, ints = 0;
  okey key[CUTE_MAX_LEAVES];
  char skip[CUTE_MAX_LEAVES];
  cute_status st = cute_layout_make(out, &L->shape, &L->stride, err);
  for (k = 0; !st && k < n; k++) {
    first[k] = k;
    key[k].e = L->stride.e[k];
    key[k].v = L->stride.v[k];
    key[k].last = L->shape.v[k] == 1;
    skip[k] = L->stride.v[k] == 0;
    if (CUTE_BASIS_IS_SUM(key[k].e))
      st = cute_fail(err, CUTE_ECODOMAIN, "stride leaf %d is a sum of bases, "
                     "which has no place in the order of strides", k);
    if (!skip[k]) { if (key[k].e) bases++; else ints++; }
  }
  first[n] = n;
  if (!st && bases && ints)
    st = cute_fail(err, CUTE_ECODOMAIN, "integer and basis strides do not "
                   "order together");
  if (!st) st = pack(out, &L->shape, n, first, key, skip, err);
  if (st) {
    if (err) cute_error_context(err, "make_layout_like", L, NULL);
    return st;
  }
  return CUTE_OK;
}

/* The stride-0 leaves of L (size-1 ones too, as CuTe), with the index
 * strides they have in L's flat column-major domain: every index they
 * reach maps to 0. */
cute_status cute_nullspace(cute_layout *out, const cute_layout *L,
                           cute_error *err)
{
  int k, n = 0;
  int64_t r = 1;
  cute_tuple s, d;
  cute_status st = cute_layout_make(out, &L->shape, &L->stride, err);
  cute_tuple_clear(&s);
  cute_tuple_clear(&d);
  if (!st) st = cute_tuple_open(&s, err);
  if (!st) st = cute_tuple_open(&d, err);
  for (k = 0; !st && k < L->shape.nleaf; k++) {
    if (L->stride.v[k] == 0) {
      st = cute_tuple_leaf(&s, L->shape.v[k], 0, err);
      if (!st) st = cute_tuple_leaf(&d, r, 0, err);
      n++;
    }
    if (!st && k + 1 < L->shape.nleaf && cute_mul(r, L->shape.v[k], &r))
      st = cute_fail(err, CUTE_EOVERFLOW, "64-bit overflow of the index "
                     "strides");
  }
  if (!st) st = cute_tuple_close(&s, err);
  if (!st) st = cute_tuple_close(&d, err);
  if (st) {
    if (err) cute_error_context(err, "nullspace", L, NULL);
    return st;
  }
  if (n <= 1) {                 /* none: 1:0; one: a leaf, as CuTe unwraps */
    cute_tuple_clear(&out->shape);
    cute_tuple_clear(&out->stride);
    cute_tuple_int(&out->shape, n ? s.v[0] : 1);
    cute_tuple_int(&out->stride, n ? d.v[0] : 0);
    return CUTE_OK;
  }
  return cute_layout_make(out, &s, &d, err);
}
