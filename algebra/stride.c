/*
 * stride.c -- stride values: integers, scaled bases a@i and their sums
 * a@i+b@j (the paper's integer-semimodule strides, 2.3.1), and the
 * composition of layouts whose strides are sums.
 *
 * A sum is packed into one leaf (cute.h: CUTE_BASIS_SUM), so that integer
 * strides cost nothing and every operation that moves leaves (modes,
 * slices, flatten, ...) carries sums unchanged.  Arithmetic on a sum goes
 * through the unpacked cute_stride (cute_internal.h): unpack, add and
 * scale there, pack back in normal form (terms sorted by mode, none zero),
 * so equal sums are equal leaves.
 *
 * Composition with sums reduces to compositions without them, by the
 * paper's linear view of a layout (2.4.4: L = D o S, linear in the natural
 * coordinates S(c)):
 *   - a sum stride in A: A o B = D o (S o B), with S = A's shape carrying
 *     one unit basis per leaf (A's natural coordinates) -- S o B has no
 *     sum in A's place, and each of its strides, a combination of those
 *     bases, is mapped through D:
 *       (2,2):(1@0+1@1,2@0+2@1) o 2:2 = 2:(2@0+2@1)
 *   - a sum stride in B: B(c) is a coordinate of A, so A(B(c)) =
 *     sum_p A_p(B_p(c)), B_p the component of B's strides along basis p
 *     (integers): R = sum_p A_p o B_p, mode by mode; each B_p composes
 *     whole, so the carry checks hold across B's leaves.  The parts must
 *     split each leaf of B alike (else CUTE_EDIVISIBILITY naming it):
 *       (4,8):(1,4) o 2:(1@0+1@1) = 2:5
 */
#include "cute_internal.h"

#include <stdio.h>
#include <string.h>

#define COEF_BITS 21
#define COEF_MASK ((((uint64_t)1) << COEF_BITS) - 1)

/* ---------------------------------------------------------------- values -- */

void cute_stride_of(cute_stride *s, int64_t v, cute_basis e)
{
  int t;
  if (!CUTE_BASIS_IS_SUM(e)) {
    s->n = 1;
    s->a[0] = v;
    s->e[0] = e;
    return;
  }
  s->n = (int)(e & 3u);
  for (t = 0; t < s->n && t < CUTE_MAX_SUM_TERMS; t++) {
    uint64_t u = ((uint64_t)v >> (COEF_BITS * t)) & COEF_MASK;
    /* sign-extend the 21-bit field */
    s->a[t] = (int64_t)(u ^ (((uint64_t)1) << (COEF_BITS - 1))) -
              ((int64_t)1 << (COEF_BITS - 1));
    s->e[t] = CUTE_BASIS1((e >> (8 * (t + 1))) & 0xffu);
  }
}

/* "64-bit overflow": the operation that combined the strides (tuple_add,
 * a composition, a parser, cute.E's operators) names itself around it,
 * not this step of its arithmetic. */
static cute_status overflow(cute_error *err)
{
  return cute_fail(err, CUTE_EOVERFLOW, "64-bit overflow");
}

cute_status cute_stride_axpy(cute_stride *r, int64_t c, const cute_stride *x,
                             cute_error *err)
{
  int t, j, n = x->n;
  cute_stride y = *x; /* r may be x */
  for (t = 0; t < n; t++) {
    int64_t p;
    if (cute_mul(c, y.a[t], &p)) return overflow(err);
    for (j = 0; j < r->n && r->e[j] != y.e[t]; j++) {}
    if (j == r->n) {
      if (r->n == CUTE_STRIDE_TERMS)
        return cute_fail(err, CUTE_ELIMIT, "stride: a sum of more than %d "
                         "bases", CUTE_STRIDE_TERMS);
      r->a[r->n] = 0;
      r->e[r->n++] = y.e[t];
    }
    if (cute_add(r->a[j], p, &r->a[j])) return overflow(err);
  }
  return CUTE_OK;
}

static cute_status pack_fail(cute_error *err, cute_status code,
                             const cute_stride *s, const char *why)
{
  char b[256];
  cute_stride_print(s, b, sizeof b);
  return cute_fail(err, code, "stride %s: %s", b, why);
}

cute_status cute_stride_pack(int64_t *v, cute_basis *e, const cute_stride *s,
                             cute_error *err)
{
  cute_stride z;
  int t, j;
  uint64_t u = 0;
  cute_basis b;
  z.n = 0;
  for (t = 0; t < s->n; t++) {
    if (s->a[t] == 0) continue;
    /* insertion by mode index: a sum's terms are depth-1 bases, checked
     * below, so ordering by the whole packed basis is by index */
    for (j = z.n; j > 0 && z.e[j - 1] > s->e[t]; j--) {
      z.a[j] = z.a[j - 1];
      z.e[j] = z.e[j - 1];
    }
    z.a[j] = s->a[t];
    z.e[j] = s->e[t];
    z.n++;
  }
  if (z.n <= 1) {
    *v = z.n ? z.a[0] : 0;
    *e = z.n ? z.e[0] : s->n ? s->e[0] : 0;
    return CUTE_OK;
  }
  for (t = 0; t < z.n; t++) {
    if (z.e[t] == 0)
      return pack_fail(err, CUTE_ECODOMAIN, s, "an integer added to basis "
                       "elements");
    if ((z.e[t] & 0xffu) != 1)
      return pack_fail(err, CUTE_ELIMIT, s, "a sum holds depth-1 bases "
                       "a@i only");
  }
  if (z.n > CUTE_MAX_SUM_TERMS)
    return pack_fail(err, CUTE_ELIMIT, s, "a sum of more than 3 bases "
                     "(CUTE_MAX_SUM_TERMS)");
  b = CUTE_BASIS_SUM | (cute_basis)z.n;
  for (t = 0; t < z.n; t++) {
    if (z.a[t] > CUTE_MAX_SUM_COEF || z.a[t] < -CUTE_MAX_SUM_COEF - 1)
      return pack_fail(err, CUTE_ELIMIT, s, "a coefficient of a sum "
                       "outside [-2^20, 2^20) (CUTE_MAX_SUM_COEF)");
    u |= ((uint64_t)z.a[t] & COEF_MASK) << (COEF_BITS * t);
    b |= (cute_basis)CUTE_BASIS_AT(z.e[t], 0) << (8 * (t + 1));
  }
  *v = (int64_t)u;
  *e = b;
  return CUTE_OK;
}

cute_status cute_stride_combine(int64_t *v, cute_basis *e, int64_t a,
                                int64_t va, cute_basis ea, int64_t b,
                                int64_t vb, cute_basis eb, cute_error *err)
{
  cute_stride r, x, y;
  cute_status st;
  r.n = 0;
  cute_stride_of(&x, va, ea);
  cute_stride_of(&y, vb, eb);
  if ((st = cute_stride_axpy(&r, a, &x, err)) ||
      (st = cute_stride_axpy(&r, b, &y, err)))
    return st;
  return cute_stride_pack(v, e, &r, err);
}

int cute_stride_sum_valid(int64_t v, cute_basis e)
{
  int t, n = (int)(e & 3u), last = -1;
  if ((e & 0xffu) != (CUTE_BASIS_SUM | (cute_basis)n) || n < 2 ||
      ((uint64_t)v >> (COEF_BITS * n)) != 0)
    return 0;
  if (n == 2 && (e >> 24) != 0) return 0;
  for (t = 0; t < n; t++) {
    int i = CUTE_BASIS_AT(e, t);
    if (i <= last || i > CUTE_MAX_BASIS_INDEX ||
        (((uint64_t)v >> (COEF_BITS * t)) & COEF_MASK) == 0)
      return 0;
    last = i;
  }
  return 1;
}

int cute_stride_continues(int64_t s0, int64_t d0, cute_basis e0, int64_t d1,
                          cute_basis e1)
{
  cute_stride x, y;
  int64_t v;
  cute_basis e;
  x.n = 0;
  cute_stride_of(&y, d0, e0);
  if (cute_stride_axpy(&x, s0, &y, NULL) ||
      cute_stride_pack(&v, &e, &x, NULL))
    return 0;
  if (v == 0 && d1 == 0) return 1; /* 0 in any basis */
  return v == d1 && e == e1;
}

int cute_basis_under(cute_basis e, cute_basis prefix, int len)
{
  int k;
  if (CUTE_BASIS_IS_SUM(e) || CUTE_BASIS_LEN(e) < len) return 0;
  for (k = 0; k < len; k++)
    if (CUTE_BASIS_AT(e, k) != CUTE_BASIS_AT(prefix, k)) return 0;
  return 1;
}

cute_basis cute_basis_child(cute_basis prefix, int len, int i)
{
  return (prefix & ~(cute_basis)0xffu) | (cute_basis)(len + 1) |
         ((cute_basis)i << (8 * (len + 1)));
}

int cute_tuple_has_sum(const cute_tuple *t)
{
  int k;
  cute_basis any = 0;
  for (k = 0; k < t->nleaf && k < CUTE_MAX_LEAVES; k++) any |= t->e[k];
  return CUTE_BASIS_IS_SUM(any);
}

/* ----------------------------------------------------------- composition -- */

static void start(cute_layout *r)
{
  cute_tuple_clear(&r->shape);
  cute_tuple_clear(&r->stride);
}

/* A sum stride in A: R = D o (S o B) (see the top of this file).  S is A's
 * shape with the unit basis 1@j on leaf j; each stride of S o B, some
 * sum_j g_j@j, becomes sum_j g_j * D_j. */
/* An integral B sees A only as a function of integers, so A is first
 * coalesced on its extended domain, as composition.c does (a leaf joins
 * the one before when its stride continues it; size-1 leaves vanish but
 * the last): (2,2):(S,2S) o 3:1 = 4:S o 3:1 = 3:S.  A coordinate B names
 * A's modes, so A keeps its shape. */
static cute_status sums_of_a(cute_layout *out, const cute_layout *A,
                             const cute_layout *B, cute_error *err)
{
  cute_layout S, R, C;
  cute_status st;
  int k, t, n = 0;
  const cute_layout *D = A; /* the strides S's bases stand for */
  if (!cute_layout_has_basis(B)) {
    start(&C);
    for (k = 0; k < A->shape.nleaf; k++) {
      int64_t s = A->shape.v[k], v = A->stride.v[k], p;
      cute_basis e = A->stride.e[k];
      if (s == 1 && k + 1 < A->shape.nleaf) continue;
      if (n > 0 && !cute_mul(C.shape.v[n - 1], C.stride.v[n - 1], &p) &&
          cute_stride_continues(C.shape.v[n - 1], C.stride.v[n - 1],
                                C.stride.e[n - 1], v, e)) {
        if (cute_mul(C.shape.v[n - 1], s, &C.shape.v[n - 1]))
          return cute_fail_op(err, CUTE_EOVERFLOW, "composition", A, B,
                              "64-bit overflow");
        continue;
      }
      C.shape.v[n] = s;
      C.stride.v[n] = v;
      C.stride.e[n++] = e;
    }
    C.shape.nleaf = C.stride.nleaf = (uint8_t)n; /* n >= 1 */
    C.shape.ntok = (uint8_t)(n == 1 ? 1 : n + 2);
    memset(C.shape.tok, 'x', C.shape.ntok);
    if (n > 1) {
      C.shape.tok[0] = '(';
      C.shape.tok[n + 1] = ')';
    }
    memset(C.shape.e, 0, n * sizeof C.shape.e[0]);
    memcpy(C.stride.tok, C.shape.tok, C.shape.ntok);
    C.stride.ntok = C.shape.ntok;
    D = &C;
  }
  cute_tuple_copy(&S.shape, &D->shape);
  cute_tuple_copy(&S.stride, &D->shape);
  for (k = 0; k < D->shape.nleaf; k++) {
    S.stride.v[k] = 1;
    S.stride.e[k] = CUTE_BASIS1(k); /* k < CUTE_MAX_LEAVES <= 254 */
  }
  /* a single mode still needs a basis to name: (s):(1@0) */
  if (cute_tuple_is_int(&S.shape)) {
    S.shape.tok[0] = S.stride.tok[0] = '(';
    S.shape.tok[1] = S.stride.tok[1] = 'x';
    S.shape.tok[2] = S.stride.tok[2] = ')';
    S.shape.ntok = S.stride.ntok = 3;
  }
  if ((st = cute_composition(&R, &S, B, err))) {
    cute_error_context(err, "composition", A, B);
    return st;
  }
  for (k = 0; k < R.stride.nleaf; k++) {
    cute_stride g, d, r;
    r.n = 0;
    cute_stride_of(&g, R.stride.v[k], R.stride.e[k]);
    for (t = 0; t < g.n; t++) {
      if (g.e[t] == 0) continue; /* the integer 0 of a stride-0 mode */
      cute_stride_of(&d, D->stride.v[CUTE_BASIS_AT(g.e[t], 0)],
                     D->stride.e[CUTE_BASIS_AT(g.e[t], 0)]);
      if ((st = cute_stride_axpy(&r, g.a[t], &d, err))) break;
    }
    if (st || (st = cute_stride_pack(&R.stride.v[k], &R.stride.e[k], &r,
                                     err))) {
      cute_error_context(err, "composition", A, B);
      return st;
    }
  }
  cute_tuple_copy(&out->shape, &R.shape);
  cute_tuple_copy(&out->stride, &R.stride);
  return CUTE_OK;
}

void cute_stride_component(cute_layout *Bp, const cute_layout *B, int p,
                           int *any)
{
  int k, t;
  *any = 0;
  cute_tuple_copy(&Bp->shape, &B->shape);
  cute_tuple_copy(&Bp->stride, &B->stride);
  for (k = 0; k < B->stride.nleaf; k++) {
    cute_stride s;
    Bp->stride.v[k] = 0;
    Bp->stride.e[k] = 0;
    cute_stride_of(&s, B->stride.v[k], B->stride.e[k]);
    for (t = 0; t < s.n; t++) {
      cute_basis e = s.e[t];
      int len = CUTE_BASIS_LEN(e), j;
      if (e == 0 || CUTE_BASIS_AT(e, 0) != p) continue;
      Bp->stride.v[k] = s.a[t];
      Bp->stride.e[k] = (cute_basis)(len - 1);
      for (j = 1; j < len; j++)
        Bp->stride.e[k] |= (cute_basis)CUTE_BASIS_AT(e, j) << (8 * j);
      *any = 1;
    }
  }
}

/* The modes R made of B's leaf at token *q of R (a leaf, or the flat group
 * a composition puts in a leaf's place): shapes and strides into s[], d[],
 * their count returned; *nz says whether a stride is non-zero. */
static int piece(const cute_layout *R, int *q, int *leaf, int64_t *s,
                 cute_stride *d, int *nz)
{
  int n = 0, group = R->shape.tok[*q] == '(';
  *q += group;
  do {
    s[n] = R->shape.v[*leaf];
    cute_stride_of(&d[n], R->stride.v[*leaf], R->stride.e[*leaf]);
    if (R->stride.v[*leaf] != 0) *nz = 1;
    ++*leaf;
    ++*q;
    n++;
  } while (group && R->shape.tok[*q] != ')');
  *q += group;
  return n;
}

/* A sum stride in B: R = sum_p A_p o B_p, leaf by leaf of B.  B names at
 * most CUTE_MAX_SUM_PARTS modes of A. */
#define CUTE_MAX_SUM_PARTS 8
static cute_status sums_of_b(cute_layout *out, const cute_layout *A,
                             const cute_layout *B, cute_error *err)
{
  cute_layout Rp[CUTE_MAX_SUM_PARTS], Bp, Ap, R;
  int np = 0, p, k, i, any, bl = 0;
  int q[CUTE_MAX_SUM_PARTS], leaf[CUTE_MAX_SUM_PARTS], ps[CUTE_MAX_SUM_PARTS];
  char why[32];
  cute_status st = CUTE_OK;
  for (k = 0; k < B->stride.nleaf; k++)
    if (B->stride.e[k] == 0 && B->stride.v[k] != 0)
      return cute_fail_op(err, CUTE_ECODOMAIN, "composition", A, B,
                          "strides of B mix integers and basis elements");
  for (p = 0; p <= CUTE_MAX_BASIS_INDEX; p++) {
    cute_stride_component(&Bp, B, p, &any);
    if (!any) continue;
    if (np == CUTE_MAX_SUM_PARTS)
      return cute_fail_op(err, CUTE_ELIMIT, "composition", A, B,
                          "strides of B name more than %d modes of A",
                          CUTE_MAX_SUM_PARTS);
    if ((st = cute_layout_mode(&Ap, A, p, err)) ||
        (st = cute_composition(&Rp[np], &Ap, &Bp, err))) {
      snprintf(why, sizeof why, "basis %d of B: ", p);
      cute_error_note(err, why);
      cute_error_context(err, "composition", A, B);
      return st;
    }
    q[np] = leaf[np] = 0;
    ps[np++] = p;
  }
  start(&R);
  for (k = 0; k < B->shape.ntok; k++) {
    int64_t s[CUTE_MAX_LEAVES], s0[CUTE_MAX_LEAVES], v[CUTE_MAX_LEAVES];
    cute_stride d[CUTE_MAX_LEAVES], sum[CUTE_MAX_LEAVES];
    cute_basis e[CUTE_MAX_LEAVES];
    int n0 = 0, j, first = 0;
    char c = B->shape.tok[k];
    if (c != 'x') {
      for (i = 0; i < np; i++) q[i]++;
      if ((st = cute_layout_put_tok(&R, c, err))) goto fail;
      continue;
    }
    /* each part's piece; those with a non-zero stride must split alike */
    for (i = 0; i < np; i++) {
      int nz = 0, n = piece(&Rp[i], &q[i], &leaf[i], s, d, &nz);
      if (!nz) continue;
      if (n0 && (n != n0 || memcmp(s, s0, n * sizeof s[0]) != 0))
        return cute_fail_op(err, CUTE_EDIVISIBILITY, "composition", A, B,
                            "the terms of a sum stride of B split its "
                            "shape %lld differently in modes %d and %d of "
                            "A", (long long)B->shape.v[bl], ps[first],
                            ps[i]);
      if (!n0) {
        n0 = n;
        first = i;
        memcpy(s0, s, n * sizeof s[0]);
        for (j = 0; j < n; j++) sum[j].n = 0;
      }
      for (j = 0; j < n; j++)
        if ((st = cute_stride_axpy(&sum[j], 1, &d[j], err))) goto fail;
    }
    if (!n0) { /* no term reaches A: a zero stride */
      s0[0] = B->shape.v[bl];
      sum[0].n = 0;
      n0 = 1;
    }
    bl++;
    for (j = 0; j < n0; j++)
      if ((st = cute_stride_pack(&v[j], &e[j], &sum[j], err))) goto fail;
    if ((st = cute_layout_put_group(&R, n0, s0, v, e, err))) break;
  }
fail:
  return cute_layout_put_end(out, &R, st, "composition", A, B, err);
}

cute_status cute_composition_sums(cute_layout *out, const cute_layout *A,
                                  const cute_layout *B, cute_error *err)
{
  if (cute_tuple_has_sum(&B->stride)) return sums_of_b(out, A, B, err);
  return sums_of_a(out, A, B, err);
}
