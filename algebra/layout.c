/*
 * layout.c -- layouts S:D (paper 2.4): construction, size, cosize and
 * evaluation, integral and on coordinate (scaled-basis) codomains.
 *
 * Evaluation works on the flat leaf arrays: an integral index i is spread
 * over the shape's leaves colexicographically with the last leaf absorbing
 * the overflow, which is exactly the hierarchical idx2crd on the extended
 * domain (floor division composes: floor(floor(i/a)/b) = floor(i/(ab))).
 *   ((2,2),(4,2)):((1,8),(2,16)) at 22: c = {0,1,1,1}, L = 8+2+16 = 26.
 */
#include "leaves.h"
#include "scratch.h"

#include <stdio.h>
#include <string.h>

/* --------------------------------------------------------- construction -- */

/* Is shape leaf k of t a positive integer, as every layout's is? */
static int size_leaf(const cute_tuple *t, int k)
{
  return t->e[k] == 0 && t->v[k] > 0;
}

/* Shape leaves are positive integers; stride leaves are integers or scaled
 * bases; neither may hold the slice marker. */
static cute_status check_leaves(const cute_layout *L, const char *op,
                                cute_error *err)
{
  int k;
  for (k = 0; k < L->shape.nleaf; k++) {
    if (!size_leaf(&L->shape, k))
      return cute_fail_op(err, CUTE_EINVAL, op, L, NULL,
                          "shape leaf %d is not a positive integer", k);
    if (L->stride.v[k] == CUTE_UNDERSCORE)
      return cute_fail_op(err, CUTE_EINVAL, op, L, NULL,
                          "stride leaf %d is the slice marker _", k);
  }
  return CUTE_OK;
}

cute_status cute_layout_make(cute_layout *L, const cute_tuple *shape,
                             const cute_tuple *stride, cute_error *err)
{
  cute_status st;
  if ((st = cute_tuple_check(shape, err)) ||
      (st = cute_tuple_check(stride, err)))
    return st;
  if (!cute_congruent(shape, stride)) {
    cute_tuple_copy(&L->shape, shape);
    cute_tuple_copy(&L->stride, stride);
    return cute_fail_op(err, CUTE_ERANK, "make_layout", L, NULL,
                        "shape and stride are not congruent");
  }
  return cute_layout_make_congruent(L, shape, stride, err);
}

cute_status cute_layout_make_congruent(cute_layout *L,
                                       const cute_tuple *shape,
                                       const cute_tuple *stride,
                                       cute_error *err)
{
  cute_status st;
  cute_tuple_copy(&L->shape, shape);
  cute_tuple_copy(&L->stride, stride);
  if ((st = check_leaves(L, "make_layout", err))) return st;
  /* Binary strides combine by XOR, the others by +: a layout mixing them
   * has no codomain, so it is refused here rather than by every
   * operation later (0 is the zero of both). */
  return cute_layout_is_f2(L) ? cute_f2_check(L, "make_layout", err)
                              : CUTE_OK;
}

/* "op(shape): why" of a compact layout: the shape alone, as no stride
 * was given (a half-made one would be printed as if it had been). */
static cute_status compact_fail(cute_error *err, cute_status code,
                                const char *op, const cute_tuple *shape,
                                const char *why)
{
  char text[CUTE_MAX_TEXT];
  cute_fail(err, code, "%s", why);
  cute_tuple_print(shape, text, sizeof text);
  cute_error_prefix(err, op, text, (char *)NULL);
  return code;
}

/* Compact strides: exclusive prefix products of the leaves, walked forward
 * (column-major) or backward (row-major). */
static cute_status compact(cute_layout *L, const cute_tuple *shape, int right,
                           const char *op, cute_error *err)
{
  int k, n = shape->nleaf;
  int64_t p = 1;
  char why[64];
  cute_status st = cute_tuple_check(shape, err);
  if (st) return st;
  for (k = 0; k < n; k++)
    if (!size_leaf(shape, k)) {
      snprintf(why, sizeof why, "shape leaf %d is not a positive integer", k);
      return compact_fail(err, CUTE_EINVAL, op, shape, why);
    }
  cute_tuple_copy(&L->shape, shape);
  cute_tuple_copy(&L->stride, shape);
  memset(L->stride.e, 0, n * sizeof L->stride.e[0]);
  for (k = 0; k < n; k++) {
    int j = right ? n - 1 - k : k;
    L->stride.v[j] = p;
    if (k + 1 < n && cute_mul(p, shape->v[j], &p))
      return compact_fail(err, CUTE_EOVERFLOW, op, shape,
                          "64-bit overflow of the compact strides");
  }
  return CUTE_OK;
}

cute_status cute_layout_left(cute_layout *L, const cute_tuple *shape,
                             cute_error *err)
{
  return compact(L, shape, 0, "make_layout", err);
}

cute_status cute_layout_right(cute_layout *L, const cute_tuple *shape,
                              cute_error *err)
{
  return compact(L, shape, 1, "make_layout_right", err);
}

/* Stride of each leaf is 1@path, path = the leaf's position in the shape
 * tree, outermost index first. */
cute_status cute_layout_identity(cute_layout *L, const cute_tuple *shape,
                                 cute_error *err)
{
  int idx[CUTE_MAX_DEPTH + 1] = {0};
  int p, d = 0, leaf = 0;
  cute_status st = compact(L, shape, 0, "make_identity_layout", err);
  if (st) return st;
  /* An integer shape gets the empty basis path, E<> = 1 (as CuTe's
   * make_basis_like): 8:1, evaluating to integers; (8) gets (8):(1@0). */
  if (cute_tuple_is_int(shape)) return CUTE_OK;
  for (p = 0; p < shape->ntok; p++) {
    char c = shape->tok[p];
    if (c == '(') {
      idx[++d] = 0;
    } else if (c == ')') {
      idx[--d]++;
    } else {
      cute_basis e = (cute_basis)d;
      int k;
      if (d > CUTE_MAX_BASIS_DEPTH)
        return cute_fail_op(err, CUTE_ELIMIT, "make_identity_layout", L, NULL,
                            "shape deeper than %d basis levels "
                            "(CUTE_MAX_BASIS_DEPTH)",
                            CUTE_MAX_BASIS_DEPTH);
      for (k = 1; k <= d; k++)
        e |= (cute_basis)idx[k] << (8 * k);
      L->stride.v[leaf] = 1;
      L->stride.e[leaf++] = e;
      idx[d]++;
    }
  }
  return CUTE_OK;
}

/* ------------------------------------------------------------ properties -- */

int cute_layout_has_basis(const cute_layout *L)
{
  int k;
  for (k = 0; k < L->stride.nleaf; k++)
    if (L->stride.e[k] != 0) return 1;
  return 0;
}

int cute_layout_equal(const cute_layout *a, const cute_layout *b)
{
  return cute_tuple_equal(&a->shape, &b->shape) &&
         cute_tuple_equal(&a->stride, &b->stride);
}

int cute_layout_rank(const cute_layout *L)
{
  return cute_tuple_rank(&L->shape);
}

int cute_layout_depth(const cute_layout *L)
{
  return cute_tuple_depth(&L->shape);
}

cute_status cute_layout_size(const cute_layout *L, int64_t *out,
                             cute_error *err)
{
  int k;
  int64_t p = 1;
  for (k = 0; k < L->shape.nleaf; k++)
    if (cute_mul(p, L->shape.v[k], &p))
      return cute_fail_op(err, CUTE_EOVERFLOW, "size", L, NULL,
                          "64-bit overflow");
  *out = p;
  return CUTE_OK;
}

/* ------------------------------------------------------------ evaluation -- */

static cute_status not_integral(const cute_layout *L, const char *op,
                                cute_error *err)
{
  return cute_fail_op(err, CUTE_ECODOMAIN, op, L, NULL,
                      cute_layout_is_f2(L)
                          ? "is not defined for binary (F2) strides"
                          : "needs an integral codomain (strides are bases)");
}

cute_status cute_layout_eval_index(const cute_layout *L, int64_t index,
                                   int64_t *out, cute_error *err)
{
  const int64_t *s = L->shape.v, *d = L->stride.v;
  const cute_basis *e = L->stride.e;
  int k, n = L->shape.nleaf;
  int64_t r = 0, c, t, i = index;
  if (n > CUTE_MAX_LEAVES || L->stride.nleaf != n)
    return cute_fail(err, CUTE_EINVAL, "layout: malformed (leaf counts)");
  for (k = 0; k < n; k++) {
    if (e[k] != 0)
      return e[k] & CUTE_BASIS_F2 ? cute_f2_eval_index(L, index, out, err)
                                  : not_integral(L, "layout", err);
    if (k == n - 1) {
      c = i;
    } else if (s[k] <= 0) {
      return check_leaves(L, "layout", err);
    } else if (i >= 0) {
      i = cute_divmod(i, s[k], &c);
    } else {
      c = cute_floormod(i, s[k]);
      i = cute_floordiv(i, s[k]);
    }
    if (cute_mul(c, d[k], &t) || cute_add(r, t, &r))
      return cute_fail_op(err, CUTE_EOVERFLOW, "layout", L, NULL,
                          "64-bit overflow at index %lld", (long long)index);
  }
  *out = r;
  return CUTE_OK;
}

/* One scaled-basis contribution: amount a along basis path e. */
typedef struct basis_term { cute_basis e; int64_t a; } basis_term;

/* Appends to `out` the value at basis path `prefix` (length len): a leaf
 * summing the terms whose path is exactly prefix, a group over the next
 * index when longer paths extend it, 0 when none does. */
static cute_status build_value(cute_tuple *out, const basis_term *t, int n,
                               cute_basis prefix, int len, cute_error *err)
{
  int k, exact = 0, width = 0;
  int64_t sum = 0;
  cute_status st;
  for (k = 0; k < n; k++) {
    if (!cute_basis_under(t[k].e, prefix, len)) continue;
    if (CUTE_BASIS_LEN(t[k].e) == len) {
      exact = 1;
      if (cute_add(sum, t[k].a, &sum))
        return CUTE_OVERFLOW(err, "layout");
    } else if (CUTE_BASIS_AT(t[k].e, len) + 1 > width) {
      width = CUTE_BASIS_AT(t[k].e, len) + 1;
    }
  }
  if (exact && width > 0)
    return cute_fail(err, CUTE_ECODOMAIN, "layout: a basis is used both as "
                     "a coordinate and as a group of coordinates");
  if (width == 0) return cute_tuple_leaf(out, sum, 0, err);
  if ((st = cute_tuple_open(out, err))) return st;
  for (k = 0; k < width; k++) {
    cute_basis sub = cute_basis_child(prefix, len, k);
    if ((st = build_value(out, t, n, sub, len + 1, err))) return st;
  }
  return cute_tuple_close(out, err);
}

/* out = inner_product(c, stride): an integer leaf, or for coordinate
 * layouts the tuple whose profile the basis paths spell; integer strides
 * other than 0 cannot be added to a coordinate. */
static cute_status inner_product(cute_tuple *out, const int64_t *c,
                                 const cute_layout *L, cute_error *err)
{
  basis_term terms[CUTE_MAX_LEAVES * CUTE_MAX_SUM_TERMS];
  int k, nt = 0, n = L->stride.nleaf;
  int64_t r = 0, x;
  cute_status st;
  for (k = 0; k < n; k++) {
    if (L->stride.e[k] & CUTE_BASIS_F2)
      return cute_f2_inner_product(out, c, L, err);
    if (CUTE_BASIS_IS_SUM(L->stride.e[k])) { /* one term per basis */
      cute_stride s;
      int t;
      cute_stride_of(&s, L->stride.v[k], L->stride.e[k]);
      for (t = 0; t < s.n; t++, nt++) {
        terms[nt].e = s.e[t];
        if (cute_mul(c[k], s.a[t], &terms[nt].a))
          return cute_fail_op(err, CUTE_EOVERFLOW, "layout", L, NULL,
                              "64-bit overflow");
      }
      continue;
    }
    if (cute_mul(c[k], L->stride.v[k], &x))
      return cute_fail_op(err, CUTE_EOVERFLOW, "layout", L, NULL,
                          "64-bit overflow");
    if (L->stride.e[k] != 0) {
      terms[nt].e = L->stride.e[k];
      terms[nt++].a = x;
    } else if (cute_add(r, x, &r)) {
      return cute_fail_op(err, CUTE_EOVERFLOW, "layout", L, NULL,
                          "64-bit overflow");
    }
  }
  if (nt == 0) return cute_tuple_int(out, r);
  for (k = 0; k < n; k++)
    if (L->stride.e[k] == 0 && L->stride.v[k] != 0)
      return cute_fail_op(err, CUTE_ECODOMAIN, "layout", L, NULL,
                          "integer stride %lld mixed with basis strides",
                          (long long)L->stride.v[k]);
  cute_tuple_clear(out);
  if ((st = build_value(out, terms, nt, 0, 0, err)))
    cute_error_context(err, "layout", L, NULL);
  return st;
}

/* A stride whose tokens are its shape's (every layout the library makes)
 * is well formed with the shape: only its leaves are left to check. */
cute_status cute_layout_well_formed(const cute_layout *L, cute_error *err)
{
  const cute_tuple *s = &L->shape, *d = &L->stride;
  cute_status st;
  if ((st = cute_tuple_check(s, err))) return st;
  if (d->ntok == s->ntok && d->nleaf == s->nleaf &&
      memcmp(d->tok, s->tok, s->ntok) == 0)
    st = cute_tuple_check_leaves(d, err);
  else
    st = cute_tuple_check(d, err);
  if (st) return st;
  if (L->shape.nleaf != L->stride.nleaf)
    return cute_fail(err, CUTE_ERANK, "layout: shape and stride are not "
                     "congruent");
  return CUTE_OK;
}

/* L(crd) for a flat coordinate of m = 1..4 integers against a flat
 * integral layout of m leaves (A(i, j) of a matrix, the usual call): each
 * c_i pairs with leaf i, so the value is the inner product, without the
 * walk and the checks (the counts and tokens compared are well formed).
 * 0 where it does not apply or overflows: the general path decides and
 * reports. */
static int eval_flat(const cute_layout *L, const cute_tuple *crd,
                     cute_tuple *out)
{
  int k, m = crd->nleaf;
  int64_t r = 0, x;
  if (m < 1 || m > 4 || !cute_flat_is(crd, m) ||
      !cute_flat_is(&L->shape, m) || !cute_flat_is(&L->stride, m))
    return 0;
  for (k = 0; k < m; k++)
    if ((crd->e[k] | L->stride.e[k]) != 0 || crd->v[k] == CUTE_UNDERSCORE ||
        cute_mul(crd->v[k], L->stride.v[k], &x) || cute_add(r, x, &r))
      return 0;
  cute_tuple_int(out, r);
  return 1;
}

cute_status cute_layout_eval(const cute_layout *L, const cute_tuple *crd,
                             cute_tuple *out, cute_error *err)
{
  int64_t c[CUTE_MAX_LEAVES];
  cute_status st;
  if (eval_flat(L, crd, out)) return CUTE_OK;
  if ((st = cute_layout_well_formed(L, err))) return st;
  if ((st = cute_tuple_check(crd, err)) ||
      (st = cute_tuple_natural_checked(c, crd, &L->shape, 0, err))) {
    cute_error_context(err, "layout", L, NULL);
    return st;
  }
  return inner_product(out, c, L, err);
}

cute_status cute_layout_cosize(const cute_layout *L, int64_t *out,
                               cute_error *err)
{
  int64_t n = 1, last;
  cute_status st;
  if (cute_layout_has_basis(L)) return not_integral(L, "cosize", err);
  if ((st = cute_layout_size(L, &n, err)) ||
      (st = cute_layout_eval_index(L, n - 1, &last, err))) {
    cute_error_context(err, "cosize", L, NULL); /* was size's or layout's */
    return st;
  }
  if (cute_add(last, 1, out))
    return cute_fail_op(err, CUTE_EOVERFLOW, "cosize", L, NULL,
                        "64-bit overflow");
  return CUTE_OK;
}

/* ---------------------------------------------------------------- slice -- */

/* Appends to `out` the element `sl` of L whole for each `_` leaf of the
 * coordinate element at crd token *pc, in order, and nothing for its
 * integer leaves: a group of the coordinate adds no structure of its own,
 * so A((1,_),((_,0),_)) of ((3,2),((2,3),2)) keeps (2,2,2), as CuTe's and
 * the paper's reference slice do.  The coordinate is known weakly
 * congruent, so the walks stay in step; survivors never outgrow L, so the
 * pieces always fit. */
static void slice_elem(cute_layout *out, const cute_tuple *crd, int *pc,
                       int *lc, const cute_layout *L, const cute_span *sl)
{
  int i;
  cute_span child;
  if (crd->tok[*pc] == 'x') {
    if (crd->v[(*lc)++] == CUTE_UNDERSCORE)
      (void)cute_scratch_span(out, L, sl, NULL);
    ++*pc;
    return;
  }
  ++*pc;
  for (i = 0; crd->tok[*pc] != ')'; i++) {
    cute_tuple_child(&L->shape, sl, i, &child);
    slice_elem(out, crd, pc, lc, L, &child);
  }
  ++*pc;
}

cute_status cute_layout_slice(cute_layout *out, cute_tuple *offset,
                              const cute_layout *L, const cute_tuple *crd,
                              cute_error *err)
{
  int64_t c[CUTE_MAX_LEAVES];
  int pc = 0, lc = 0;
  cute_span whole;
  cute_layout r;
  cute_status st;
  if ((st = cute_layout_well_formed(L, err))) return st;
  if ((st = cute_tuple_check(crd, err)) ||
      (st = cute_tuple_natural_checked(c, crd, &L->shape, 1, err))) {
    cute_error_context(err, "slice", L, NULL);
    return st;
  }
  if ((st = inner_product(offset, c, L, err))) {
    cute_error_context(err, "slice", L, NULL); /* names layout only */
    return st;
  }
  cute_scratch_start(&r);
  whole.tok0 = whole.leaf0 = 0;
  whole.tok1 = L->shape.ntok;
  whole.leaf1 = L->shape.nleaf;
  /* A bare `_` is L itself; otherwise one mode per `_` leaf, in a tuple
   * (rank 1 stays wrapped: (8), and no `_` gives ()). */
  if (crd->ntok == 1) {
    slice_elem(&r, crd, &pc, &lc, L, &whole);
  } else {
    r.shape.tok[r.shape.ntok++] = '(';
    slice_elem(&r, crd, &pc, &lc, L, &whole);
    if (r.shape.ntok + 1 > CUTE_MAX_TOKENS) return cute_scratch_full(err);
    r.shape.tok[r.shape.ntok++] = ')';
  }
  if (r.shape.ntok == 0) {  /* a bare integer coordinate: () */
    r.shape.tok[r.shape.ntok++] = '(';
    r.shape.tok[r.shape.ntok++] = ')';
  }
  cute_scratch_end(out, &r);
  return CUTE_OK;
}

/* -------------------------------------------------------- the builder -- */

cute_status cute_layout_put_tok(cute_layout *r, char c, cute_error *err)
{
  cute_status st;
  if (c == '(')
    return (st = cute_tuple_open(&r->shape, err)) ? st
           : cute_tuple_open(&r->stride, err);
  return (st = cute_tuple_close(&r->shape, err)) ? st
         : cute_tuple_close(&r->stride, err);
}

cute_status cute_layout_put_group(cute_layout *r, int n, const int64_t *s,
                                  const int64_t *v, const cute_basis *e,
                                  cute_error *err)
{
  cute_status st;
  int i;
  if (n > 1 && (st = cute_layout_put_tok(r, '(', err))) return st;
  for (i = 0; i < n; i++)
    if ((st = cute_tuple_leaf(&r->shape, s[i], 0, err)) ||
        (st = cute_tuple_leaf(&r->stride, v[i], e[i], err)))
      return st;
  return n > 1 ? cute_layout_put_tok(r, ')', err) : CUTE_OK;
}

cute_status cute_layout_put_end(cute_layout *out, const cute_layout *r,
                                cute_status st, const char *op,
                                const cute_layout *a, const cute_layout *b,
                                cute_error *err)
{
  if (st) {
    cute_error_context(err, op, a, b);
    return st;
  }
  cute_tuple_copy(&out->shape, &r->shape);
  cute_tuple_copy(&out->stride, &r->stride);
  return CUTE_OK;
}
