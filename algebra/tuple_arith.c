/*
 * tuple_arith.c -- arithmetic on integer tuples, as CuTe's int_tuple.hpp
 * and the CuTe DSL spell it: ceil_div, shape_div, product_each, tuple_add,
 * tuple_sub, elem_less, increment_coord, dice, idx2crd of a coordinate and
 * append / prepend up to a rank.
 *
 * Every function walks its operands by structure (cute_span), recursing
 * once per nesting level (at most CUTE_MAX_DEPTH), and builds its result
 * with the tuple builder, so the limits on tokens and leaves hold for the
 * result too.  Inner steps fail with the bare reason; the public function
 * prefixes it with "op(a, b): " through cute_error_prefix.
 */
#include "cute_internal.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- helpers -- */

static cute_span whole(const cute_tuple *t)
{
  cute_span sp;
  sp.tok0 = 0;
  sp.tok1 = t->ntok;
  sp.leaf0 = 0;
  sp.leaf1 = t->nleaf;
  return sp;
}

static int is_leaf(const cute_tuple *t, const cute_span *sp)
{
  return t->tok[sp->tok0] == 'x';
}

static int span_rank(const cute_tuple *t, const cute_span *sp)
{
  cute_span c;
  int n = 0;
  if (is_leaf(t, sp)) return 1;
  while (cute_tuple_child(t, sp, n, &c) == 0) n++;
  return n;
}

static int64_t leaf_v(const cute_tuple *t, const cute_span *sp)
{
  return t->v[sp->leaf0];
}

/* Appends the element sp of t to the tuple being built in out. */
static cute_status push_span(cute_tuple *out, const cute_tuple *t,
                             const cute_span *sp, cute_error *err)
{
  int p, leaf = sp->leaf0;
  cute_status st = CUTE_OK;
  for (p = sp->tok0; !st && p < sp->tok1; p++) {
    char c = t->tok[p];
    if (c == '(') st = cute_tuple_open(out, err);
    else if (c == ')') st = cute_tuple_close(out, err);
    else { st = cute_tuple_leaf(out, t->v[leaf], t->e[leaf], err); leaf++; }
  }
  return st;
}

static cute_status push_int(cute_tuple *out, int64_t v, cute_error *err)
{
  return cute_tuple_leaf(out, v, 0, err);
}

/* The product of the leaves of an element (plain integers only). */
static cute_status span_product(const cute_tuple *t, const cute_span *sp,
                                int64_t *out, cute_error *err)
{
  int64_t p = 1;
  int k;
  for (k = sp->leaf0; k < sp->leaf1; k++) {
    if (t->e[k] != 0)
      return cute_fail(err, CUTE_EINVAL, "a basis leaf is not an integer");
    if (cute_mul(p, t->v[k], &p)) return CUTE_OVERFLOW(err, "product");
  }
  *out = p;
  return CUTE_OK;
}

/* Operands are checked whole first: the walks below trust the structure. */
static cute_status check2(const cute_tuple *a, const cute_tuple *b,
                          cute_error *err)
{
  cute_status st = cute_tuple_check(a, err);
  return st ? st : b ? cute_tuple_check(b, err) : CUTE_OK;
}

/* No leaf of t is `_`: the slice marker is stored as INT64_MIN, which the
 * arithmetic would read as that number (ceil_div(_, 4) was -2^61). */
static cute_status no_underscore(const cute_tuple *t, cute_error *err)
{
  char text[CUTE_MAX_TEXT];
  int k;
  for (k = 0; k < t->nleaf; k++)
    if (t->v[k] == CUTE_UNDERSCORE && t->e[k] == 0) {
      if (t->ntok == 1)
        return cute_fail(err, CUTE_EINVAL, "_ is not an integer");
      cute_tuple_print(t, text, sizeof text);
      return cute_fail(err, CUTE_EINVAL, "leaf %d of %s is _, not an "
                       "integer", k, text);
    }
  return CUTE_OK;
}

/* The operands of arithmetic: checked, and free of `_` (b may be NULL). */
static cute_status check_arith(const cute_tuple *a, const cute_tuple *b,
                               cute_error *err)
{
  cute_status st = check2(a, b, err);
  if (!st) st = no_underscore(a, err);
  return st || !b ? st : no_underscore(b, err);
}

/* "op(a, b): reason" (b may be NULL; extra is a third operand's text). */
static cute_status fail_op(cute_error *err, cute_status st, const char *op,
                           const cute_tuple *a, const cute_tuple *b,
                           const char *extra)
{
  char ta[CUTE_MAX_TEXT], tb[CUTE_MAX_TEXT];
  if (!err) return st;
  err->code = st;
  cute_tuple_print(a, ta, sizeof ta);
  if (b) cute_tuple_print(b, tb, sizeof tb);
  cute_error_prefix(err, op, ta, b ? tb : extra, b ? extra : (char *)NULL,
                    (char *)NULL);
  return st;
}

/* The frame of the binary operations: operands checked, out cleared, rec
 * run on the whole of a and b with its flag, a failure named op. */
typedef cute_status (*pair_rec)(cute_tuple *, const cute_tuple *,
                                const cute_span *, const cute_tuple *,
                                const cute_span *, int, cute_error *);

static cute_status pairwise(cute_tuple *out, const cute_tuple *a,
                            const cute_tuple *b, pair_rec rec, int flag,
                            const char *op, cute_error *err)
{
  cute_span sa = whole(a), sb = whole(b);
  cute_status st = check_arith(a, b, err);
  cute_tuple_clear(out);
  if (!st) st = rec(out, a, &sa, b, &sb, flag, err);
  return st ? fail_op(err, st, op, a, b, NULL) : CUTE_OK;
}

/* ----------------------------------------------- ceil_div / shape_div -- */

/* ceil(a / b) for b > 0, any a; shape_div also requires a | b or b | a. */
static cute_status div_int(int64_t a, int64_t b, int strict, int64_t *out,
                           cute_error *err)
{
  if (b <= 0)
    return cute_fail(err, CUTE_EINVAL, "divisor %lld is not positive",
                     (long long)b);
  if (strict && a % b != 0 && (a == 0 || b % a != 0))
    return cute_fail(err, CUTE_EDIVISIBILITY, "neither of %lld and %lld "
                     "divides the other", (long long)a, (long long)b);
  *out = cute_floordiv(a, b) + (cute_floormod(a, b) != 0);
  return CUTE_OK;
}

/* CuTe's four cases: tuple/tuple by mode (ceil_div pads b with 1s, shape_div
 * needs equal ranks), tuple/int folds the divisor through a's modes,
 * int/tuple divides by b's product, int/int divides. */
static cute_status div_rec(cute_tuple *out, const cute_tuple *a,
                           const cute_span *sa, const cute_tuple *b,
                           const cute_span *sb, int strict, cute_error *err)
{
  cute_status st;
  int64_t q, rest = 1; /* rest and p are set before use: gcc -O3 */
  int i, ra = span_rank(a, sa), rb = span_rank(b, sb);
  cute_span ca, cb;
  if (is_leaf(a, sa)) {
    if (a->e[sa->leaf0] != 0)
      return cute_fail(err, CUTE_EINVAL, "a basis leaf is not an integer");
    if ((st = span_product(b, sb, &rest, err)) ||
        (st = div_int(leaf_v(a, sa), rest, strict, &q, err)))
      return st;
    return push_int(out, q, err);
  }
  if ((st = cute_tuple_open(out, err))) return st;
  if (!is_leaf(b, sb)) {
    if (strict ? ra != rb : ra < rb)
      return cute_fail(err, CUTE_ERANK, "rank %d against rank %d%s", ra, rb,
                       strict ? "" : " (the divisor may be shorter only)");
    for (i = 0; i < ra; i++) {
      cute_tuple_child(a, sa, i, &ca);
      if (i < rb) {
        cute_tuple_child(b, sb, i, &cb);
        st = div_rec(out, a, &ca, b, &cb, strict, err);
      } else {
        st = push_span(out, a, &ca, err);   /* divided by 1 */
      }
      if (st) return st;
    }
    return cute_tuple_close(out, err);
  }
  if (b->e[sb->leaf0] != 0)
    return cute_fail(err, CUTE_EINVAL, "a basis leaf is not an integer");
  rest = leaf_v(b, sb);
  for (i = 0; i < ra; i++) {
    cute_tuple r;
    int64_t p = 1;
    cute_tuple_child(a, sa, i, &ca);
    cute_tuple_clear(&r);
    cute_tuple_int(&r, rest);
    {
      cute_span sr = whole(&r);
      if ((st = div_rec(out, a, &ca, &r, &sr, strict, err))) return st;
    }
    if ((st = span_product(a, &ca, &p, err)) ||
        (st = div_int(rest, p, strict, &rest, err)))
      return st;
  }
  return cute_tuple_close(out, err);
}

cute_status cute_ceil_div(cute_tuple *out, const cute_tuple *a,
                          const cute_tuple *b, cute_error *err)
{
  return pairwise(out, a, b, div_rec, 0, "ceil_div", err);
}

cute_status cute_shape_div(cute_tuple *out, const cute_tuple *a,
                           const cute_tuple *b, cute_error *err)
{
  return pairwise(out, a, b, div_rec, 1, "shape_div", err);
}

/* -------------------------------------------------------- product_each -- */

cute_status cute_product_each(cute_tuple *out, const cute_tuple *t,
                              cute_error *err)
{
  cute_span st_all, c;
  int64_t p = 1; /* set by span_product on success: gcc -O3 */
  int i, n;
  cute_status st = check_arith(t, NULL, err);
  cute_tuple_clear(out);
  if (st) return fail_op(err, st, "product_each", t, NULL, NULL);
  st_all = whole(t);
  n = span_rank(t, &st_all);
  if (is_leaf(t, &st_all) || n == 0) {
    st = span_product(t, &st_all, &p, err);
    if (!st) st = push_int(out, p, err);
    return st ? fail_op(err, st, "product_each", t, NULL, NULL) : CUTE_OK;
  }
  st = cute_tuple_open(out, err);
  for (i = 0; !st && i < n; i++) {
    cute_tuple_child(t, &st_all, i, &c);
    st = span_product(t, &c, &p, err);
    if (!st) st = push_int(out, p, err);
  }
  if (!st) st = cute_tuple_close(out, err);
  return st ? fail_op(err, st, "product_each", t, NULL, NULL) : CUTE_OK;
}

/* ----------------------------------------------- tuple_add / tuple_sub -- */

/* Leaves add in the paper's semimodule (a@i + b@i = (a+b)@i, a@i + b@j
 * = a@i+b@j, integers with integers); a missing mode counts as 0
 * (CuTe's ArithmeticTuple pads the shorter operand with zeros). */
static cute_status add_rec(cute_tuple *out, const cute_tuple *a,
                           const cute_span *sa, const cute_tuple *b,
                           const cute_span *sb, int sign, cute_error *err)
{
  cute_status st;
  int i, ra, rb;
  int64_t r;
  cute_basis er;
  cute_span ca, cb;
  if (sa == NULL || sb == NULL) {           /* one side missing: copy */
    if (sb == NULL) return push_span(out, a, sa, err);
    if (sign > 0) return push_span(out, b, sb, err);
    if (!is_leaf(b, sb))
      return cute_fail(err, CUTE_ERANK, "a missing mode minus a tuple");
    if ((st = cute_stride_combine(&r, &er, -1, leaf_v(b, sb),
                                  b->e[sb->leaf0], 0, 0, 0, err)))
      return st;
    return cute_tuple_leaf(out, r, er, err);
  }
  if (is_leaf(a, sa) && is_leaf(b, sb)) {
    /* stride.c's arithmetic: a@i + b@j is the sum stride a@i+b@j, an
     * integer other than 0 does not add to a basis */
    if ((st = cute_stride_combine(&r, &er, 1, leaf_v(a, sa), a->e[sa->leaf0],
                                  sign, leaf_v(b, sb), b->e[sb->leaf0],
                                  err)))
      return st;
    return cute_tuple_leaf(out, r, er, err);
  }
  if (is_leaf(a, sa) || is_leaf(b, sb))
    return cute_fail(err, CUTE_ERANK, "an integer against a tuple");
  ra = span_rank(a, sa);
  rb = span_rank(b, sb);
  if ((st = cute_tuple_open(out, err))) return st;
  for (i = 0; i < (ra > rb ? ra : rb); i++) {
    int ha = cute_tuple_child(a, sa, i, &ca) == 0;
    int hb = cute_tuple_child(b, sb, i, &cb) == 0;
    if ((st = add_rec(out, a, ha ? &ca : NULL, b, hb ? &cb : NULL, sign,
                      err)))
      return st;
  }
  return cute_tuple_close(out, err);
}

cute_status cute_tuple_add(cute_tuple *out, const cute_tuple *a,
                           const cute_tuple *b, cute_error *err)
{
  return pairwise(out, a, b, add_rec, 1, "tuple_add", err);
}

cute_status cute_tuple_sub(cute_tuple *out, const cute_tuple *a,
                           const cute_tuple *b, cute_error *err)
{
  return pairwise(out, a, b, add_rec, -1, "tuple_sub", err);
}

/* ----------------------------------------------------------- elem_less -- */

static cute_status less_rec(const cute_tuple *a, const cute_span *sa,
                            const cute_tuple *b, const cute_span *sb,
                            int *out, cute_error *err)
{
  int i, ra, rb;
  cute_span ca, cb;
  cute_status st;
  if (is_leaf(a, sa) && is_leaf(b, sb)) {
    if (a->e[sa->leaf0] != b->e[sb->leaf0] ||
        CUTE_BASIS_IS_SUM(a->e[sa->leaf0]))
      return cute_fail(err, CUTE_ECODOMAIN, "leaves of different bases (or "
                       "sums of bases) do not compare");
    *out = leaf_v(a, sa) < leaf_v(b, sb);
    return CUTE_OK;
  }
  if (is_leaf(a, sa) || is_leaf(b, sb))
    return cute_fail(err, CUTE_ERANK, "an integer against a tuple");
  ra = span_rank(a, sa);
  rb = span_rank(b, sb);
  *out = ra <= rb;                 /* a mode of a past b's end: false */
  for (i = 0; *out && i < ra; i++) {
    cute_tuple_child(a, sa, i, &ca);
    cute_tuple_child(b, sb, i, &cb);
    if ((st = less_rec(a, &ca, b, &cb, out, err))) return st;
  }
  return CUTE_OK;
}

cute_status cute_elem_less(int *out, const cute_tuple *a, const cute_tuple *b,
                           cute_error *err)
{
  cute_span sa = whole(a), sb = whole(b);
  cute_status st = check_arith(a, b, err);
  if (!st) st = less_rec(a, &sa, b, &sb, out, err);
  return st ? fail_op(err, st, "elem_less", a, b, NULL) : CUTE_OK;
}

/* ----------------------------------------------------- increment_coord -- */

cute_status cute_increment_coord(cute_tuple *out, const cute_tuple *crd,
                                 const cute_tuple *shape, cute_error *err)
{
  int k, n;
  cute_status st = check2(crd, shape, err);
  if (!st && !cute_congruent(crd, shape))
    st = cute_fail(err, CUTE_ERANK, "the coordinate is not congruent to "
                   "the shape");
  for (k = 0; !st && k < crd->nleaf; k++)
    if (crd->e[k] != 0 || crd->v[k] == CUTE_UNDERSCORE)
      st = cute_fail(err, CUTE_EINVAL, "leaf %d is not an integer", k);
  if (st) return fail_op(err, st, "increment_coord", crd, shape, NULL);
  cute_tuple_copy(out, crd);
  n = out->nleaf;
  if (n == 0) return CUTE_OK;
  /* Colexicographic: the first leaf counts, each wraps into the next; the
   * last one only counts (the end of the domain is one past it). */
  if (cute_add(out->v[0], 1, &out->v[0]))
    return fail_op(err, CUTE_OVERFLOW(err, "64-bit overflow"),
                   "increment_coord", crd, shape, NULL);
  for (k = 0; k + 1 < n && out->v[k] >= shape->v[k]; k++) {
    out->v[k] = 0;
    out->v[k + 1]++;     /* no overflow: v[k+1] < shape, or it is a wrap */
  }
  return CUTE_OK;
}

/* ---------------------------------------------------------------- dice -- */

/* Keeps, of t, the elements paired with an integer leaf of crd, flattened
 * into one tuple; `_` leaves drop theirs (the complement of slicing). */
static cute_status dice_rec(cute_tuple *out, const cute_tuple *crd,
                            const cute_span *sc, const cute_tuple *t,
                            const cute_span *st_, cute_error *err)
{
  int i, rc;
  cute_span cc, ct;
  cute_status st;
  if (is_leaf(crd, sc))
    return leaf_v(crd, sc) == CUTE_UNDERSCORE && crd->e[sc->leaf0] == 0
               ? CUTE_OK : push_span(out, t, st_, err);
  rc = span_rank(crd, sc);
  if (is_leaf(t, st_) || rc != span_rank(t, st_))
    return cute_fail(err, CUTE_ERANK, "a mode of rank %d against one of "
                     "rank %d", rc, span_rank(t, st_));
  for (i = 0; i < rc; i++) {
    cute_tuple_child(crd, sc, i, &cc);
    cute_tuple_child(t, st_, i, &ct);
    if ((st = dice_rec(out, crd, &cc, t, &ct, err))) return st;
  }
  return CUTE_OK;
}

cute_status cute_dice(cute_tuple *out, const cute_tuple *crd,
                      const cute_tuple *t, cute_error *err)
{
  cute_span sc = whole(crd), st_ = whole(t);
  cute_status st = check2(crd, t, err);
  cute_tuple_clear(out);
  if (!st && is_leaf(crd, &sc)) {       /* dice(1, t) = t, dice(_, t) = () */
    if (leaf_v(crd, &sc) != CUTE_UNDERSCORE) cute_tuple_copy(out, t);
    else if (!(st = cute_tuple_open(out, err)))
      st = cute_tuple_close(out, err);
  } else if (!st && !(st = cute_tuple_open(out, err)) &&
             !(st = dice_rec(out, crd, &sc, t, &st_, err))) {
    st = cute_tuple_close(out, err);
  }
  return st ? fail_op(err, st, "dice", crd, t, NULL) : CUTE_OK;
}

/* ------------------------------------------------ idx2crd of a tuple -- */

static cute_status idx_rec(cute_tuple *out, const cute_tuple *idx,
                           const cute_span *si, const cute_tuple *shape,
                           const cute_span *ss, cute_error *err)
{
  int i, r;
  cute_span ci, cs;
  cute_status st;
  if (is_leaf(idx, si)) {
    cute_tuple sub, crd;
    int64_t v = leaf_v(idx, si);
    if (idx->e[si->leaf0] != 0 || v == CUTE_UNDERSCORE)
      return cute_fail(err, CUTE_EINVAL, "an index leaf is not an integer");
    if (is_leaf(shape, ss)) return push_int(out, v, err);
    cute_tuple_clear(&sub);
    if ((st = push_span(&sub, shape, ss, err)) ||
        (st = cute_idx2crd(&crd, v, &sub, err)))
      return st;
    {
      cute_span sw = whole(&crd);
      return push_span(out, &crd, &sw, err);
    }
  }
  r = span_rank(idx, si);
  if (is_leaf(shape, ss) || r != span_rank(shape, ss))
    return cute_fail(err, CUTE_ERANK, "a mode of rank %d against one of "
                     "rank %d", r, span_rank(shape, ss));
  if ((st = cute_tuple_open(out, err))) return st;
  for (i = 0; i < r; i++) {
    cute_tuple_child(idx, si, i, &ci);
    cute_tuple_child(shape, ss, i, &cs);
    if ((st = idx_rec(out, idx, &ci, shape, &cs, err))) return st;
  }
  return cute_tuple_close(out, err);
}

cute_status cute_idx2crd_tuple(cute_tuple *crd, const cute_tuple *idx,
                               const cute_tuple *shape, cute_error *err)
{
  cute_span si = whole(idx), ss = whole(shape);
  cute_status st = check2(idx, shape, err);
  cute_tuple_clear(crd);
  if (!st) st = idx_rec(crd, idx, &si, shape, &ss, err);
  return st ? fail_op(err, st, "idx2crd", idx, shape, NULL) : CUTE_OK;
}

/* ------------------------------------------- append / prepend to rank -- */

cute_status cute_tuple_extend(cute_tuple *out, const cute_tuple *t,
                              const cute_tuple *x, int rank, int front,
                              cute_error *err)
{
  cute_span s = whole(t), sx = whole(x), c;
  cute_status st = check2(t, x, err);
  int i, r = 0, n = 0;
  char rk[16];
  snprintf(rk, sizeof rk, "%d", rank);
  cute_tuple_clear(out);
  if (!st) {
    /* An integer or () is wrapped first: append(8, 9) = (8,9). */
    r = t->ntok == 2 && t->tok[0] == '(' ? 0 : span_rank(t, &s);
    n = rank < 0 ? 1 : rank - r;
    if (n < 0)
      st = cute_fail(err, CUTE_ERANK, "rank %d is above the target rank %d",
                     r, rank);
  }
  if (!st) st = cute_tuple_open(out, err);
  for (i = 0; !st && front && i < n; i++) st = push_span(out, x, &sx, err);
  for (i = 0; !st && i < r; i++) {
    cute_tuple_child(t, &s, i, &c);
    st = push_span(out, t, &c, err);
  }
  for (i = 0; !st && !front && i < n; i++) st = push_span(out, x, &sx, err);
  if (!st) st = cute_tuple_close(out, err);
  return st ? fail_op(err, st, front ? "prepend" : "append", t, x,
                      rank < 0 ? NULL : rk)
            : CUTE_OK;
}
