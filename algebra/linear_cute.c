/*
 * linear_cute.c -- CuTe layouts to linear layouts and back (cute_linear.h,
 * cute_linear_from_composed / cute_linear_to_composed).
 *
 * A leaf s:d of a CuTe layout (s = 2^n) is n input bits whose bases are
 * the bit-steps d, 2d, ..., 2^(n-1) d: its coordinate c = sum of bits
 * 2^j gives c*d = sum of those steps.  The layout sums the steps of all
 * leaves, and a sum is the XOR of its terms exactly when no two terms share
 * a bit: that is the condition checked here, both ways.  A layout with
 * binary strides F<d> (linear_f2.c) XORs its steps already: no condition.
 */
#include "cute_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static uint64_t mask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int log2_exact(int64_t s)
{
  int n = 0;
  if (s <= 0 || (s & (s - 1))) return -1;
  while ((1ll << n) < s) n++;
  return n;
}

static int bit_length(uint64_t v)
{
  int n = 0;
  while (v) { n++; v >>= 1; }
  return n;
}

static void set_dim(cute_linear_dim *d, const char *name, int bits)
{
  snprintf(d->name, sizeof d->name, "%s", name);
  d->bits = bits;
}

/* One input bit of a CuTe layout: its step value, the basis component (-1
 * for an integer codomain) and where it came from (for messages). */
typedef struct step {
  uint64_t v;
  int comp, mode, leaf, j;
} step;

static cute_status to_lin_fail(cute_error *err, const cute_composed *C,
                               cute_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static cute_status to_lin_fail(cute_error *err, const cute_composed *C,
                               cute_status st, const char *fmt, ...)
{
  char text[CUTE_MAX_TEXT], msg[CUTE_ERRMSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (C->sw.b > 0) cute_composed_print(C, text, sizeof text);
  else cute_layout_print(&C->layout, text, sizeof text);
  cute_fail(err, st, "%s", msg);
  cute_error_prefix(err, "to_linear", text, (char *)NULL);
  return st;
}

/* The steps of every leaf, mode by mode (modes: mode index per step). */
static cute_status collect_steps(step *st, int *n, const cute_composed *C,
                                 cute_error *err)
{
  const cute_layout *L = &C->layout;
  int i, l, j, rank = cute_tuple_rank(&L->shape);
  cute_span sp;
  *n = 0;
  for (i = 0; i < rank; i++) {
    cute_tuple_span(&L->shape, i, &sp);
    for (l = sp.leaf0; l < sp.leaf1; l++) {
      int64_t s = L->shape.v[l], d = L->stride.v[l];
      cute_basis e = L->stride.e[l] & ~CUTE_BASIS_F2;
      int bits = log2_exact(s);
      if (bits < 0)
        return to_lin_fail(err, C, CUTE_EINVAL, "mode %d: leaf %d of shape "
                           "%lld is not a power of two", i, l, (long long)s);
      if (d < 0)
        return to_lin_fail(err, C, CUTE_EINVAL, "mode %d: leaf %d has the "
                           "negative stride %lld (F2 has no sign)", i, l,
                           (long long)d);
      if (e && CUTE_BASIS_LEN(e) != 1)
        return to_lin_fail(err, C, CUTE_EINVAL, "mode %d: leaf %d has a "
                           "nested basis stride (depth %d); only a@i maps "
                           "to an output dim", i, l, CUTE_BASIS_LEN(e));
      for (j = 0; j < bits; j++) {
        if (*n == CUTE_LINEAR_MAX_BITS)
          return to_lin_fail(err, C, CUTE_ELIMIT, "more than %d input bits "
                             "(CUTE_LINEAR_MAX_BITS)",
                             CUTE_LINEAR_MAX_BITS);
        if (d && bit_length((uint64_t)d) + j > CUTE_LINEAR_MAX_BITS)
          return to_lin_fail(err, C, CUTE_ELIMIT, "mode %d: leaf %d reaches "
                             "2^%lld, past CUTE_LINEAR_MAX_BITS output bits",
                             i, l, (long long)(bit_length((uint64_t)d) + j));
        st[*n].v = (uint64_t)d << j;
        st[*n].comp = e ? CUTE_BASIS_AT(e, 0) : -1;
        st[*n].mode = i;
        st[*n].leaf = l;
        st[*n].j = j;
        (*n)++;
      }
    }
  }
  return CUTE_OK;
}

/* Steps of one codomain component must not share a bit: then their sum
 * is their XOR. */
static cute_status check_disjoint(const step *st, int n, const cute_composed *C,
                                  cute_error *err)
{
  int a, b;
  for (a = 0; a < n; a++)
    for (b = 0; b < a; b++)
      if (st[a].comp == st[b].comp && (st[a].v & st[b].v))
        return to_lin_fail(err, C, CUTE_EINVAL, "mode %d: leaf %d has a "
                           "bit-step %lld that shares a bit with an earlier "
                           "one: the layout's sums carry, which no XOR does",
                           st[a].mode, st[a].leaf, (long long)st[a].v);
  return CUTE_OK;
}

cute_status cute_linear_from_composed(cute_linear *out, const cute_composed *C,
                                      const int64_t *tile, int ntile, int tv,
                                      cute_error *err)
{
  step st[CUTE_LINEAR_MAX_BITS];
  cute_linear r;
  int n, k, i, ncomp = 0, order[CUTE_LINEAR_MAX_BITS], m = 0;
  uint64_t any[CUTE_LINEAR_MAX_DIMS] = {0};
  cute_status s;
  memset(&r, 0, sizeof r);
  if (C->offset != 0)
    return to_lin_fail(err, C, CUTE_EINVAL, "the offset %lld is "
                       "affine, not linear", (long long)C->offset);
  if (cute_layout_is_f2(&C->layout)) {
    if ((s = cute_f2_check(&C->layout, "to_linear", err)) ||
        (s = collect_steps(st, &n, C, err)))
      return s;
  } else if ((s = collect_steps(st, &n, C, err)) ||
             (s = check_disjoint(st, n, C, err))) {
    return s;
  }
  for (k = 0; k < n; k++) {
    if (st[k].comp >= CUTE_LINEAR_MAX_DIMS)
      return to_lin_fail(err, C, CUTE_ELIMIT, "basis index %d past %d "
                         "output dims", st[k].comp,
                         CUTE_LINEAR_MAX_DIMS);
    if (st[k].comp >= 0 && (C->sw.b > 0 || ntile > 0))
      return to_lin_fail(err, C, CUTE_ECODOMAIN, "mode %d: leaf %d: a "
                         "coordinate codomain takes no swizzle or tile"
                         "", st[k].mode, st[k].leaf);
    if (st[k].comp < 0) st[k].v = (uint64_t)cute_swizzle_apply(C->sw,
                                                              (int64_t)st[k].v);
    if (st[k].comp + 1 > ncomp) ncomp = st[k].comp + 1;
    any[st[k].comp < 0 ? 0 : st[k].comp] |= st[k].v;
  }
  /* input dims, and the order of the steps as input bits */
  if (tv) {
    int rank = cute_tuple_rank(&C->layout.shape), nthr = 0;
    if (rank != 2)
      return to_lin_fail(err, C, CUTE_ERANK, "a TV layout has 2 modes "
                         "(thread, value), this one %d", rank);
    for (k = 0; k < n; k++) if (st[k].mode == 1) order[m++] = k;
    for (k = 0; k < n; k++) if (st[k].mode == 0) order[m++] = k, nthr++;
    r.nin = 3;
    set_dim(&r.in[0], "register", n - nthr);
    set_dim(&r.in[1], "lane", nthr < CUTE_LINEAR_LANE_BITS ? nthr
                                                           : CUTE_LINEAR_LANE_BITS);
    set_dim(&r.in[2], "warp", nthr - r.in[1].bits);
  } else {
    r.nin = cute_tuple_rank(&C->layout.shape);
    if (r.nin > CUTE_LINEAR_MAX_DIMS)
      return to_lin_fail(err, C, CUTE_ELIMIT, "%d modes, at most %d input "
                         "dims", r.nin, CUTE_LINEAR_MAX_DIMS);
    for (i = 0; i < r.nin; i++) {
      char name[CUTE_LINEAR_NAME];
      snprintf(name, sizeof name, "dim%d", i);
      set_dim(&r.in[i], name, 0);
    }
    for (k = 0; k < n; k++) order[m++] = k, r.in[st[k].mode].bits++;
  }
  /* output dims, and each step packed */
  if (ntile > 0) {
    int tb = 0;
    if (ntile > CUTE_LINEAR_MAX_DIMS)
      return to_lin_fail(err, C, CUTE_ELIMIT, "a tile of %d modes, at most "
                         "%d", ntile, CUTE_LINEAR_MAX_DIMS);
    for (i = 0; i < ntile; i++) {
      char name[CUTE_LINEAR_NAME];
      int b = log2_exact(tile[i]);
      if (b < 0)
        return to_lin_fail(err, C, CUTE_EINVAL, "tile mode %d of extent %lld "
                           "is not a power of two", i,
                           (long long)tile[i]);
      snprintf(name, sizeof name, "dim%d", i);
      set_dim(&r.out[i], name, b);
      tb += b;
    }
    r.nout = ntile;
    if (tb > CUTE_LINEAR_MAX_BITS)
      return to_lin_fail(err, C, CUTE_ELIMIT, "a tile of 2^%d elements, at "
                         "most 2^%d", tb, CUTE_LINEAR_MAX_BITS);
    if (any[0] & ~mask_of(tb))
      return to_lin_fail(err, C, CUTE_EINVAL, "it reaches indices up to "
                         "%llu, outside the tile of %llu elements",
                         (unsigned long long)mask_of(bit_length(any[0])),
                         1ull << tb);
  } else if (ncomp == 0) {
    r.nout = 1;
    set_dim(&r.out[0], "offset", bit_length(any[0]));
  } else {
    int off[CUTE_LINEAR_MAX_DIMS], tot = 0;
    r.nout = ncomp;
    for (i = 0; i < ncomp; i++) {
      char name[CUTE_LINEAR_NAME];
      snprintf(name, sizeof name, "dim%d", i);
      set_dim(&r.out[i], name, bit_length(any[i]));
      off[i] = tot;
      tot += r.out[i].bits;
    }
    if (tot > CUTE_LINEAR_MAX_BITS)
      return to_lin_fail(err, C, CUTE_ELIMIT, "the outputs take %d bits, "
                         "more than %d", tot, CUTE_LINEAR_MAX_BITS);
    for (k = 0; k < n; k++)
      if (st[k].comp >= 0) st[k].v <<= off[st[k].comp];
  }
  for (k = 0; k < n; k++) r.basis[k] = st[order[k]].v;
  *out = r;
  return CUTE_OK;
}

/* ------------------------------------------------------ from_linear -- */

/* Index of the first basis that shares a bit with an earlier one, or -1. */
static int first_collision(const uint64_t *g, int n)
{
  uint64_t acc = 0;
  int k;
  for (k = 0; k < n; k++) {
    if (g[k] & acc) return k;
    acc |= g[k];
  }
  return -1;
}

/* The first Sw<b,m,s> (b ascending, then m, then s > 0, then s < 0) that
 * makes the bases disjoint, b = 0 when none is needed; -1 when none does. */
static int find_swizzle(cute_swizzle *sw, uint64_t *g, const uint64_t *f,
                        int n, int ob)
{
  int b, m, s, k;
  sw->b = sw->m = sw->s = 0;
  memcpy(g, f, (size_t)n * sizeof *g);
  if (first_collision(g, n) < 0) return 0;
  for (b = 1; 2 * b <= ob; b++)
    for (m = 0; m + 2 * b <= ob; m++)
      for (s = b; m + s + b <= ob; s++) {
        int sign;
        for (sign = 1; sign >= -1; sign -= 2) {
          cute_swizzle c;
          c.b = b; c.m = m; c.s = sign * s;
          for (k = 0; k < n; k++)
            g[k] = (uint64_t)cute_swizzle_apply(c, (int64_t)f[k]);
          if (first_collision(g, n) < 0) { *sw = c; return 0; }
        }
      }
  return -1;
}

/* Appends one mode: the leaves 2:g of bits [k0, k1), merged where a step
 * continues the last leaf (2:g then 2:2g is 4:g; 2:0 then 2:0 is 4:0),
 * their strides of kind e (0 integer, CUTE_BASIS_F2 binary). */
static cute_status push_mode(cute_layout *L, const uint64_t *g, int k0, int k1,
                             int alone, cute_basis e, cute_error *err)
{
  int64_t s[CUTE_LINEAR_MAX_BITS], d[CUTE_LINEAR_MAX_BITS];
  int n = 0, k, i;
  cute_status st;
  for (k = k0; k < k1; k++) {
    int64_t v = (int64_t)g[k];
    if (n > 0 && v == s[n - 1] * d[n - 1]) s[n - 1] *= 2;
    else s[n] = 2, d[n++] = v;
  }
  if (n == 0) s[0] = 1, d[0] = 0, n = 1;
  if (alone && n == 1) {
    cute_tuple_int(&L->shape, s[0]);
    cute_tuple_int(&L->stride, d[0]);
    L->stride.e[0] = e;
    return CUTE_OK;
  }
  if (n > 1 && ((st = cute_tuple_open(&L->shape, err)) ||
                (st = cute_tuple_open(&L->stride, err))))
    return st;
  for (i = 0; i < n; i++)
    if ((st = cute_tuple_leaf(&L->shape, s[i], 0, err)) ||
        (st = cute_tuple_leaf(&L->stride, d[i], e, err)))
      return st;
  if (n > 1 && ((st = cute_tuple_close(&L->shape, err)) ||
                (st = cute_tuple_close(&L->stride, err))))
    return st;
  return CUTE_OK;
}

static cute_status build(cute_layout *L, const cute_linear *A,
                         const uint64_t *g, cute_basis e, cute_error *err)
{
  int i, k0 = 0, nmode = cute_linear_is_tv(A) ? 2 : A->nin;
  cute_status st;
  cute_tuple_clear(&L->shape);
  cute_tuple_clear(&L->stride);
  if (nmode != 1 && ((st = cute_tuple_open(&L->shape, err)) ||
                     (st = cute_tuple_open(&L->stride, err))))
    return st;
  if (cute_linear_is_tv(A)) {  /* ((lane, warp), register): thread bits, value bits */
    int r = A->in[0].bits, t = r + A->in[1].bits + A->in[2].bits;
    if ((st = push_mode(L, g, r, t, 0, e, err)) ||
        (st = push_mode(L, g, 0, r, 0, e, err)))
      return st;
  } else {
    for (i = 0; i < A->nin; i++) {
      if ((st = push_mode(L, g, k0, k0 + A->in[i].bits, nmode == 1, e,
                          err)))
        return st;
      k0 += A->in[i].bits;
    }
  }
  if (nmode != 1 && ((st = cute_tuple_close(&L->shape, err)) ||
                     (st = cute_tuple_close(&L->stride, err))))
    return st;
  return CUTE_OK;
}

cute_status cute_linear_to_composed(cute_composed *out, int *swizzled,
                                    const cute_linear *A, cute_error *err)
{
  uint64_t g[CUTE_LINEAR_MAX_BITS];
  int n = cute_linear_in_bits(A), k;
  char text[CUTE_MAX_TEXT], desc[96], other[96];
  cute_status st;
  if ((st = cute_linear_check(A, err))) goto fail;
  if (find_swizzle(&out->sw, g, A->basis, n, cute_linear_out_bits(A)) < 0) {
    int j = 0;
    k = first_collision(A->basis, n);
    while (!(A->basis[j] & A->basis[k])) j++;
    cute_linear_describe(A, k, desc, sizeof desc);
    cute_linear_describe(A, j, other, sizeof other);
    st = cute_fail(err, CUTE_EINVAL, "basis %s shares output bits with %s "
                   "and no swizzle Sw<B,M,S> separates them: a CuTe layout "
                   "adds its steps, a linear layout XORs them", desc, other);
    goto fail;
  }
  out->offset = 0;
  *swizzled = out->sw.b > 0;
  if (out->sw.b == 0) out->sw.m = out->sw.s = 0;
  if ((st = build(&out->layout, A, g, 0, err))) goto fail;
  return CUTE_OK;
fail:
  cute_linear_print_compact(A, text, sizeof text);
  cute_error_prefix(err, "from_linear", text, (char *)NULL);
  return st;
}

cute_status cute_linear_to_binary(cute_layout *out, const cute_linear *A,
                                  cute_error *err)
{
  char text[CUTE_MAX_TEXT];
  cute_status st;
  if ((st = cute_linear_check(A, err)) ||
      (st = build(out, A, A->basis, CUTE_BASIS_F2, err))) {
    cute_linear_print_compact(A, text, sizeof text);
    cute_error_prefix(err, "from_linear", text, (char *)NULL);
  }
  return st;
}
