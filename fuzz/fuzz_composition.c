/*
 * fuzz_composition.c -- R = A o B (paper 3.3), by-mode tilers (3.3.5) and
 * composed (swizzled) layouts.
 *
 * Input "A|B": A a layout or a composed layout "Sw<b,m,s> o off o L", B a
 * layout or a tiler "<T0,T1,...>".  Whenever the algebra succeeds:
 *   - layout o layout: size(R) = size(B), shape(B) compatible with
 *     shape(R), and R(i) = A(B(i)) for every i < size(B) (A on its extended
 *     domain; B may be a coordinate layout, then A is evaluated at the
 *     coordinate B(i), conformed to A's shape by fz_conform, and values
 *     are compared as points, fz_same_value);
 *   - layout o tiler: rank(R) = n, R's mode k is A's mode k o T_k, the
 *     same layout the plain composition gives, and the tiler fails only
 *     when it is longer than A or one of those compositions fails;
 *   - composed o layout: same swizzle and offset, layout L o B;
 *   - completeness: A o size(A):1 succeeds (only a limit or an overflow
 *     may stop it).
 */
#include "fuzz_common.h"

/* R(i) = A(B(i)) for i < size(B), when B is small enough to enumerate. */
static void check_points(const cute_layout *A, const cute_layout *B,
                         const cute_layout *R)
{
  int64_t n = fz_size(B), i;
  cute_tuple b, a, r;
  fz_require(n == fz_size(R), "size(%s o %s = %s) != size(B)", fz_text(A),
             fz_text(B), fz_text(R));
  fz_require(cute_compatible(&B->shape, &R->shape),
             "%s o %s = %s: shape not compatible with B's", fz_text(A),
             fz_text(B), fz_text(R));
  if (n < 0 || n > FZ_MAX_SIZE)
    return;
  for (i = 0; i < n; i++) {
    cute_error e;
    cute_status st;
    if (!fz_eval_at(B, i, &b))
      continue;
    if (!cute_tuple_is_int(&b) && fz_conform(&a, &b, &A->shape))
      cute_tuple_copy(&b, &a);
    st = cute_layout_eval(A, &b, &a, &e);
    if (!fz_ok(st, &e, "layout")) {
      /* ECODOMAIN: A mixes integer and basis strides; it parses but has
       * no value anywhere.  ELIMIT: A's values are wider than a tuple
       * holds ((8,8):(1@0,0@132)).  R, made of the modes B reaches, has
       * nothing to be compared with then. */
      fz_require(st == CUTE_EOVERFLOW || st == CUTE_ECODOMAIN ||
                     st == CUTE_ELIMIT,
                 "%s o %s = %s, yet A(B(%lld) = %s): %s", fz_text(A),
                 fz_text(B), fz_text(R), (long long)i, fz_ttext(&b), e.msg);
      continue;
    }
    fz_require(fz_eval_at(R, i, &r), "%s o %s = %s: R(%lld) fails, A(B(i)) "
               "= %s", fz_text(A), fz_text(B), fz_text(R), (long long)i,
               fz_ttext(&a));
    fz_require(fz_same_value(&r, &a), "%s o %s = %s: R(%lld) = %s, "
               "A(B(i)) = A(%s) = %s", fz_text(A), fz_text(B), fz_text(R),
               (long long)i, fz_ttext(&r), fz_ttext(&b), fz_ttext(&a));
  }
}

/* Returns whether A o B succeeded (into R). */
static int check_composition(cute_layout *R, const cute_layout *A,
                             const cute_layout *B)
{
  cute_error e;
  if (!fz_ok(cute_composition(R, A, B, &e), &e, "composition"))
    return 0;
  check_points(A, B, R);
  return 1;
}

/* Completeness: A o size(A):1 is always admissible (stride 1, shape the
 * whole of A) and is A's function; only a limit or overflow may stop it. */
static void check_identity(const cute_layout *A)
{
  cute_layout I, R;
  cute_tuple n;
  cute_error e;
  cute_status st;
  int64_t size = fz_size(A);
  if (size < 0)
    return;
  cute_tuple_int(&n, size);
  cute_layout_left(&I, &n, NULL);
  st = cute_composition(&R, A, &I, &e);
  if (fz_ok(st, &e, "composition"))
    check_points(A, &I, &R);
  else /* a binary A composes only where it is linear in its index bits
        * (every leaf but the last a power of two): a named refusal */
    fz_require(st == CUTE_EOVERFLOW || st == CUTE_ELIMIT ||
               (cute_layout_is_f2(A) && st == CUTE_EINVAL),
               "%s o %s fails: %s", fz_text(A), fz_text(&I), e.msg);
}

static void check_tiler(const cute_layout *A, const cute_tiler *T)
{
  cute_layout R, Rk, Ak, P;
  cute_error e;
  cute_status st = cute_composition_tiler(&R, A, T, &e);
  int k, modes_ok = T->n <= cute_layout_rank(A);
  for (k = 0; k < T->n && modes_ok; k++) {
    modes_ok = fz_mode(&Ak, A, k) && check_composition(&P, &Ak, &T->mode[k]);
    if (modes_ok && st == CUTE_OK) {
      fz_require(fz_mode(&Rk, &R, k) && cute_layout_equal(&Rk, &P),
                 "%s o tiler = %s: mode %d is not %s o %s = %s", fz_text(A),
                 fz_text(&R), k, fz_text(&Ak), fz_text(&T->mode[k]),
                 fz_text(&P));
    }
  }
  if (!fz_ok(st, &e, "composition")) {
    fz_require(!modes_ok, "%s o tiler fails (%s), each mode composes",
               fz_text(A), e.msg);
    return;
  }
  fz_require(modes_ok, "%s o tiler = %s, yet a mode does not compose",
             fz_text(A), fz_text(&R));
  fz_require(T->n == 0 || cute_layout_rank(&R) == T->n,
             "%s o tiler of %d modes = %s", fz_text(A), T->n, fz_text(&R));
}

static void check_composed(const cute_composed *C, const cute_layout *B)
{
  cute_composed R;
  cute_layout P;
  cute_error e;
  int64_t n, i, b, x, y;
  cute_status st = cute_composed_compose(&R, C, B, &e);
  int plain = check_composition(&P, &C->layout, B);
  if (!fz_ok(st, &e, "composition")) {
    fz_require(!plain, "(%s) o %s fails: %s", fz_text(&C->layout),
               fz_text(B), e.msg);
    return;
  }
  fz_require(plain && R.sw.b == C->sw.b && R.sw.m == C->sw.m &&
                 R.sw.s == C->sw.s && R.offset == C->offset &&
                 cute_layout_equal(&R.layout, &P),
             "Sw o %lld o %s o %s = ... o %s", (long long)C->offset,
             fz_text(&C->layout), fz_text(B), fz_text(&R.layout));
  n = fz_size(B);
  if (!fz_small(B))
    return;
  for (i = 0; i < n; i++) {
    if (!fz_eval(B, i, &b) ||
        !fz_ok(cute_composed_eval_index(C, b, &x, &e), &e, "layout"))
      continue;
    fz_require(fz_ok(cute_composed_eval_index(&R, i, &y, &e), &e, "layout")
                   && x == y,
               "composed o %s: R(%lld) != C(B(i)) = %lld", fz_text(B),
               (long long)i, (long long)x);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static fz_input in;
  cute_layout A, B, R;
  cute_composed C;
  cute_tiler T;
  cute_error e;
  if (!fz_split(&in, data, size))
    return 0;
  if (fz_starts_with(in.f[1], "<")) {
    if (fz_parsed(cute_tiler_parse(&T, in.f[1], &e), &e, in.f[1]) &&
        fz_layout(&A, in.f[0]))
      check_tiler(&A, &T);
    return 0;
  }
  if (!fz_layout(&B, in.f[1]))
    return 0;
  if (fz_starts_with(in.f[0], "Sw")) {
    if (fz_parsed(cute_composed_parse(&C, in.f[0], &e), &e, in.f[0]))
      check_composed(&C, &B);
  } else if (fz_layout(&A, in.f[0])) {
    check_composition(&R, &A, &B);
    check_identity(&A);
  }
  return 0;
}
