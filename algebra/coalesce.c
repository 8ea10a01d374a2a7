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
#include "scratch.h"

#include <string.h>

/* The basis of a stride leaf for merging: a zero stride is 0 in any basis. */
#define MERGE_BASIS(d, e) ((d) == 0 ? 0u : (e))

/* Merges the leaves s,d,e[0..n) onto the n0 modes already in os,od,oe
 * (the merge never reaches back into them) and returns the new count in
 * *m; an all-size-1 run leaves a 1:0 mode.  Writes never pass reads, so
 * the output arrays may be the input ones. */
static cute_status merge(int64_t *os, int64_t *od, cute_basis *oe, int n0,
                         int *m_out, const int64_t *s, const int64_t *d,
                         const cute_basis *e, int n)
{
  int j, m = n0;
  for (j = 0; j < n; j++) {
    int64_t sj = s[j], dj = d[j], next;
    cute_basis ej = e[j];
    if (sj == 1) continue;
    if (m > n0 && ((ej | oe[m - 1]) & CUTE_BASIS_SUM
                       ? cute_stride_continues(os[m - 1], od[m - 1],
                                               oe[m - 1], dj, ej)
                       : MERGE_BASIS(dj, ej) ==
                                 MERGE_BASIS(od[m - 1], oe[m - 1]) &&
                             !cute_mul(os[m - 1], od[m - 1], &next) &&
                             next == dj)) {
      if (cute_mul(os[m - 1], sj, &os[m - 1])) return CUTE_EOVERFLOW;
      continue;
    }
    os[m] = sj;
    od[m] = dj;
    oe[m++] = ej;
  }
  if (m == n0) {
    os[m] = 1;
    od[m] = 0;
    oe[m++] = 0;
  }
  *m_out = m;
  return CUTE_OK;
}

static cute_status size_overflow(const cute_layout *L, cute_error *err)
{
  return cute_fail_op(err, CUTE_EOVERFLOW, "coalesce", L, NULL,
                      "64-bit overflow of the size");
}

/* Tokens of a coalesced run of k modes at tok: "x" or "(x...x)". */
static int run_tokens(char *tok, int k)
{
  if (k == 1) {
    tok[0] = 'x';
    return 1;
  }
  tok[0] = '(';
  memset(tok + 1, 'x', k);
  tok[k + 1] = ')';
  return k + 2;
}

cute_status cute_coalesce(cute_layout *out, const cute_layout *L,
                          cute_error *err)
{
  int m, n = L->shape.nleaf;
  if (n > CUTE_MAX_LEAVES || L->stride.nleaf != n)
    return cute_fail(err, CUTE_EINVAL, "coalesce: malformed layout");
  if (merge(out->shape.v, out->stride.v, out->stride.e, 0, &m, L->shape.v,
            L->stride.v, L->stride.e, n))
    return size_overflow(L, err);
  memset(out->shape.e, 0, m * sizeof out->shape.e[0]);
  out->shape.nleaf = out->stride.nleaf = (uint8_t)m;
  /* Both made alike rather than one copied from the other, which would
   * stall reading bytes just stored. */
  out->shape.ntok = (uint8_t)run_tokens(out->shape.tok, m);
  out->stride.ntok = (uint8_t)run_tokens(out->stride.tok, m);
  return CUTE_OK;
}

/* Can r take element sl of L, coalesced ("(x..)" at most 2 tokens more
 * than its leaves, a leaf more when it has none) or copied? */
static cute_status room(const cute_layout *r, const cute_span *sl,
                        cute_error *err)
{
  int nl = sl->leaf1 - sl->leaf0;
  if (r->shape.ntok + (sl->tok1 - sl->tok0) + 2 > CUTE_MAX_TOKENS ||
      r->shape.nleaf + (nl > 0 ? nl : 1) > CUTE_MAX_LEAVES)
    return cute_scratch_full(err);
  return CUTE_OK;
}

/* By-mode coalesce, walking element `sl` of L against element `sp` of the
 * profile and appending to r (shape tokens only; leaves of both).  A
 * profile leaf coalesces the element whole, a group recurses into the
 * children it names and copies the rest. */
static cute_status by_mode(cute_layout *r, const cute_layout *L,
                           const cute_span *sl, const cute_tuple *prof,
                           const cute_span *sp, cute_error *err)
{
  cute_span cl, cp;
  int i, nl = sl->leaf1 - sl->leaf0;
  cute_status st;
  if ((st = room(r, sl, err))) return st;
  if (prof->tok[sp->tok0] == 'x') {
    int n0 = r->shape.nleaf, m;
    if (merge(r->shape.v, r->stride.v, r->stride.e, n0, &m,
              L->shape.v + sl->leaf0, L->stride.v + sl->leaf0,
              L->stride.e + sl->leaf0, nl))
      return cute_fail(err, CUTE_EOVERFLOW, "64-bit overflow of the size");
    memset(r->shape.e + n0, 0, (m - n0) * sizeof r->shape.e[0]);
    r->shape.ntok = (uint8_t)(r->shape.ntok +
                              run_tokens(r->shape.tok + r->shape.ntok,
                                         m - n0));
    r->shape.nleaf = (uint8_t)m;
    return CUTE_OK;
  }
  if ((st = cute_scratch_tok(r, '(', err))) return st;
  for (i = 0; cute_tuple_child(prof, sp, i, &cp) == 0; i++) {
    if (cute_tuple_child(&L->shape, sl, i, &cl) != 0)
      return cute_fail(err, CUTE_ERANK, "profile longer than the layout");
    if ((st = by_mode(r, L, &cl, prof, &cp, err))) return st;
  }
  for (; cute_tuple_child(&L->shape, sl, i, &cl) == 0; i++)
    if ((st = cute_scratch_span(r, L, &cl, err))) return st;
  return cute_scratch_tok(r, ')', err);
}

cute_status cute_coalesce_profile(cute_layout *out, const cute_layout *L,
                                  const cute_tuple *profile, cute_error *err)
{
  cute_layout r;
  cute_span sl, sp;
  cute_status st;
  if ((st = cute_tuple_check(profile, err)) ||
      (st = cute_tuple_check(&L->shape, err)))
    return st;
  if (L->stride.nleaf != L->shape.nleaf)
    return cute_fail(err, CUTE_EINVAL, "coalesce: malformed layout");
  sl.tok0 = sp.tok0 = 0;
  sl.tok1 = L->shape.ntok;
  sp.tok1 = profile->ntok;
  sl.leaf0 = sp.leaf0 = 0;
  sl.leaf1 = L->shape.nleaf;
  sp.leaf1 = profile->nleaf;
  cute_scratch_start(&r);
  if ((st = by_mode(&r, L, &sl, profile, &sp, err))) {
    cute_error_context(err, "coalesce", L, NULL);
    return st;
  }
  cute_scratch_end(out, &r);
  return CUTE_OK;
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
  if ((st = cute_coalesce(out, &z, err)))
    cute_error_context(err, "filter", L, NULL); /* coalesce named z */
  return st;
}
