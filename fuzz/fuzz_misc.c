/*
 * fuzz_misc.c -- swizzles, composed layouts, max_common_vector/layout
 * (paper 3.4.2) and recast (upcast / downcast).
 *
 * Input "X|Y|n|m":
 *   - X a swizzle "Sw<b,m,s>": the parser accepts exactly the parameters
 *     cute.h allows (b, m >= 0, |s| >= b, m+|s|+b <= 62), and apply is
 *     the documented bit formula and an involution, at 0..4095 and at n,
 *     m; Y "(b,m,s)" goes through cute_swizzle_make likewise, and a
 *     hand-made Sw with those fields applies as the formula if valid,
 *     else as the identity;
 *   - X a composed layout "Sw<..> o off o L": C(i) = Sw(off + L(i)) by
 *     index and by coordinate, size(C) = size(L), cosize(C) = max + 1;
 *   - X, Y layouts: K = max_common_vector, R = max_common_layout agree
 *     (status, size(R) = K) and X(R(k)) = Y(R(k)) = k, R(k) an index of
 *     both, for k < K; they fail only on coordinate layouts or overflow;
 *   - X a layout, n (and m): upcast(X, n) touches only wide elements
 *     floor(X(i)/n), and all of them when X's image is whole wide
 *     elements (X injective, non-negative strides: leaf by leaf,
 *     overlapping or interleaved modes lose elements, (8,8):(2,1) and
 *     (6,4):(4,3) by 8 and 12 give (2,1):(1,1)); downcast(X, n) D has
 *     upcast(D, n) = X, and with one stride-1 leaf, an injective X and
 *     non-negative strides, D's image is { n*X(i) + r : r < n };
 *     recast(X, n, m) is upcast or downcast by the ratio.
 */
#include "fuzz_common.h"

#include <string.h>

static int64_t vals[FZ_MAX_SIZE], sorted[FZ_MAX_SIZE];
static int64_t wide[FZ_MAX_SIZE], wsorted[FZ_MAX_SIZE];

/* ------------------------------------------------------------- swizzle -- */

static int64_t swizzle_ref(cute_swizzle sw, int64_t x)
{
  uint64_t u = (uint64_t)x, mask = ((uint64_t)1 << sw.b) - 1;
  if (sw.s >= 0)
    u ^= ((u >> (sw.m + sw.s)) & mask) << sw.m;
  else
    u ^= ((u >> sw.m) & mask) << (sw.m - sw.s);
  return (int64_t)u;
}

static int swizzle_valid(int64_t b, int64_t m, int64_t s)
{
  int64_t as = s < 0 ? -s : s;
  return b >= 0 && m >= 0 && as >= b && m + as + b <= 62;
}

static void check_apply(cute_swizzle sw, int64_t x)
{
  int64_t y = cute_swizzle_apply(sw, x);
  fz_require(y == swizzle_ref(sw, x) && cute_swizzle_apply(sw, y) == x,
             "Sw<%d,%d,%d>(%lld) = %lld", sw.b, sw.m, sw.s, (long long)x,
             (long long)y);
}

static void check_swizzle(const char *text, const fz_input *in)
{
  cute_swizzle sw;
  cute_error e;
  cute_tuple t;
  int64_t x;
  if (fz_parsed(cute_swizzle_parse(&sw, text, &e), &e, text)) {
    fz_require(swizzle_valid(sw.b, sw.m, sw.s), "%s accepted", text);
    for (x = 0; x < 4096; x++)
      check_apply(sw, x);
    if (fz_int(&x, in->f[2]))
      check_apply(sw, x);
    if (fz_int(&x, in->f[3]))
      check_apply(sw, x);
  }
  if (fz_tuple(&t, in->f[1]) && t.nleaf == 3 && t.ntok == 5 &&
      t.v[0] >= -1000 && t.v[0] <= 1000 && t.v[1] >= -1000 &&
      t.v[1] <= 1000 && t.v[2] >= -1000 && t.v[2] <= 1000) {
    cute_swizzle raw;
    int valid = swizzle_valid(t.v[0], t.v[1], t.v[2]);
    cute_status st = cute_swizzle_make(&sw, (int)t.v[0], (int)t.v[1],
                                       (int)t.v[2], &e);
    fz_require(fz_ok(st, &e, "swizzle") == valid, "swizzle_make%s: %s",
               fz_ttext(&t), cute_status_name(st));
    /* cute.h: an invalid hand-made value applies as the identity. */
    raw.b = (int)t.v[0];
    raw.m = (int)t.v[1];
    raw.s = (int)t.v[2];
    for (x = -64; x < 4096; x += 61)
      fz_require(cute_swizzle_apply(raw, x) ==
                     (valid ? swizzle_ref(raw, x) : x),
                 "hand-made Sw<%d,%d,%d>(%lld)", raw.b, raw.m, raw.s,
                 (long long)x);
  }
}

static void check_composed(const cute_composed *C)
{
  int64_t n = fz_size(&C->layout), i, v, x, max = INT64_MIN, cos;
  cute_tuple crd;
  cute_error e;
  int all = 1;
  if (fz_ok(cute_composed_size(C, &v, &e), &e, "size"))
    fz_require(v == n, "size of composed %s", fz_text(&C->layout));
  if (!fz_small(&C->layout))
    return;
  for (i = 0; i < n; i++) {
    fz_i128 o;
    int ok = fz_eval(&C->layout, i, &v);
    o = (fz_i128)C->offset + v;
    if (!fz_ok(cute_composed_eval_index(C, i, &x, &e), &e, "layout")) {
      all = 0;
      continue;
    }
    fz_require(ok && o == (int64_t)o && x == swizzle_ref(C->sw, (int64_t)o),
               "composed Sw o %lld o %s at %lld = %lld", (long long)C->offset,
               fz_text(&C->layout), (long long)i, (long long)x);
    fz_require(cute_idx2crd(&crd, i, &C->layout.shape, &e) == CUTE_OK &&
                   cute_composed_eval(C, &crd, &v, &e) == CUTE_OK && v == x,
               "composed at %s != at %lld", fz_ttext(&crd), (long long)i);
    max = x > max ? x : max;
  }
  if (fz_ok(cute_composed_cosize(C, &cos, &e), &e, "cosize") && all)
    fz_require(cos == max + 1, "cosize of composed ... o %s = %lld, max %lld",
               fz_text(&C->layout), (long long)cos, (long long)max);
}

/* ------------------------------------------------------ common vector -- */

static void check_common(const cute_layout *X, const cute_layout *Y)
{
  cute_layout R;
  cute_error e;
  int64_t K, k, r, x, y, nx = fz_size(X), ny = fz_size(Y);
  cute_status s1 = cute_max_common_vector(X, Y, &K, &e);
  int ok1 = fz_ok(s1, &e, "max_common_vector");
  cute_status s2;
  fz_require(ok1 || s1 == CUTE_EOVERFLOW ||
                 cute_layout_has_basis(X) || cute_layout_has_basis(Y),
             "max_common_vector(%s, %s) fails: %s", fz_text(X), fz_text(Y),
             e.msg);
  s2 = cute_max_common_layout(&R, X, Y, &e);
  fz_ok(s2, &e, "max_common_layout");
  fz_require(s1 == s2 || (s1 == CUTE_EOVERFLOW && s2 == CUTE_OK),
             "max_common_vector(%s, %s) %s, max_common_layout %s", fz_text(X),
             fz_text(Y), cute_status_name(s1), cute_status_name(s2));
  if (!ok1 || s2 != CUTE_OK)
    return;
  fz_require(fz_size(&R) == K, "max_common_layout(%s, %s) = %s, K = %lld",
             fz_text(X), fz_text(Y), fz_text(&R), (long long)K);
  for (k = 0; k < K && k < FZ_MAX_SIZE; k++) {
    if (!fz_eval(&R, k, &r))
      return;
    fz_require(r >= 0 && (nx < 0 || r < nx) && (ny < 0 || r < ny),
               "max_common_layout(%s, %s) = %s: R(%lld) = %lld is no index",
               fz_text(X), fz_text(Y), fz_text(&R), (long long)k,
               (long long)r);
    if (fz_eval(X, r, &x) && fz_eval(Y, r, &y))
      fz_require(x == k && y == k, "max_common_layout(%s, %s) = %s: at %lld"
                 " X = %lld, Y = %lld", fz_text(X), fz_text(Y), fz_text(&R),
                 (long long)k, (long long)x, (long long)y);
  }
}

/* -------------------------------------------------------------- recast -- */

static int nonnegative(const cute_layout *X)
{
  int k, unit = 0;
  for (k = 0; k < X->stride.nleaf; k++) {
    if (X->stride.v[k] < 0)
      return -1;
    unit += X->stride.v[k] == 1;
  }
  return unit;
}

/* The distinct values of v[0..n) (sorted into s), as a count. */
static int64_t distinct(const int64_t *v, int64_t n, int64_t *s)
{
  int64_t k, m = 0;
  fz_sorted(v, n, s);
  for (k = 0; k < n; k++)
    if (k == 0 || s[k] != s[m - 1])
      s[m++] = s[k];
  return m;
}

/* Every wide element U touches is one X touches: U's coordinate c' of a
 * narrow leaf s:d (|d| < n) is X's coordinate c'*n/|d|, so U(i') = X(i)/n
 * exactly.  The converse needs X's image to be whole wide elements: an
 * interleaved X like (6,4):(4,3) by 12 spans elements 0..2, U =
 * (2,1):(1,1) only 0..1 (leaf by leaf, as CuTe's upcast). */
static void check_upcast(const cute_layout *X, const cute_layout *U, int64_t n)
{
  int64_t nx = fz_size(X), nu, k, m, mu;
  if (nonnegative(X) < 0 || !fz_small(X) || !fz_small(U) ||
      !fz_eval_all(X, nx, vals) || !fz_sorted(vals, nx, sorted))
    return;
  for (k = 0; k < nx; k++)
    vals[k] /= n;
  m = distinct(vals, nx, sorted);
  nu = fz_size(U);
  if (!fz_eval_all(U, nu, wide))
    return;
  mu = distinct(wide, nu, wsorted);
  for (k = 0; k < mu; k++)
    fz_require(fz_member(sorted, m, wsorted[k]), "upcast(%s, %lld) = %s "
               "touches element %lld, which X does not", fz_text(X),
               (long long)n, fz_text(U), (long long)wsorted[k]);
  if ((fz_i128)m * n == nx)
    fz_require(m == mu, "upcast(%s, %lld) = %s does not touch all %lld "
               "elements of X, which fills them", fz_text(X), (long long)n,
               fz_text(U), (long long)m);
}

static void check_downcast(const cute_layout *X, const cute_layout *D,
                           int64_t n)
{
  cute_layout U;
  cute_error e;
  int64_t nx = fz_size(X), nd, k, r;
  cute_status st = cute_upcast(&U, D, n, &e);
  fz_require(st == CUTE_EOVERFLOW ||
                 (st == CUTE_OK && cute_layout_equal(&U, X)),
             "upcast(downcast(%s, %lld) = %s) %s", fz_text(X), (long long)n,
             fz_text(D), st == CUTE_OK ? fz_text(&U) : e.msg);
  if (nonnegative(X) != 1 || !fz_small(X) || !fz_small(D) ||
      !fz_eval_all(X, nx, vals) || !fz_sorted(vals, nx, sorted))
    return;
  nd = fz_size(D);
  fz_require(nd == nx * n, "downcast(%s, %lld) = %s: size", fz_text(X),
             (long long)n, fz_text(D));
  if (!fz_eval_all(D, nd, wide))
    return;
  for (k = 0; k < nd; k++) {
    fz_i128 q = wide[k] / n;
    r = wide[k] % n;
    fz_require(fz_member(sorted, nx, (int64_t)q) && r >= 0,
               "downcast(%s, %lld) = %s: %lld is in no element", fz_text(X),
               (long long)n, fz_text(D), (long long)wide[k]);
  }
  fz_require(fz_sorted(wide, nd, wsorted), "downcast(%s, %lld) = %s is not "
             "injective", fz_text(X), (long long)n, fz_text(D));
}

/* recast(X, n, m) is downcast by n/g, then upcast by m/g, g = gcd(n, m):
 * one step is the identity when one width divides the other. */
static void check_recast(const cute_layout *X, int64_t n, int64_t m)
{
  cute_layout R, D, Q;
  cute_error e;
  cute_status st = cute_recast(&R, X, n, m, &e), sq;
  int64_t g, a, b;
  if (!fz_ok(st, &e, "recast"))
    return;
  fz_require(n > 0 && m > 0, "recast(%s, %lld, %lld) succeeds", fz_text(X),
             (long long)n, (long long)m);
  for (a = n, b = m; b != 0;) {
    g = a % b;
    a = b;
    b = g;
  }
  g = a;
  sq = cute_downcast(&D, X, n / g, &e);
  if (sq == CUTE_OK)
    sq = cute_upcast(&Q, &D, m / g, &e);
  fz_require(sq == CUTE_OK && cute_layout_equal(&Q, &R), "recast(%s, %lld, "
             "%lld) = %s", fz_text(X), (long long)n, (long long)m,
             fz_text(&R));
}

static void check_recasts(const cute_layout *X, const fz_input *in)
{
  cute_layout U, D;
  cute_error e;
  int64_t n, m;
  if (!fz_int(&n, in->f[2]))
    return;
  if (fz_ok(cute_upcast(&U, X, n, &e), &e, "upcast"))
    check_upcast(X, &U, n);
  if (fz_ok(cute_downcast(&D, X, n, &e), &e, "downcast"))
    check_downcast(X, &D, n);
  if (fz_int(&m, in->f[3]))
    check_recast(X, n, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fz_input in;
  cute_layout X, Y;
  cute_composed C;
  cute_error e;
  if (!fz_split(&in, data, size))
    return 0;
  if (fz_starts_with(in.f[0], "Sw")) {
    check_swizzle(in.f[0], &in);
    if (fz_parsed(cute_composed_parse(&C, in.f[0], &e), &e, in.f[0]))
      check_composed(&C);
    return 0;
  }
  if (!fz_layout(&X, in.f[0]))
    return 0;
  if (fz_layout(&Y, in.f[1]))
    check_common(&X, &Y);
  check_recasts(&X, &in);
  return 0;
}
