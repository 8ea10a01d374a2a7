/*
 * fuzz_modes.c -- tuples (paper section 2), mode manipulation, slicing
 * (2.5.1) and the layout constructors.
 *
 * Input "X|Y|ints", ints a tuple of small integers such as "(1,3)".
 *   tuples (X as a tuple, Y a second one):
 *     - spans, children and cute_tuple_mode agree; make / push of the
 *       modes rebuild the tuple; flatten keeps the leaves; copy is equal;
 *     - congruent / weakly_congruent / compatible equal a recursive
 *       reference over the modes (paper Definitions 2.3, 2.4, 2.7);
 *     - a shape: crd2idx(idx2crd(i)) = i around [0, size), coordinates in
 *       range inside it; cute_tuple_natural of Y agrees with crd2idx;
 *   layouts (X, Y as layouts):
 *     - slice(X, Y as a coordinate with `_`): the sublayout's leaves are
 *       X's leaves under `_`, and the offset is the inner product of the
 *       natural coordinate with the strides elsewhere (cute.h @post);
 *     - flatten, group, take, select, append, prepend, replace, concat
 *       and mode: leaves / modes where the documented ones go, failures
 *       only for bad mode numbers or a limit;
 *     - make_layout (left), make_layout_right and make_identity_layout of
 *       X's shape against their definitions.
 */
#include "fuzz_common.h"

#include <string.h>

enum { MAX_INTS = 8 };

static int same_leaves(const cute_tuple *a, const cute_tuple *b)
{
  return a->nleaf == b->nleaf &&
         memcmp(a->v, b->v, a->nleaf * sizeof a->v[0]) == 0 &&
         memcmp(a->e, b->e, a->nleaf * sizeof a->e[0]) == 0;
}

/* --------------------------------------------------------------- tuples -- */

/* Reference relation: weak (sizes 0) or compatible (sizes 1), recursive
 * over the modes as the paper defines it. */
static int ref_refines(const cute_tuple *a, const cute_tuple *b, int sizes)
{
  cute_tuple am, bm;
  int k, r = cute_tuple_rank(a);
  if (cute_tuple_is_int(a)) {
    fz_i128 p = 1;
    for (k = 0; k < b->nleaf && sizes; k++) {
      p *= b->v[k];
      if (p > INT64_MAX || p < INT64_MIN)
        return 0;
    }
    return !sizes || p == a->v[0];
  }
  if (cute_tuple_is_int(b) || cute_tuple_rank(b) != r)
    return 0;
  for (k = 0; k < r; k++) {
    cute_tuple_mode(&am, a, k, NULL);
    cute_tuple_mode(&bm, b, k, NULL);
    if (!ref_refines(&am, &bm, sizes))
      return 0;
  }
  return 1;
}

static void check_relations(const cute_tuple *t, const cute_tuple *u)
{
  int congruent = t->ntok == u->ntok && memcmp(t->tok, u->tok, t->ntok) == 0;
  fz_require(cute_congruent(t, u) == congruent &&
                 cute_weakly_congruent(t, u) == ref_refines(t, u, 0) &&
                 cute_compatible(t, u) == ref_refines(t, u, 1),
             "relations of %s and %s", fz_ttext(t), fz_ttext(u));
}

static void check_structure(const cute_tuple *t)
{
  const cute_tuple *xs[CUTE_MAX_LEAVES];
  cute_tuple m[CUTE_MAX_LEAVES], r, c;
  cute_span sp, ch;
  int i, j, n = cute_tuple_rank(t);
  fz_require(cute_tuple_check(t, NULL) == CUTE_OK && n <= CUTE_MAX_LEAVES,
             "tuple %s", fz_ttext(t));
  cute_tuple_copy(&c, t);
  fz_require(cute_tuple_equal(&c, t) && cute_tuple_flatten(&r, t) == CUTE_OK
                 && same_leaves(&r, t) && cute_tuple_depth(&r) <= 1,
             "copy or flatten of %s", fz_ttext(t));
  for (i = 0; i < n; i++) {
    fz_require(cute_tuple_span(t, i, &sp) == 0 &&
                   cute_tuple_mode(&m[i], t, i, NULL) == CUTE_OK &&
                   m[i].ntok == sp.tok1 - sp.tok0 &&
                   m[i].nleaf == sp.leaf1 - sp.leaf0 &&
                   memcmp(m[i].tok, t->tok + sp.tok0, m[i].ntok) == 0 &&
                   memcmp(m[i].v, t->v + sp.leaf0, m[i].nleaf * 8) == 0,
               "span/mode %d of %s", i, fz_ttext(t));
    for (j = 0; j < cute_tuple_rank(&m[i]); j++)
      fz_require(cute_tuple_child(t, &sp, j, &ch) == 0 &&
                     cute_tuple_mode(&c, &m[i], j, NULL) == CUTE_OK &&
                     c.nleaf == ch.leaf1 - ch.leaf0 &&
                     memcmp(c.v, t->v + ch.leaf0, c.nleaf * 8) == 0,
                 "child %d of mode %d of %s", j, i, fz_ttext(t));
    xs[i] = &m[i];
  }
  fz_require(cute_tuple_span(t, n, &sp) == -1, "span past the rank");
  if (cute_tuple_is_int(t))
    return;
  fz_require(cute_tuple_make(&r, xs, n, NULL) == CUTE_OK &&
                 cute_tuple_equal(&r, t),
             "make(modes of %s) = %s", fz_ttext(t), fz_ttext(&r));
  cute_tuple_clear(&r);
  fz_require(cute_tuple_open(&r, NULL) == CUTE_OK, "open");
  for (i = 0; i < n; i++)
    fz_require(cute_tuple_push(&r, xs[i], NULL) == CUTE_OK, "push");
  fz_require(cute_tuple_close(&r, NULL) == CUTE_OK && cute_tuple_equal(&r, t),
             "push(modes of %s) = %s", fz_ttext(t), fz_ttext(&r));
}

/* t as a shape: crd2idx(idx2crd(i)) = i, natural coordinates of u. */
static void check_coordinates(const cute_tuple *t, const cute_tuple *u)
{
  int64_t c[CUTE_MAX_LEAVES], n, i, j, p = 1;
  fz_i128 sum = 0;
  cute_tuple crd;
  cute_error e;
  int k;
  for (k = 0; k < t->nleaf; k++)
    if (t->e[k] != 0 || t->v[k] <= 0)
      return;
  if (!fz_ok_tuple(cute_tuple_size(t, &n, &e), &e, "size") ||
      n > FZ_MAX_SIZE)
    return;
  /* () has no leaf to take an index past its size 1 (CuTe: 0 again). */
  for (i = t->nleaf ? -3 : 0; i < (t->nleaf ? n + 3 : 1); i++) {
    fz_require(cute_idx2crd(&crd, i, t, &e) == CUTE_OK &&
                   cute_congruent(&crd, t) &&
                   cute_crd2idx(&j, &crd, t, &e) == CUTE_OK && j == i,
               "idx2crd(%lld, %s) = %s", (long long)i, fz_ttext(t),
               fz_ttext(&crd));
    for (k = 0; k < t->nleaf && i >= 0 && i < n; k++)
      fz_require(crd.v[k] >= 0 && crd.v[k] < t->v[k], "idx2crd(%lld, %s) ="
                 " %s out of range", (long long)i, fz_ttext(t),
                 fz_ttext(&crd));
  }
  if (!fz_ok_tuple(cute_tuple_natural(c, u, t, 0, &e), &e, "natural"))
    return;
  for (k = 0; k < t->nleaf; k++) {
    sum += (fz_i128)c[k] * p;
    p *= t->v[k]; /* size(t) <= FZ_MAX_SIZE: no overflow */
  }
  if (fz_ok_tuple(cute_crd2idx(&j, u, t, &e), &e, "crd2idx"))
    fz_require(j == sum, "crd2idx(%s, %s) = %lld, natural says otherwise",
               fz_ttext(u), fz_ttext(t), (long long)j);
}

/* ---------------------------------------------------------------- slice -- */

/* keep[k]: is leaf k of shape under a `_` of crd (weakly congruent)? */
static void slice_mask(const cute_tuple *crd, const cute_tuple *shape,
                       int *keep)
{
  int pc = 0, ps = 0, lc = 0, ls = 0;
  while (pc < crd->ntok) {
    if (crd->tok[pc] == 'x') {
      int depth = 0, under = crd->v[lc++] == CUTE_UNDERSCORE;
      do {
        char t = shape->tok[ps++];
        depth += t == '(' ? 1 : t == ')' ? -1 : 0;
        if (t == 'x')
          keep[ls++] = under;
      } while (depth > 0);
    } else {
      fz_require(crd->tok[pc] == shape->tok[ps], "slice accepted %s for %s",
                 fz_ttext(crd), fz_ttext(shape));
      ps++;
    }
    pc++;
  }
}

static void check_slice(const cute_layout *X, const cute_tuple *crd)
{
  int64_t c[CUTE_MAX_LEAVES], v;
  int keep[CUTE_MAX_LEAVES], k, m = 0;
  cute_layout S;
  cute_tuple off;
  cute_error e;
  fz_i128 sum = 0;
  if (!fz_ok(cute_layout_slice(&S, &off, X, crd, &e), &e, "slice"))
    return;
  slice_mask(crd, &X->shape, keep);
  fz_require(cute_tuple_natural(c, crd, &X->shape, 1, &e) == CUTE_OK,
             "natural after slice: %s", e.msg);
  for (k = 0; k < X->shape.nleaf; k++) {
    if (!keep[k]) {
      sum += (fz_i128)c[k] * X->stride.v[k];
      continue;
    }
    fz_require(m < S.shape.nleaf && S.shape.v[m] == X->shape.v[k] &&
                   S.stride.v[m] == X->stride.v[k] &&
                   S.stride.e[m] == X->stride.e[k],
               "slice(%s, %s) = %s: kept leaf %d", fz_text(X), fz_ttext(crd),
               fz_text(&S), k);
    m++;
  }
  fz_require(m == S.shape.nleaf,
             "slice(%s, %s) = %s: extra leaves", fz_text(X), fz_ttext(crd),
             fz_text(&S));
  if (cute_layout_has_basis(X))
    return;
  fz_require(cute_tuple_is_int(&off) && off.v[0] == sum, "slice(%s, %s): "
             "offset %s", fz_text(X), fz_ttext(crd), fz_ttext(&off));
  for (k = 0; k < 64 && k < fz_size(&S); k++)
    fz_eval(&S, k, &v);
}

/* --------------------------------------------------------------- modes -- */

/* out's modes [b, b+n) are X's modes [from, from+n). */
static void same_modes(const char *op, const cute_layout *out, int b,
                       const cute_layout *X, int from, int n)
{
  cute_layout p, q;
  int k;
  for (k = 0; k < n; k++)
    fz_require(fz_mode(&p, out, b + k) && fz_mode(&q, X, from + k) &&
                   cute_layout_equal(&p, &q),
               "%s(%s) = %s: mode %d is not mode %d", op, fz_text(X),
               fz_text(out), b + k, from + k);
}

/* A failure is allowed only for bad mode numbers or a limit. */
static int allowed(cute_status st, const cute_error *e, const char *op,
                   int valid)
{
  if (fz_ok(st, e, op))
    return 1;
  fz_require(!valid || st == CUTE_ELIMIT, "%s fails on valid modes: %s", op,
             e->msg);
  return 0;
}

static void check_ranges(const cute_layout *X, const int *a, int na)
{
  cute_layout G, T, M, Xb;
  cute_error e;
  int r = cute_layout_rank(X), b = na > 0 ? a[0] : 0, end = na > 1 ? a[1] : r;
  int valid = 0 <= b && b <= end && end <= r, k;
  if (allowed(cute_layout_group(&G, X, b, end, &e), &e, "group", valid)) {
    fz_require(valid && cute_layout_rank(&G) == r - (end - b) + 1 &&
                   same_leaves(&G.shape, &X->shape) &&
                   same_leaves(&G.stride, &X->stride),
               "group(%s, %d, %d) = %s", fz_text(X), b, end, fz_text(&G));
    same_modes("group", &G, 0, X, 0, b);
    same_modes("group", &G, b + 1, X, end, r - end);
    fz_require(fz_mode(&M, &G, b), "group's mode");
    same_modes("group", &M, 0, X, b, end - b);
  }
  if (allowed(cute_layout_take(&T, X, b, end, &e), &e, "take", valid)) {
    fz_require(valid && cute_layout_rank(&T) == end - b, "take(%s, %d, %d) ="
               " %s", fz_text(X), b, end, fz_text(&T));
    same_modes("take", &T, 0, X, b, end - b);
  }
  for (valid = 1, k = 0; k < na; k++)
    valid &= 0 <= a[k] && a[k] < r;
  if (allowed(cute_layout_select(&T, X, a, na, &e), &e, "select", valid)) {
    fz_require(valid && cute_layout_rank(&T) == na, "select(%s) = %s",
               fz_text(X), fz_text(&T));
    for (k = 0; k < na; k++)
      same_modes("select", &T, k, X, a[k], 1);
  }
  valid = 0 <= b && b < r;
  if (allowed(cute_layout_mode(&M, X, b, &e), &e, "mode", valid))
    fz_require(valid && cute_layout_take(&T, X, b, b + 1, &e) == CUTE_OK &&
                   fz_mode(&Xb, &T, 0) && cute_layout_equal(&M, &Xb),
               "mode(%s, %d) = %s", fz_text(X), b, fz_text(&M));
}

static void check_joins(const cute_layout *X, const cute_layout *Y, int i)
{
  const cute_layout *both[2];
  cute_layout O, P;
  cute_error e;
  int r = cute_layout_rank(X), valid = 0 <= i && i < r;
  both[0] = X;
  both[1] = Y;
  if (allowed(cute_layout_append(&O, X, Y, &e), &e, "append", 1)) {
    fz_require(cute_layout_rank(&O) == r + 1, "append rank");
    same_modes("append", &O, 0, X, 0, r);
    fz_require(fz_mode(&P, &O, r) && cute_layout_equal(&P, Y), "append(%s, "
               "%s): last mode %s", fz_text(X), fz_text(Y), fz_text(&P));
  }
  if (allowed(cute_layout_prepend(&O, X, Y, &e), &e, "prepend", 1)) {
    fz_require(cute_layout_rank(&O) == r + 1, "prepend rank");
    same_modes("prepend", &O, 1, X, 0, r);
    fz_require(fz_mode(&P, &O, 0) && cute_layout_equal(&P, Y), "prepend(%s, "
               "%s): first mode %s", fz_text(X), fz_text(Y), fz_text(&P));
  }
  if (allowed(cute_layout_replace(&O, X, i, Y, &e), &e, "replace", valid)) {
    /* cute.h: replacing an integer layout's mode 0 gives x itself. */
    fz_require(valid && (cute_layout_depth(X) == 0 ? cute_layout_equal(&O, Y)
                                                   : cute_layout_rank(&O) == r),
               "replace(%s, %d, %s) = %s", fz_text(X), i, fz_text(Y),
               fz_text(&O));
    if (cute_layout_depth(X) > 0) {
      same_modes("replace", &O, 0, X, 0, i);
      same_modes("replace", &O, i + 1, X, i + 1, r - i - 1);
      fz_require(fz_mode(&P, &O, i) && cute_layout_equal(&P, Y), "replace("
                 "%s, %d, %s): mode %s", fz_text(X), i, fz_text(Y),
                 fz_text(&P));
    }
  }
  if (allowed(cute_layout_concat(&O, both, 2, &e), &e, "concat", 1)) {
    fz_require(cute_layout_rank(&O) == 2, "concat rank");
    fz_require(fz_mode(&P, &O, 1) && cute_layout_equal(&P, Y), "concat(%s, "
               "%s): mode 1 %s", fz_text(X), fz_text(Y), fz_text(&P));
  }
  fz_require(cute_layout_concat(&O, both, 0, &e) == CUTE_OK &&
                 cute_layout_rank(&O) == 0 && fz_size(&O) == 1,
             "concat of none = %s", fz_text(&O));
}

/* -------------------------------------------------------- constructors -- */

/* An empty group of the shape has no basis: identity(()) is ():(), whose
 * value is the empty sum 0, and identity((4,(),8)) at 0 is (0,0,0), a 0
 * where idx2crd has (); only shapes without () are compared. */
static int has_empty(const cute_tuple *t)
{
  int k;
  for (k = 0; k + 1 < t->ntok; k++)
    if (t->tok[k] == '(' && t->tok[k + 1] == ')')
      return 1;
  return 0;
}

static void check_constructors(const cute_layout *X)
{
  cute_layout F, L, R, I;
  cute_tuple v, crd;
  cute_error e;
  int64_t n = fz_size(X), i, x;
  fz_i128 p = 1;
  int k;
  if (fz_ok(cute_layout_flatten(&F, X, &e), &e, "flatten"))
    fz_require(cute_layout_depth(&F) <= 1 && same_leaves(&F.shape, &X->shape)
                   && same_leaves(&F.stride, &X->stride),
               "flatten(%s) = %s", fz_text(X), fz_text(&F));
  if (fz_ok(cute_layout_left(&L, &X->shape, &e), &e, "make_layout"))
    for (i = 0; i < n && i < FZ_MAX_SIZE; i++)
      fz_require(fz_eval(&L, i, &x) && x == i, "make_layout(%s)(%lld) = %lld",
                 fz_ttext(&X->shape), (long long)i, (long long)x);
  if (fz_ok(cute_layout_right(&R, &X->shape, &e), &e, "make_layout_right"))
    for (k = R.shape.nleaf - 1; k >= 0; p *= R.shape.v[k--])
      fz_require(R.stride.v[k] == p && R.stride.e[k] == 0, "make_layout_right"
                 "(%s) = %s", fz_ttext(&X->shape), fz_text(&R));
  if (!fz_ok(cute_layout_identity(&I, &X->shape, &e), &e,
             "make_identity_layout"))
    return;
  for (i = 0; i < n && i < FZ_MAX_SIZE; i++)
    fz_require(fz_eval_at(&I, i, &v) &&
                   cute_idx2crd(&crd, i, &X->shape, &e) == CUTE_OK &&
                   (same_leaves(&v, &crd) || has_empty(&X->shape)),
               "make_identity_layout(%s)(%lld) = %s", fz_ttext(&X->shape),
               (long long)i, fz_ttext(&v));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fz_input in;
  cute_layout X, Y;
  cute_tuple t, u, ints;
  int a[MAX_INTS], na = 0, k;
  if (!fz_split(&in, data, size))
    return 0;
  if (fz_tuple(&ints, in.f[2]))
    for (k = 0; k < ints.nleaf && na < MAX_INTS; k++)
      if (ints.v[k] >= -64 && ints.v[k] <= 64)
        a[na++] = (int)ints.v[k];
  if (fz_tuple(&t, in.f[0])) {
    check_structure(&t);
    if (fz_tuple(&u, in.f[1])) {
      check_relations(&t, &u);
      check_coordinates(&t, &u);
    }
  }
  if (!fz_layout(&X, in.f[0]))
    return 0;
  if (fz_tuple(&u, in.f[1]))
    check_slice(&X, &u);
  check_ranges(&X, a, na);
  if (fz_layout(&Y, in.f[1]))
    check_joins(&X, &Y, na > 0 ? a[0] : 0);
  check_constructors(&X);
  return 0;
}
