/*
 * coalesce.c -- coalesce (paper 3.2), by-mode coalesce, filter_zeros and
 * filter.
 *
 * Coalesce is one pass over the flat leaves: size-1 modes vanish and a mode
 * (s1,d1) joins the previous (s0,d0) when d1 = s0*d0 in the same basis, so
 * that (s0,s1):(d0,s0*d0) = s0*s1:d0 on the integral domain.  Stride-0 runs
 * merge by the same rule (0 = s0*0).
 *   (2,(1,6)):(1,(6,2))   -> 12:1
 *   ((4,3),5):((15,1),3)  -> (4,15):(15,1)
 */
#include "internal.h"

#include <string.h>

/* The basis of a stride leaf for merging: a zero stride is 0 in any basis. */
#define MERGE_BASIS(d, e) ((d) == 0 ? 0u : (e))

cute_status cute_coalesce(cute_layout *out, const cute_layout *L,
                          cute_error *err)
{
  const int64_t *s = L->shape.v, *d = L->stride.v;
  const cute_basis *e = L->stride.e;
  int64_t *os = out->shape.v, *od = out->stride.v;
  cute_basis *oe = out->stride.e;
  int j, m = 0, n = L->shape.nleaf;
  if (n > CUTE_MAX_LEAVES || L->stride.nleaf != n)
    return cute_fail(err, CUTE_EINVAL, "coalesce: malformed layout");
  /* Writes (index m) never pass reads (index j), so out may alias L. */
  for (j = 0; j < n; j++) {
    int64_t sj = s[j], dj = d[j], next;
    cute_basis ej = e[j];
    if (sj == 1) continue;
    if (m > 0 && MERGE_BASIS(dj, ej) == MERGE_BASIS(od[m - 1], oe[m - 1]) &&
        !cute_mul(os[m - 1], od[m - 1], &next) && next == dj) {
      if (cute_mul(os[m - 1], sj, &os[m - 1]))
        return cute_fail_op(err, CUTE_EOVERFLOW, "coalesce", L, NULL,
                            "64-bit overflow of the size");
      continue;
    }
    os[m] = sj;
    od[m] = dj;
    oe[m++] = ej;
  }
  if (m == 0) {
    os[0] = 1;
    od[0] = 0;
    oe[0] = 0;
    m = 1;
  }
  memset(out->shape.e, 0, m * sizeof out->shape.e[0]);
  out->shape.nleaf = out->stride.nleaf = (uint8_t)m;
  if (m == 1) {
    out->shape.tok[0] = 'x';
    out->shape.ntok = 1;
  } else {
    out->shape.tok[0] = '(';
    memset(out->shape.tok + 1, 'x', m);
    out->shape.tok[m + 1] = ')';
    out->shape.ntok = (uint8_t)(m + 2);
  }
  memcpy(out->stride.tok, out->shape.tok, out->shape.ntok);
  out->stride.ntok = out->shape.ntok;
  return CUTE_OK;
}

/* Coalesces L by the profile: a leaf of the profile coalesces the whole
 * (sub)layout, a group recurses into the modes it names and keeps the
 * rest.  Modes are rebuilt one by one with append, so the result keeps the
 * profile's tuple structure even for a rank-1 profile. */
static cute_status by_mode(cute_layout *out, const cute_layout *L,
                           const cute_tuple *prof, cute_error *err)
{
  cute_layout acc, m, c;
  cute_tuple p;
  cute_status st;
  int i, np = cute_tuple_rank(prof), nl = cute_layout_rank(L);
  if (cute_tuple_is_int(prof)) return cute_coalesce(out, L, err);
  if (np > nl)
    return cute_fail_op(err, CUTE_ERANK, "coalesce", L, NULL,
                        "profile of rank %d is longer than the layout", np);
  acc.shape.ntok = acc.stride.ntok = 2;
  acc.shape.nleaf = acc.stride.nleaf = 0;
  memcpy(acc.shape.tok, "()", 2);
  memcpy(acc.stride.tok, "()", 2);
  for (i = 0; i < nl; i++) {
    const cute_layout *next = &m;
    if ((st = cute_layout_mode(&m, L, i, err))) return st;
    if (i < np) {
      if ((st = cute_tuple_mode(&p, prof, i, err)) ||
          (st = by_mode(&c, &m, &p, err)))
        return st;
      next = &c;
    }
    if ((st = cute_layout_append(&acc, &acc, next, err))) return st;
  }
  cute_tuple_copy(&out->shape, &acc.shape);
  cute_tuple_copy(&out->stride, &acc.stride);
  return CUTE_OK;
}

cute_status cute_coalesce_profile(cute_layout *out, const cute_layout *L,
                                  const cute_tuple *profile, cute_error *err)
{
  cute_status st = cute_tuple_check(profile, err);
  if (st) return st;
  return by_mode(out, L, profile, err);
}

cute_status cute_filter_zeros(cute_layout *out, const cute_layout *L,
                              cute_error *err)
{
  int k, n = L->shape.nleaf;
  if (n > CUTE_MAX_LEAVES || L->stride.nleaf != n)
    return cute_fail(err, CUTE_EINVAL, "filter_zeros: malformed layout");
  if (out != L) {
    cute_tuple_copy(&out->shape, &L->shape);
    cute_tuple_copy(&out->stride, &L->stride);
  }
  for (k = 0; k < n; k++)
    if (out->stride.v[k] == 0) out->shape.v[k] = 1;
  return CUTE_OK;
}

cute_status cute_filter(cute_layout *out, const cute_layout *L,
                        cute_error *err)
{
  cute_layout z;
  cute_status st = cute_filter_zeros(&z, L, err);
  if (st) return st;
  return cute_coalesce(out, &z, err);
}
