/*
 * leaves.c -- flat mode lists for complement and the inverses (leaves.h).
 */
#include "leaves.h"

/* The flat leaves of L with their index strides (checked arithmetic); an
 * overflow names `op`, the operation the caller asked for. */
static cute_status leaves_of(cute_leaves *x, const cute_layout *L,
                             const char *op, cute_error *err)
{
  int i;
  int64_t r = 1;
  x->n = L->shape.nleaf;
  for (i = 0; i < x->n; i++) {
    cute_leaf *m = &x->m[i];
    m->s = L->shape.v[i];
    m->d = L->stride.v[i];
    m->e = L->stride.e[i];
    m->r = r;
    /* The last product is the size, which may overflow although no index
     * stride does; only strides that are used are checked. */
    if (i + 1 < x->n && cute_mul(r, m->s, &r))
      return cute_fail_op(err, CUTE_EOVERFLOW, op, L, NULL,
                          "index stride overflows 64 bits");
  }
  return CUTE_OK;
}

/* Only the leaves of basis e (0: plain integers) with s > 1, d != 0: the
 * modes that contribute to the image. */
static void select_leaves(cute_leaves *out, const cute_leaves *x,
                          cute_basis e)
{
  int i;
  out->n = 0;
  for (i = 0; i < x->n; i++)
    if (x->m[i].s > 1 && x->m[i].d != 0 && x->m[i].e == e)
      out->m[out->n++] = x->m[i];
}

static int leaf_before(const cute_leaf *a, const cute_leaf *b)
{
  return a->d < b->d || (a->d == b->d && a->s < b->s);
}

void cute_leaves_sort(cute_leaves *x)
{
  int i, j;
  for (i = 1; i < x->n; i++) { /* insertion sort: n <= 32, stable */
    cute_leaf t = x->m[i];
    for (j = i; j > 0 && leaf_before(&t, &x->m[j - 1]); j--)
      x->m[j] = x->m[j - 1];
    x->m[j] = t;
  }
}

/* Does b continue a, on both the offsets and the indices?  Products that
 * overflow cannot equal a representable stride, so they never merge. */
static int leaf_continues(const cute_leaf *a, const cute_leaf *b)
{
  int64_t d, r;
  return a->e == b->e && !cute_mul(a->s, a->d, &d) && d == b->d &&
         !cute_mul(a->s, a->r, &r) && r == b->r;
}

void cute_leaves_merge(cute_leaves *x, int keep_last)
{
  int i, n = 0;
  for (i = 0; i < x->n; i++) {
    cute_leaf m = x->m[i];
    int64_t s;
    if (m.s == 1 && !(keep_last && i == x->n - 1)) continue;
    /* A merged shape that overflows stays two modes: same values. */
    if (m.s != 1 && n > 0 && leaf_continues(&x->m[n - 1], &m) &&
        !cute_mul(x->m[n - 1].s, m.s, &s))
      x->m[n - 1].s = s;
    else
      x->m[n++] = m;
  }
  x->n = n;
}

/* Completes a flat result whose n >= 1 leaves were written into out's
 * shape.v, stride.v and stride.e: tokens "x" or "(x...x)" on both tuples,
 * written directly (n + 2 <= CUTE_MAX_TOKENS; the checked builder would
 * re-walk the tokens for every leaf), plain-integer shape leaves. */
static void flat_tokens(cute_layout *out, int n)
{
  int i, t = 0;
  /* Both token strings written alike, none copied from the other (a
   * read right after byte stores stalls on store forwarding). */
  if (n > 1) {
    out->shape.tok[t] = out->stride.tok[t] = '(';
    t++;
  }
  for (i = 0; i < n; i++, t++) {
    out->shape.tok[t] = out->stride.tok[t] = 'x';
    out->shape.e[i] = 0;
  }
  if (n > 1) {
    out->shape.tok[t] = out->stride.tok[t] = ')';
    t++;
  }
  out->shape.ntok = out->stride.ntok = (uint8_t)t;
  out->shape.nleaf = out->stride.nleaf = (uint8_t)n;
}

cute_status cute_leaves_layout(cute_layout *out, const cute_leaves *x,
                               cute_error *err)
{
  int i, n = x->n;
  if (n > CUTE_MAX_LEAVES)
    return cute_fail(err, CUTE_ELIMIT, "tuple: more than %d leaves "
                     "(CUTE_MAX_LEAVES)", CUTE_MAX_LEAVES);
  if (n == 0) {
    cute_tuple_int(&out->shape, 1);
    cute_tuple_int(&out->stride, 0);
    return CUTE_OK;
  }
  for (i = 0; i < n; i++) {
    out->shape.v[i] = x->m[i].s;
    out->stride.v[i] = x->m[i].d;
    out->stride.e[i] = x->m[i].e;
  }
  flat_tokens(out, n);
  return CUTE_OK;
}

/* Whether L's non-zero strides are bases (0: integral), checked. */
static cute_status components(const cute_leaves *x, int *ncomp, const char *op,
                              const cute_layout *L, cute_error *err)
{
  int i, ints = 0, n = 0;
  for (i = 0; i < x->n; i++) {
    cute_basis e = x->m[i].e;
    if (x->m[i].d == 0) continue;
    if (e == 0) { ints = 1; continue; }
    if (e & CUTE_BASIS_F2)
      return cute_fail_op(err, CUTE_ECODOMAIN, op, L, NULL, "is not "
                          "defined for binary (F2) strides (only evaluation, "
                          "coalesce, composition and the inverse of a "
                          "bijection are)");
    if (CUTE_BASIS_IS_SUM(e))
      return cute_fail_op(err, CUTE_ECODOMAIN, op, L, NULL,
                          "a sum stride (a@i+b@j) spans several codomain "
                          "components; %s is taken per component, each "
                          "stride along one basis", op);
    n = 1;
  }
  if (ints && n > 0)
    return cute_fail_op(err, CUTE_ECODOMAIN, op, L, NULL,
                        "strides mix integers and basis elements");
  *ncomp = n;
  return CUTE_OK;
}

/* part = fn(leaves of component e), as a layout. */
static cute_status apply_one(cute_layout *part, const cute_leaves *x,
                             cute_basis e, const cute_layout *L,
                             const char *op, cute_leaves_fn fn, void *ctx,
                             int flags, cute_error *err)
{
  cute_leaves sel, res;
  cute_status st;
  int i;
  select_leaves(&sel, x, e);
  for (i = 0; (flags & CUTE_LEAVES_POSITIVE) && i < sel.n; i++)
    if (sel.m[i].d < 0)
      return cute_fail_op(err, CUTE_EINVAL, op, L, NULL,
                          "negative stride %lld", (long long)sel.m[i].d);
  if ((st = fn(&res, &sel, e, L, ctx, err))) return st;
  if ((st = cute_leaves_layout(part, &res, err)))
    cute_error_context(err, op, L, NULL); /* the result is too long */
  return st;
}

/* Appends to r the result for the codomain components under the basis
 * path prefix (length len): fn of the component prefix itself when a
 * stride names it or none lies below it, else a group over the next
 * index -- so the result is weakly congruent with the codomain, nested
 * strides (a@i@j) included:
 *   complement((4,2):(1@0,2@1@1)) = (1,(1,(2,1))):(4@0,(1@0@1,(1@1@1,4@1@1)))
 * Errors of fn come back positive; those of building r (a result past the
 * limits, not yet prefixed) negated. */
static int by_path(cute_layout *r, const cute_leaves *x, cute_basis prefix,
                   int len, const cute_layout *L, const char *op,
                   cute_leaves_fn fn, void *ctx, int flags, cute_error *err)
{
  cute_layout part;
  int i, rc, exact = 0, width = 0;
  cute_status st;
  for (i = 0; i < x->n; i++) {
    cute_basis e = x->m[i].e;
    if (x->m[i].d == 0 || !cute_basis_under(e, prefix, len)) continue;
    if (CUTE_BASIS_LEN(e) == len) exact = 1;
    else if (CUTE_BASIS_AT(e, len) + 1 > width)
      width = CUTE_BASIS_AT(e, len) + 1;
  }
  if (exact && width)
    return (int)cute_fail_op(err, CUTE_ECODOMAIN, op, L, NULL,
                        "a basis path is used both as a coordinate and as "
                        "a group of coordinates");
  if (len > 0 && width == 0) {
    if ((st = apply_one(&part, x, prefix, L, op, fn, ctx, flags, err)))
      return (int)st;
    if ((st = cute_tuple_push(&r->shape, &part.shape, err)) ||
        (st = cute_tuple_push(&r->stride, &part.stride, err)))
      return -(int)st;
    return CUTE_OK;
  }
  if ((st = cute_tuple_open(&r->shape, err)) ||
      (st = cute_tuple_open(&r->stride, err)))
    return -(int)st;
  for (i = 0; i < width; i++)
    if ((rc = by_path(r, x, cute_basis_child(prefix, len, i), len + 1, L, op,
                      fn, ctx, flags, err)))
      return rc;
  if ((st = cute_tuple_close(&r->shape, err)) ||
      (st = cute_tuple_close(&r->stride, err)))
    return -(int)st;
  return CUTE_OK;
}

cute_status cute_leaves_apply(cute_layout *out, const cute_layout *L,
                              const char *op, cute_leaves_fn fn, void *ctx,
                              int flags, cute_error *err)
{
  cute_leaves x;
  cute_layout r; /* r, not out: out may alias L */
  cute_status st;
  int ncomp = 0, rc;
  if ((st = leaves_of(&x, L, op, err)) ||
      (st = components(&x, &ncomp, op, L, err)))
    return st;
  if (ncomp == 0) {
    /* A single component is built straight into out: L was read into
     * the leaves x already, so out may alias it. */
    return apply_one(out, &x, 0, L, op, fn, ctx, flags, err);
  }
  cute_tuple_clear(&r.shape);
  cute_tuple_clear(&r.stride);
  if ((rc = by_path(&r, &x, 0, 0, L, op, fn, ctx, flags, err)) > 0)
    return (cute_status)rc;
  if (rc < 0) { /* the result is too long */
    cute_error_context(err, op, L, NULL);
    return (cute_status)-rc;
  }
  cute_tuple_copy(&out->shape, &r.shape);
  cute_tuple_copy(&out->stride, &r.stride);
  return CUTE_OK;
}

/* ------------------------------------------------- integral fast paths -- */

void cute_flat_finish(cute_layout *out, int m)
{
  int i;
  if (m == 0) {
    cute_tuple_int(&out->shape, 1);
    cute_tuple_int(&out->stride, 0);
  } else if (m <= 4) {
    cute_flat_small(out, m);
  } else {
    for (i = 0; i < m; i++) out->stride.e[i] = 0;
    flat_tokens(out, m);
  }
}

void cute_flat_layout(cute_layout *out, const cute_flat *x)
{
  int i;
  for (i = 0; i < x->n; i++) {
    out->shape.v[i] = x->s[i];
    out->stride.v[i] = x->d[i];
  }
  cute_flat_finish(out, x->n);
}

const uint8_t cute_flat_heads[5][8] = {
    {0}, {1, 1, 'x'}, {4, 2, '(', 'x', 'x', ')'},
    {5, 3, '(', 'x', 'x', 'x', ')'}, {6, 4, '(', 'x', 'x', 'x', 'x', ')'}};
const uint8_t cute_flat_masks[5][8] = {
    {0}, {255, 255, 255}, {255, 255, 255, 255, 255, 255},
    {255, 255, 255, 255, 255, 255, 255},
    {255, 255, 255, 255, 255, 255, 255, 255}};

