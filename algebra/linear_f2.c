/*
 * linear_f2.c -- layouts with binary (F2) strides: the paper's binary
 * layouts (2.4.4, Table 1), whose strides f_d combine by XOR.
 *
 * A leaf s:F<d> sends its coordinate c to the carry-less product c*d: the
 * XOR of the bit-steps d<<j over the set bits j of c.  So a leaf whose
 * shape is a power of two 2^n is n input bits with the steps d, 2d, ...,
 * 2^(n-1)d, exactly as a linear layout's bases:
 *     (4,4):(F1,F5) = ((2,2),(2,2)):((F1,F2),(F5,F10))
 * and a layout whose leaves are powers of two (the last one may be any
 * extent: it takes the rest of an index) is linear over F2 in the bits of
 * its index.  That is what the operations below rely on; where it fails
 * they refuse, naming the leaf.
 *
 * Defined here (cute.h): evaluation, composition A o B for a binary A
 * (B integer with carry-free steps, or binary) and the inverse of a
 * bijection onto [0, N).  Coalesce is coalesce.c's, whose merge rule
 * needs the earlier shape to be a power of two for a binary leaf.
 */
#include "cute_internal.h"

#include <string.h>

#define F2 CUTE_BASIS_F2

static int is_pow2(int64_t s) { return s > 0 && (s & (s - 1)) == 0; }

static int bit_length(uint64_t v)
{
  int n = 0;
  while (v) { n++; v >>= 1; }
  return n;
}

static int log2_of(int64_t s)
{
  int n = 0;
  while ((1ll << n) < s) n++;
  return n;
}

int cute_layout_is_f2(const cute_layout *L)
{
  int k;
  for (k = 0; k < L->stride.nleaf; k++)
    if (L->stride.e[k] & F2) return 1;
  return 0;
}

/* Every leaf binary (F<d>, d >= 0, no basis path) or the integer 0. */
static cute_status f2_form(const cute_layout *L, const char *op,
                           const cute_layout *B, cute_error *err)
{
  int k;
  for (k = 0; k < L->stride.nleaf; k++) {
    cute_basis e = L->stride.e[k];
    int64_t d = L->stride.v[k];
    if (e == 0 && d == 0) continue;
    if (e != F2)
      return cute_fail_op(err, CUTE_ECODOMAIN, op, L, B, "leaf %d: the "
                          "stride %s%lld mixes with binary (F2) strides: "
                          "an integer or basis sum is no XOR", k,
                          e ? "basis " : "", (long long)d);
    if (d < 0)
      return cute_fail_op(err, CUTE_EINVAL, op, L, B, "leaf %d: the binary "
                          "stride F%lld is negative (F2 has no sign)", k,
                          (long long)d);
  }
  return CUTE_OK;
}

cute_status cute_f2_check(const cute_layout *L, const char *op,
                          cute_error *err)
{
  return f2_form(L, op, NULL, err);
}

/* c*d carry-less; CUTE_EOVERFLOW past 63 bits. */
static cute_status clmul(int64_t c, int64_t d, int64_t *out)
{
  uint64_t r = 0, uc = (uint64_t)c, ud = (uint64_t)d;
  int j;
  if (c < 0) return CUTE_EINVAL;
  if (uc && ud && bit_length(uc) + bit_length(ud) > 64) return CUTE_EOVERFLOW;
  for (j = 0; uc >> j; j++)
    if ((uc >> j) & 1) r ^= ud << j;
  if (r > (uint64_t)INT64_MAX) return CUTE_EOVERFLOW;
  *out = (int64_t)r;
  return CUTE_OK;
}

static cute_status f2_sum(int64_t *out, const int64_t *c, const cute_layout *L,
                          const char *op, cute_error *err)
{
  int k;
  int64_t r = 0, x;
  cute_status st;
  if ((st = f2_form(L, op, NULL, err))) return st;
  for (k = 0; k < L->stride.nleaf; k++) {
    if ((st = clmul(c[k], L->stride.v[k], &x)))
      return st == CUTE_EINVAL
                 ? cute_fail_op(err, CUTE_EINVAL, op, L, NULL, "negative "
                                "coordinate %lld of a binary (F2) leaf",
                                (long long)c[k])
                 : cute_fail_op(err, CUTE_EOVERFLOW, op, L, NULL,
                                "64-bit overflow");
    r ^= x;
  }
  *out = r;
  return CUTE_OK;
}

cute_status cute_f2_eval_index(const cute_layout *L, int64_t index,
                               int64_t *out, cute_error *err)
{
  int64_t c[CUTE_MAX_LEAVES], i = index;
  int k, n = L->shape.nleaf;
  if (index < 0)
    return cute_fail_op(err, CUTE_EINVAL, "layout", L, NULL, "negative index "
                        "%lld of a binary (F2) layout", (long long)index);
  for (k = 0; k < n; k++) {
    if (k == n - 1) {
      c[k] = i;
    } else {
      if (L->shape.v[k] <= 0)
        return cute_fail(err, CUTE_EINVAL, "layout: malformed (shape)");
      c[k] = i % L->shape.v[k];
      i /= L->shape.v[k];
    }
  }
  return f2_sum(out, c, L, "layout", err);
}

cute_status cute_f2_inner_product(cute_tuple *out, const int64_t *c,
                                  const cute_layout *L, cute_error *err)
{
  int64_t r;
  cute_status st;
  if ((st = f2_sum(&r, c, L, "layout", err))) return st;
  return cute_tuple_int(out, r);
}

/* ------------------------------------------------------- composition -- */

/* A's leaves must be powers of two but the last (which takes the rest of
 * an index): then A(x) is the XOR of A(2^j) over the set bits j of x. */
static cute_status f2_linear(const cute_layout *A, const cute_layout *B,
                             cute_error *err)
{
  int k;
  cute_status st;
  if ((st = f2_form(A, "composition", B, err))) return st;
  for (k = 0; k + 1 < A->shape.nleaf; k++)
    if (!is_pow2(A->shape.v[k]))
      return cute_fail_op(err, CUTE_EINVAL, "composition", A, B,
                          "leaf %d of A has the extent %lld, not a power of "
                          "two: a binary A is linear in the bits of its index "
                          "only when every leaf but the last is", k,
                          (long long)A->shape.v[k]);
  return CUTE_OK;
}

/* The result leaves for B's leaf s:d, bit-steps g_j = A(d<<j) (B integer)
 * or A(d<<j) of B's binary step: a leaf 2:g_j per bit, continued runs
 * merged (2:g then 2:2g is 4:g); of an extent s = 2^m r (r odd > 1) the
 * low m bits so, then one leaf r:g_m, which needs g_{m+j} = g_m<<j:
 *   (4,3):(0,F15) o 12:1 = (4,3):(0,F15)   (g = 0,0,15,30) */
typedef struct f2_piece { int n; int64_t s[64], d[64]; } f2_piece;

static cute_status f2_piece_of(f2_piece *p, const cute_layout *A,
                               const cute_layout *B, int k, cute_error *err)
{
  int64_t s = B->shape.v[k], d = B->stride.v[k], g[64];
  int j, m = 0, nb = bit_length((uint64_t)(s - 1));
  cute_status st;
  p->n = 0;
  if (s == 1 || d == 0) {
    p->s[0] = s, p->d[0] = 0, p->n = 1;
    return CUTE_OK;
  }
  for (j = 0; j < nb; j++) {
    if (bit_length((uint64_t)d) + j > 62)
      return cute_fail_op(err, CUTE_EOVERFLOW, "composition", A, B,
                          "64-bit overflow");
    if ((st = cute_f2_eval_index(A, d << j, &g[j], err))) {
      /* A's evaluation names the layout alone: the call is composition */
      cute_error_context(err, "composition", A, B);
      return st;
    }
  }
  while (!((s >> m) & 1)) m++; /* s = 2^m r, r odd */
  for (j = m + 1; j < nb; j++)
    if (g[j] != (int64_t)((uint64_t)g[m] << (j - m)))
      return cute_fail_op(err, CUTE_EINVAL, "composition", A, B,
                          "leaf %d of B (extent %lld = %lld*2^%d) would need "
                          "A(%lld) = %lld<<%d, but it is %lld: its odd part "
                          "keeps one binary stride", k, (long long)s,
                          (long long)(s >> m), m, (long long)(d << j),
                          (long long)g[m], j - m, (long long)g[j]);
  for (j = 0; j < m; j++) {
    if (p->n > 0 && g[j] == p->s[p->n - 1] * p->d[p->n - 1]) p->s[p->n - 1] *= 2;
    else p->s[p->n] = 2, p->d[p->n++] = g[j];
  }
  if (s >> m > 1) p->s[p->n] = s >> m, p->d[p->n++] = g[m];
  return CUTE_OK;
}

/* An integer B adds its leaves: the sum is their XOR (what a binary A is
 * linear in) only when no two bit-steps share a bit. */
static cute_status carry_free(const cute_layout *A, const cute_layout *B,
                              cute_error *err)
{
  uint64_t acc = 0;
  int k, j;
  for (k = 0; k < B->stride.nleaf; k++) {
    int64_t s = B->shape.v[k], d = B->stride.v[k];
    int nb = bit_length((uint64_t)(s - 1));
    if (B->stride.e[k] == F2) continue;
    if (B->stride.e[k] != 0)
      return cute_fail_op(err, CUTE_ECODOMAIN, "composition", A, B,
                          "leaf %d of B has a basis stride: a binary A takes "
                          "integer offsets", k);
    if (d < 0)
      return cute_fail_op(err, CUTE_EINVAL, "composition", A, B,
                          "leaf %d of B has the negative stride %lld", k,
                          (long long)d);
    for (j = 0; j < nb && d; j++) {
      uint64_t step;
      if (bit_length((uint64_t)d) + j > 62)
        return cute_fail_op(err, CUTE_EOVERFLOW, "composition", A, B,
                            "64-bit overflow");
      step = (uint64_t)d << j;
      if (step & acc)
        return cute_fail_op(err, CUTE_EINVAL, "composition", A, B,
                            "leaf %d of B: its bit-step %llu shares a bit "
                            "with an earlier one, so B's sum carries where a "
                            "binary A needs an XOR", k,
                            (unsigned long long)step);
      acc |= step;
    }
  }
  return CUTE_OK;
}

cute_status cute_f2_composition(cute_layout *out, const cute_layout *A,
                                const cute_layout *B, cute_error *err)
{
  cute_layout r;
  f2_piece p;
  cute_basis f2[64]; /* every stride of a piece is binary */
  int t, k = 0, i;
  cute_status st;
  if (!cute_layout_is_f2(A))
    return cute_fail_op(err, CUTE_ECODOMAIN, "composition", A, B,
                        "B has binary (F2) strides and A integer ones: A "
                        "adds offsets where B XORs them (write A with "
                        "binary strides, e.g. (8,8):(F1,F8) for (8,8):(1,8))");
  if ((st = f2_linear(A, B, err)) || (st = carry_free(A, B, err))) return st;
  if (cute_layout_is_f2(B) && (st = f2_form(B, "composition", A, err)))
    return st;
  for (i = 0; i < 64; i++) f2[i] = F2;
  cute_tuple_clear(&r.shape);
  cute_tuple_clear(&r.stride);
  for (t = 0; t < B->shape.ntok && !st; t++) {
    char c = B->shape.tok[t];
    if (c != 'x')
      st = cute_layout_put_tok(&r, c, err);
    else if ((st = f2_piece_of(&p, A, B, k++, err)))
      return st; /* its message names the call already */
    else
      st = cute_layout_put_group(&r, p.n, p.s, p.d, f2, err);
  }
  return cute_layout_put_end(out, &r, st, "composition", A, B, err);
}

/* ----------------------------------------------------------- inverse -- */

/* The inverse of a binary L that is a bijection onto [0, N): its leaves
 * (size 1 dropped) are powers of two but the last, whose stride must then
 * be F<2^n> over the n bits of the others; the n bit-steps must span
 * [0, 2^n).  The inverse is the F2 inverse matrix, one leaf 2:F<col> per
 * output bit (the last leaf s:F<2^n> again), coalesced:
 *     inverse((4,(4,3)):(F1,(F5,F16))) = (4,4,3):(F1,F5,F16)
 * Both inverses of a bijection are the inverse. */
cute_status cute_f2_inverse(cute_layout *out, const cute_layout *L,
                            const char *op, cute_error *err)
{
  uint64_t step[64], inv[64], row[64];
  int64_t last_s = 0;
  int n = 0, k, j, b;
  cute_layout r;
  cute_status st;
  if ((st = f2_form(L, op, NULL, err))) return st;
  for (k = 0; k < L->shape.nleaf; k++) {
    int64_t s = L->shape.v[k], d = L->stride.v[k];
    if (s == 1) continue;
    if (last_s)
      return cute_fail_op(err, CUTE_EINVAL, op, L, NULL, "leaf %d follows a "
                          "leaf whose extent %lld is no power of two: a "
                          "binary inverse is defined for a bijection onto "
                          "[0, N), whose leaves are powers of two but the "
                          "last", k, (long long)last_s);
    if (d == 0)
      return cute_fail_op(err, CUTE_ENONINJECTIVE, op, L, NULL, "leaf %d has "
                          "stride 0 (extent %lld): not injective", k,
                          (long long)s);
    if (!is_pow2(s)) { last_s = s; continue; }
    for (j = 0; j < log2_of(s); j++) {
      if (n == 62 || bit_length((uint64_t)d) + j > 62)
        return cute_fail_op(err, CUTE_ELIMIT, op, L, NULL, "more than 62 "
                            "index or offset bits");
      step[n++] = (uint64_t)d << j;
    }
  }
  for (k = 0; k < L->shape.nleaf; k++)
    if (L->shape.v[k] > 1 && !is_pow2(L->shape.v[k]) &&
        L->stride.v[k] != (int64_t)1 << n)
      return cute_fail_op(err, CUTE_EINVAL, op, L, NULL, "leaf %d (extent "
                          "%lld, no power of two) has the stride F%lld, not "
                          "F%lld above the other %d bits: not a bijection "
                          "onto [0, N)", k, (long long)L->shape.v[k],
                          (long long)L->stride.v[k], (long long)1 << n, n);
  /* Gauss-Jordan: row[i] = step i, inv[i] = the input bits making it. */
  for (j = 0; j < n; j++) {
    if (step[j] >> n)
      return cute_fail_op(err, CUTE_EINVAL, op, L, NULL, "bit-step %llu "
                          "reaches past the %d bits of the index: not a "
                          "bijection onto [0, %lld)", (unsigned long long)
                          step[j], n, (long long)1 << n);
    row[j] = step[j];
    inv[j] = 1ull << j;
  }
  for (b = 0; b < n; b++) {
    int p = -1;
    for (j = b; j < n && p < 0; j++)
      if ((row[j] >> b) & 1) p = j;
    if (p < 0)
      return cute_fail_op(err, CUTE_ENONINJECTIVE, op, L, NULL, "its %d "
                          "bit-steps have no step with bit %d after "
                          "elimination: rank below %d, not a bijection",
                          n, b, n);
    { uint64_t t = row[p]; row[p] = row[b]; row[b] = t;
      t = inv[p]; inv[p] = inv[b]; inv[b] = t; }
    for (j = 0; j < n; j++)
      if (j != b && ((row[j] >> b) & 1)) row[j] ^= row[b], inv[j] ^= inv[b];
  }
  /* row[b] = e_b now, so inv[b] is the index with offset 2^b */
  cute_tuple_clear(&r.shape);
  cute_tuple_clear(&r.stride);
  if ((st = cute_tuple_open(&r.shape, err)) ||
      (st = cute_tuple_open(&r.stride, err)))
    return st;
  for (b = 0; b < n && !st; b++)
    if (!(st = cute_tuple_leaf(&r.shape, 2, 0, err)))
      st = cute_tuple_leaf(&r.stride, (int64_t)inv[b], F2, err);
  if (!st && last_s && !(st = cute_tuple_leaf(&r.shape, last_s, 0, err)))
    st = cute_tuple_leaf(&r.stride, (int64_t)1 << n, F2, err);
  if (!st && !(st = cute_tuple_close(&r.shape, err)))
    st = cute_tuple_close(&r.stride, err);
  if (st) {
    cute_error_context(err, op, L, NULL);
    return st;
  }
  return cute_coalesce(out, &r, err);
}
