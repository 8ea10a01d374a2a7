/*
 * fuzz_tiling.c -- the divides and products by a tiler (paper 3.5.1-3.5.2)
 * and partitioning (3.3.4): cute.h's definitions and @post, by brute force.
 *
 * Input "A|T", "A|T|n" or "A|T|thr|n": A a layout, T a tiler ("<..>"
 * lists of layouts, `_` and lists, nesting; `_`; or a layout), thr a thread
 * layout, n an integer (local_tile's flat tile index, local_partition's
 * thread index).  Every operation runs on what
 * parses (crashes, UB, and the error contract: a known status whose
 * message names the call).  Whenever one succeeds on operands small
 * enough to enumerate:
 *   - divides: by a layout B, size(out) = size(B) size(B*) >= size(A)
 *     (= size(A) when B tiles A) and the definition
 *       logical_divide(A, B)(i) = A((B, B*)(i)),  B* = complement(B, size(A))
 *     and zipped/tiled/flat are the same function of i; by any tiler whose
 *     divide has size(A), the four have A's image, as a multiset;
 *   - products by a layout B: size(out) = size(A) size(B) and
 *       logical_product(A, B)(a + size(A) b) = A(a) + A*(B(b)),
 *     A* = complement(A); zipped/tiled/flat/blocked/raked have the
 *     logical product's image, as a multiset;
 *   - local_tile(A, T, n) = Z sliced at (tile, n), Z = zipped_divide(A, T):
 *       offset + out(i) = Z(i + size(Z0) n);
 *   - local_partition(A, thr, n): Z = zipped_divide(A, <size(thr_k):1,..>)
 *     (by the layout size(thr):1 when thr's shape is an integer)
 *     and t the index of flat_coord(thr, n) in those sizes:
 *       offset + out(j) = Z(t + size(Z0) j).
 */
#include "fuzz_common.h"

#include <stdio.h>
#include <string.h>

typedef cute_status (*tiler_op)(cute_layout *, const cute_layout *,
                                const cute_tiler *, cute_error *);
typedef cute_status (*pair_op)(cute_layout *, const cute_layout *,
                               const cute_layout *, cute_error *);

static int64_t va[FZ_MAX_SIZE], vb[FZ_MAX_SIZE];
static int64_t sa[FZ_MAX_SIZE], sb[FZ_MAX_SIZE];

/* Appends the tiler text t[0..len) to T: `_`, a layout, or a list
 * "<T0,T1,...>" split at its top-level commas (cute_tiler_parse reads flat
 * lists of layouts only).  0 when the text is not a tiler. */
static int build(cute_tiler *T, const char *t, size_t len, int depth)
{
  char buf[FZ_MAX_INPUT + 1];
  size_t i, start;
  int level = 0;
  for (; len > 0 && *t == ' '; t++)
    len--;
  while (len > 0 && t[len - 1] == ' ')
    len--;
  if (len == 1 && *t == '_') {
    T->tok[T->ntok++] = '_';
    return T->ntok < CUTE_MAX_TILER_TOKENS;
  }
  if (len == 0 || *t != '<') {
    if (T->n == CUTE_MAX_TILER || len > FZ_MAX_INPUT)
      return 0;
    memcpy(buf, t, len);
    buf[len] = '\0';
    T->tok[T->ntok++] = 'L';
    return fz_layout(&T->mode[T->n++], buf) &&
           T->ntok < CUTE_MAX_TILER_TOKENS;
  }
  if (t[len - 1] != '>' || depth > CUTE_MAX_DEPTH)
    return 0;
  T->tok[T->ntok++] = '<';
  for (i = start = 1; i < len; i++) {
    level += t[i] == '(' || t[i] == '<';
    level -= t[i] == ')' || (t[i] == '>' && i + 1 < len);
    if ((level == 0 && t[i] == ',') || i + 1 == len) {
      if (T->ntok + 2 >= CUTE_MAX_TILER_TOKENS ||
          !build(T, t + start, i - start, depth + 1))
        return 0;
      start = i + 1;
    }
  }
  T->tok[T->ntok++] = '>';
  return 1;
}

/* T from its text; a list without `_` or nesting also goes through the
 * parser, which must read it the same. */
static int tiler(cute_tiler *T, const char *text)
{
  cute_tiler P;
  cute_error e;
  char a[CUTE_MAX_TEXT + 1], b[CUTE_MAX_TEXT + 1];
  T->n = 0;
  T->ntok = 0;
  if (!build(T, text, strlen(text), 0) ||
      !fz_ok(cute_tiler_check(T, &e), &e, "tiler"))
    return 0;
  if (*text == '<' && !strpbrk(text + 1, "<_") &&
      fz_parsed(cute_tiler_parse(&P, text, &e), &e, text)) {
    cute_tiler_print(T, a, sizeof a);
    cute_tiler_print(&P, b, sizeof b);
    fz_require(strcmp(a, b) == 0, "tiler %s parses as %s, built as %s", text,
               b, a);
  }
  return 1;
}

/* Is T one layout (tok "L"), not a list or `_`? */
static const cute_layout *single(const cute_tiler *T)
{
  return T->ntok == 1 && T->tok[0] == 'L' ? &T->mode[0] : NULL;
}

/* Do R and W have the same values as multisets?  Both sizes n, small. */
static int same_image(const cute_layout *R, const cute_layout *W, int64_t n)
{
  int64_t i;
  if (!fz_eval_all(R, n, va) || !fz_eval_all(W, n, vb))
    return 1;                            /* overflow: nothing to compare */
  fz_sorted(va, n, sa);
  fz_sorted(vb, n, sb);
  for (i = 0; i < n; i++)
    if (sa[i] != sb[i])
      return 0;
  return 1;
}

/* A((B, B*)(i)) for every i: the divide's definition. */
static void check_divide_def(const cute_layout *A, const cute_layout *B,
                             const cute_layout *R)
{
  cute_layout Bs;
  cute_error e;
  int64_t na = fz_size(A), nb = fz_size(B), i, b, bs, want, got;
  /* coordinate tilers (basis strides) have no integer B(i) to compose:
   * spec/lua/coordinate_tiler_spec.lua checks their divides */
  if (cute_layout_has_basis(A) || cute_layout_has_basis(B) ||
      cute_complement(&Bs, B, na, &e) || nb <= 0)
    return;
  for (i = 0; i < fz_size(R); i++) {
    if (!fz_eval(B, i % nb, &b) || !fz_eval(&Bs, i / nb, &bs) ||
        (fz_i128)b + bs < 0 || !fz_eval(A, b + bs, &want) ||
        !fz_eval(R, i, &got))
      return;
    fz_require(got == want, "logical_divide(%s, %s) = %s: at %lld %lld, "
               "not A((B, B*)(i)) = %lld (B* = %s)", fz_text(A), fz_text(B),
               fz_text(R), (long long)i, (long long)got, (long long)want,
               fz_text(&Bs));
  }
}

/* size(A / B) = size(B) size(B*): size(A) when B tiles A, more when
 * size(B) does not divide it or B is larger. */
static void check_divide_size(const cute_layout *A, const cute_layout *B,
                              const cute_layout *R)
{
  cute_layout Bs;
  cute_error e;
  if (cute_complement(&Bs, B, fz_size(A), &e) || fz_size(B) < 0 ||
      fz_size(&Bs) < 0 || fz_size(R) < 0)
    return;
  fz_require((fz_i128)fz_size(B) * fz_size(&Bs) == fz_size(R),
             "logical_divide(%s, %s) = %s: size is not size(B) size(B*) "
             "(B* = %s)", fz_text(A), fz_text(B), fz_text(R), fz_text(&Bs));
  fz_require(fz_size(R) >= fz_size(A), "logical_divide(%s, %s) = %s: "
             "smaller than A", fz_text(A), fz_text(B), fz_text(R));
}

static void check_divides(const cute_layout *A, const cute_tiler *T)
{
  static const tiler_op ops[] = {cute_zipped_divide, cute_tiled_divide,
                                 cute_flat_divide};
  static const char *const names[] = {"zipped_divide", "tiled_divide",
                                      "flat_divide"};
  const cute_layout *B = single(T);
  cute_layout R, X;
  cute_error e;
  int64_t n, i, x, y;
  int k, ok = fz_ok(cute_logical_divide(&R, A, T, &e), &e, "logical_divide");
  int small = ok && fz_small(A) && fz_small(&R);
  n = ok ? fz_size(&R) : -1;
  if (ok && B)
    check_divide_size(A, B, &R);
  if (small && B)
    check_divide_def(A, B, &R);
  /* A tiler that does not tile A ((3,4):(4,1) / 5:1 has size 15) reaches
   * past A's domain: A's image is kept where the sizes agree. */
  if (small && n == fz_size(A) && !same_image(&R, A, n))
    fz_require(0, "logical_divide(%s) = %s: not A's image", fz_text(A),
               fz_text(&R));
  for (k = 0; k < 3; k++) {
    if (!fz_ok(ops[k](&X, A, T, &e), &e, names[k]))
      continue;
    fz_require(ok, "%s(%s) succeeds where logical_divide fails", names[k],
               fz_text(A));
    if (!small)
      continue;
    fz_require(fz_size(&X) == n && same_image(&X, &R, n), "%s(%s) = %s: "
               "not logical_divide's image %s", names[k], fz_text(A),
               fz_text(&X), fz_text(&R));
    for (i = 0; B && i < n; i++)
      if (fz_eval(&X, i, &x) && fz_eval(&R, i, &y))
        fz_require(x == y, "%s(%s) = %s differs from %s at %lld", names[k],
                   fz_text(A), fz_text(&X), fz_text(&R), (long long)i);
  }
}

/* out(a + size(A) b) = A(a) + A*(B(b)): the product's @post. */
static void check_product_def(const cute_layout *A, const cute_layout *B,
                              const cute_layout *R)
{
  cute_layout As;
  cute_error e;
  int64_t na = fz_size(A), nb = fz_size(B), a, b, x, y, z, got;
  if (cute_complement(&As, A, 0, &e))
    return;
  for (b = 0; b < nb; b++) {
    if (!fz_eval(B, b, &x) || x < 0 || !fz_eval(&As, x, &y))
      continue;
    for (a = 0; a < na; a++) {
      if (!fz_eval(A, a, &z) || !fz_eval(R, a + na * b, &got))
        return;
      fz_require((fz_i128)got == (fz_i128)z + y, "logical_product(%s, %s) = "
                 "%s: at (%lld, %lld) %lld, not A(a) + A*(B(b)) = %lld "
                 "(A* = %s)", fz_text(A), fz_text(B), fz_text(R),
                 (long long)a, (long long)b, (long long)got,
                 (long long)(z + y), fz_text(&As));
    }
  }
}

static void check_products(const cute_layout *A, const cute_tiler *T)
{
  static const tiler_op ops[] = {cute_zipped_product, cute_tiled_product,
                                 cute_flat_product};
  static const char *const names[] = {"zipped_product", "tiled_product",
                                      "flat_product", "blocked_product",
                                      "raked_product"};
  static const pair_op pairs[] = {cute_blocked_product, cute_raked_product};
  const cute_layout *B = single(T);
  cute_layout R, X;
  cute_error e;
  cute_status st;
  int64_t n;
  int k, ok = fz_ok(cute_logical_product(&R, A, T, &e), &e,
                    "logical_product");
  int small = ok && fz_small(&R);
  n = ok ? fz_size(&R) : -1;
  /* a size past 2^63 - 1 is no error of the product, only of size() */
  if (ok && B && fz_size(A) >= 0 && fz_size(B) >= 0 && n >= 0)
    fz_require((fz_i128)fz_size(A) * fz_size(B) == n, "logical_product(%s, "
               "%s) = %s: size is not size(A) size(B)", fz_text(A),
               fz_text(B), fz_text(&R));
  if (small && B && fz_small(A) && fz_small(B))
    check_product_def(A, B, &R);
  for (k = 0; k < 5; k++) {
    if (k >= 3 && !B)
      break;
    st = k < 3 ? ops[k](&X, A, T, &e) : pairs[k - 3](&X, A, B, &e);
    if (!fz_ok(st, &e, names[k]) || !small)
      continue;
    fz_require(fz_size(&X) == n && same_image(&X, &R, n), "%s(%s) = %s: not "
               "logical_product's image %s", names[k], fz_text(A),
               fz_text(&X), fz_text(&R));
  }
}

/* Z(i) for the slice checks, or 0 when it cannot be computed. */
static int z_at(const cute_layout *Z, int64_t i, int64_t *v)
{
  return i >= 0 && i < fz_size(Z) && fz_eval(Z, i, v);
}

/* offset + out(i) = Z(base + step i) for every i of out. */
static void check_slice(const char *op, const cute_layout *A,
                        const cute_layout *Z, const cute_layout *out,
                        const cute_tuple *off, int64_t base, int64_t step)
{
  int64_t i, x, z;
  if (!fz_small(out) || !fz_small(Z) || !cute_tuple_is_int(off))
    return;
  for (i = 0; i < fz_size(out); i++) {
    /* in 128 bits: a tile index near 2^63 must not wrap into range */
    fz_i128 at = (fz_i128)base + (fz_i128)step * i;
    if (at >= fz_size(Z) || !fz_eval(out, i, &x) || !z_at(Z, (int64_t)at, &z))
      return;
    fz_require((fz_i128)off->v[0] + x == z, "%s(%s) = %s at %lld: %lld + "
               "%lld, not %s(%lld) = %lld", op, fz_text(A), fz_text(out),
               (long long)i, (long long)off->v[0], (long long)x, fz_text(Z),
               (long long)at, (long long)z);
  }
}

static void check_local_tile(const cute_layout *A, const cute_tiler *T,
                             int64_t n)
{
  cute_layout out, Z, Z0;
  cute_tuple c, off;
  cute_error e;
  cute_tuple_int(&c, n);
  if (!fz_ok(cute_local_tile(&out, &off, A, T, &c, NULL, &e), &e,
             "local_tile"))
    return;
  /* an integer n fixes the whole rest: out is the tile, i < size(Z0) */
  if (cute_zipped_divide(&Z, A, T, &e) || !fz_mode(&Z0, &Z, 0))
    return;
  fz_require(fz_size(&out) == fz_size(&Z0), "local_tile(%s, %lld) = %s: "
             "not the size of the tile %s", fz_text(A), (long long)n,
             fz_text(&out), fz_text(&Z0));
  if ((fz_i128)fz_size(&Z0) * n <= INT64_MAX)
    check_slice("local_tile", A, &Z, &out, &off, fz_size(&Z0) * n, 1);
}

static void check_local_partition(const cute_layout *A,
                                  const cute_layout *thr, int64_t n)
{
  cute_layout out, Z, Z0, m;
  cute_tiler T;
  cute_tuple off, tc;
  cute_error e;
  char text[CUTE_MAX_TEXT];
  size_t len = 0;
  int64_t t = 0, scale = 1, s;
  int k, r = cute_layout_rank(thr), list = !cute_tuple_is_int(&thr->shape);
  if (!fz_ok(cute_local_partition(&out, &off, A, thr, n, NULL, &e), &e,
             "local_partition"))
    return;
  fz_require(!cute_layout_flat_coord(&tc, thr, n, &e), "local_partition(%s, "
             "%s, %lld) succeeds, flat_coord fails: %s", fz_text(A),
             fz_text(thr), (long long)n, e.msg);
  /* An integer-shaped thr (10:1) tiles A as the layout 10:1, not by
   * mode: CuTe's product_each of an integer is that integer, and an
   * integer tiler divides the whole of A. */
  if (list) text[len++] = '<';
  for (k = 0; k < r; k++) {
    if (!fz_mode(&m, thr, k) || (s = fz_size(&m)) <= 0)
      return;
    t += scale * (cute_tuple_is_int(&tc) ? tc.v[0] : tc.v[k]);
    scale *= s;
    len += (size_t)snprintf(text + len, sizeof text - len, "%s%lld:1",
                            k ? "," : "", (long long)s);
    if (len + 24 >= sizeof text)
      return;
  }
  if (list) text[len++] = '>';
  text[len] = '\0';
  if (cute_tiler_parse(&T, text, &e) || cute_zipped_divide(&Z, A, &T, &e) ||
      !fz_mode(&Z0, &Z, 0))
    return;
  check_slice("local_partition", A, &Z, &out, &off, t, fz_size(&Z0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fz_input in;
  cute_layout A, thr;
  cute_tiler T;
  int64_t n = 0;
  if (!fz_split(&in, data, size) || in.n < 2 || !fz_layout(&A, in.f[0]) ||
      !tiler(&T, in.f[1]))
    return 0;
  check_divides(&A, &T);
  check_products(&A, &T);
  if (in.n == 3 && fz_int(&n, in.f[2]))
    check_local_tile(&A, &T, n);
  if (in.n == 4 && fz_layout(&thr, in.f[2]) && fz_int(&n, in.f[3]))
    check_local_partition(&A, &thr, n);
  return 0;
}
