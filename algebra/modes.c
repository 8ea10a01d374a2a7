/*
 * modes.c -- mode manipulation (CuTe's get/flatten/group_modes/take/select/
 * append/prepend/replace and the paper's concatenation, 3.1).
 *
 * Every operation assembles its result from pieces of its operands: a
 * piece is one element of a layout (a cute_span) copied token by token into
 * a scratch layout (scratch.h, defined here), which is then copied out, so
 * `out` may alias an input.  Sizes are checked piece by piece, the depth
 * once at the end.
 */
#include "scratch.h"

#include <string.h>

/* -------------------------------------------------------- scratch.h -- */

cute_status cute_scratch_full(cute_error *err)
{
  return cute_fail(err, CUTE_ELIMIT, "result above %d tokens "
                   "(CUTE_MAX_TOKENS) or %d leaves (CUTE_MAX_LEAVES)",
                   CUTE_MAX_TOKENS, CUTE_MAX_LEAVES);
}

void cute_scratch_start(cute_layout *r)
{
  r->shape.ntok = 0;
  r->shape.nleaf = 0;
}

cute_status cute_scratch_tok(cute_layout *r, char c, cute_error *err)
{
  if (r->shape.ntok >= CUTE_MAX_TOKENS) return cute_scratch_full(err);
  r->stride.tok[r->shape.ntok] = c; /* see cute_scratch_span */
  r->shape.tok[r->shape.ntok++] = c;
  return CUTE_OK;
}

cute_status cute_scratch_span(cute_layout *r, const cute_layout *src,
                              const cute_span *sp, cute_error *err)
{
  int nt = sp->tok1 - sp->tok0, nl = sp->leaf1 - sp->leaf0, n0, i;
  if (r->shape.ntok + nt > CUTE_MAX_TOKENS ||
      r->shape.nleaf + nl > CUTE_MAX_LEAVES)
    return cute_scratch_full(err);
  n0 = r->shape.nleaf;
  /* Loops, not memcpy: a piece is a few tokens and leaves, and a call
   * per array cost more than the copies.  The tokens go to the stride's
   * array too, so that a caller finishing in place need not copy them
   * (a copy read back right after byte stores stalls on store
   * forwarding: a tenth of a logical product). */
  for (i = 0; i < nt; i++) {
    char c = src->shape.tok[sp->tok0 + i];
    r->shape.tok[r->shape.ntok + i] = c;
    r->stride.tok[r->shape.ntok + i] = c;
  }
  for (i = 0; i < nl; i++) {
    r->shape.v[n0 + i] = src->shape.v[sp->leaf0 + i];
    r->shape.e[n0 + i] = 0;
    r->stride.v[n0 + i] = src->stride.v[sp->leaf0 + i];
    r->stride.e[n0 + i] = src->stride.e[sp->leaf0 + i];
  }
  r->shape.ntok = (uint8_t)(r->shape.ntok + nt);
  r->shape.nleaf = (uint8_t)(n0 + nl);
  return CUTE_OK;
}

void cute_scratch_end(cute_layout *out, cute_layout *r)
{
  r->stride.ntok = r->shape.ntok;
  r->stride.nleaf = r->shape.nleaf;
  memcpy(r->stride.tok, r->shape.tok, r->shape.ntok);
  cute_tuple_copy(&out->shape, &r->shape);
  cute_tuple_copy(&out->stride, &r->stride);
}

/* ------------------------------------------------------------- modes -- */

cute_status cute_scratch_whole(cute_layout *r, const cute_layout *src,
                               cute_error *err)
{
  cute_span sp;
  sp.tok0 = 0;
  sp.tok1 = src->shape.ntok;
  sp.leaf0 = 0;
  sp.leaf1 = src->shape.nleaf;
  return cute_scratch_span(r, src, &sp, err);
}

cute_status cute_scratch_modes(cute_layout *r, const cute_layout *src, int b,
                               int e, cute_error *err)
{
  cute_span sp;
  cute_status st;
  for (; b < e; b++) {
    cute_tuple_span(&src->shape, b, &sp);
    if ((st = cute_scratch_span(r, src, &sp, err))) return st;
  }
  return CUTE_OK;
}

cute_status cute_scratch_finish(cute_layout *out, cute_layout *r,
                                cute_error *err)
{
  cute_status st = cute_tuple_check(&r->shape, err);
  if (st == CUTE_OK) cute_scratch_end(out, r);
  return st;
}

/* Checks the depth of r and copies it to out; on error, adds the
 * operation's context. */
static cute_status finish(cute_layout *out, cute_layout *r, cute_status st,
                          const char *op, const cute_layout *a,
                          const cute_layout *b, cute_error *err)
{
  if (st == CUTE_OK) st = cute_tuple_check(&r->shape, err);
  if (st) {
    cute_error_context(err, op, a, b);
    return st;
  }
  cute_scratch_end(out, r);
  return CUTE_OK;
}

static cute_status bad_range(const char *op, const cute_layout *L, int b,
                             int e, cute_error *err)
{
  return cute_fail_op(err, CUTE_ERANK, op, L, NULL,
                      "modes [%d,%d) outside [0,%d]", b, e,
                      cute_layout_rank(L));
}

cute_status cute_layout_mode(cute_layout *out, const cute_layout *L, int i,
                             cute_error *err)
{
  cute_layout r;
  cute_span sp;
  if (cute_tuple_span(&L->shape, i, &sp) != 0)
    return cute_fail_op(err, CUTE_ERANK, "mode", L, NULL,
                        "mode %d outside [0,%d)", i, cute_layout_rank(L));
  cute_scratch_start(&r);
  return finish(out, &r, cute_scratch_span(&r, L, &sp, err), "mode", L, NULL,
                err);
}

cute_status cute_layout_flatten(cute_layout *out, const cute_layout *L,
                                cute_error *err)
{
  cute_status st;
  /* The copies below trust nleaf: a hand-made L must not overrun them. */
  if ((st = cute_tuple_check(&L->shape, err)) ||
      (st = cute_tuple_check(&L->stride, err)))
    return st;
  cute_tuple_flatten(&out->shape, &L->shape);
  return cute_tuple_flatten(&out->stride, &L->stride);
}

cute_status cute_layout_group(cute_layout *out, const cute_layout *L, int b,
                              int e, cute_error *err)
{
  cute_layout r;
  cute_status st;
  int rank = cute_layout_rank(L);
  if (b < 0 || b > e || e > rank)
    return bad_range("group_modes", L, b, e, err);
  cute_scratch_start(&r);
  if (!(st = cute_scratch_tok(&r, '(', err)) &&
      !(st = cute_scratch_modes(&r, L, 0, b, err)) &&
      !(st = cute_scratch_tok(&r, '(', err)) &&
      !(st = cute_scratch_modes(&r, L, b, e, err)) &&
      !(st = cute_scratch_tok(&r, ')', err)) &&
      !(st = cute_scratch_modes(&r, L, e, rank, err)))
    st = cute_scratch_tok(&r, ')', err);
  return finish(out, &r, st, "group_modes", L, NULL, err);
}

cute_status cute_layout_take(cute_layout *out, const cute_layout *L, int b,
                             int e, cute_error *err)
{
  cute_layout r;
  cute_status st;
  if (b < 0 || b > e || e > cute_layout_rank(L))
    return bad_range("take", L, b, e, err);
  cute_scratch_start(&r);
  if (!(st = cute_scratch_tok(&r, '(', err)) &&
      !(st = cute_scratch_modes(&r, L, b, e, err)))
    st = cute_scratch_tok(&r, ')', err);
  return finish(out, &r, st, "take", L, NULL, err);
}

cute_status cute_layout_select(cute_layout *out, const cute_layout *L,
                               const int *modes, int n, cute_error *err)
{
  cute_layout r;
  cute_status st;
  int k, rank = cute_layout_rank(L);
  cute_scratch_start(&r);
  st = cute_scratch_tok(&r, '(', err);
  for (k = 0; k < n && !st; k++) {
    if (modes[k] < 0 || modes[k] >= rank)
      return cute_fail_op(err, CUTE_ERANK, "select", L, NULL,
                          "mode %d outside [0,%d)", modes[k], rank);
    st = cute_scratch_modes(&r, L, modes[k], modes[k] + 1, err);
  }
  if (!st) st = cute_scratch_tok(&r, ')', err);
  return finish(out, &r, st, "select", L, NULL, err);
}

/* (L0, ..., L[at-1], x, L[at+skip], ...): append, prepend, replace. */
static cute_status insert(cute_layout *out, const cute_layout *L, int at,
                          int skip, const cute_layout *x, const char *op,
                          cute_error *err)
{
  cute_layout r;
  cute_status st;
  int rank = cute_layout_rank(L);
  cute_scratch_start(&r);
  if (!(st = cute_scratch_tok(&r, '(', err)) &&
      !(st = cute_scratch_modes(&r, L, 0, at, err)) &&
      !(st = cute_scratch_whole(&r, x, err)) &&
      !(st = cute_scratch_modes(&r, L, at + skip, rank, err)))
    st = cute_scratch_tok(&r, ')', err);
  return finish(out, &r, st, op, L, x, err);
}

cute_status cute_layout_append(cute_layout *out, const cute_layout *L,
                               const cute_layout *x, cute_error *err)
{
  return insert(out, L, cute_layout_rank(L), 0, x, "append", err);
}

cute_status cute_layout_prepend(cute_layout *out, const cute_layout *L,
                                const cute_layout *x, cute_error *err)
{
  return insert(out, L, 0, 0, x, "prepend", err);
}

cute_status cute_layout_replace(cute_layout *out, const cute_layout *L, int i,
                                const cute_layout *x, cute_error *err)
{
  int rank = cute_layout_rank(L);
  if (i < 0 || i >= rank)
    return cute_fail_op(err, CUTE_ERANK, "replace", L, x,
                        "mode %d outside [0,%d)", i, rank);
  if (cute_tuple_is_int(&L->shape)) {
    cute_tuple_copy(&out->shape, &x->shape);
    cute_tuple_copy(&out->stride, &x->stride);
    return CUTE_OK;
  }
  return insert(out, L, i, 1, x, "replace", err);
}

cute_status cute_layout_concat(cute_layout *out, const cute_layout *const *ls,
                               int n, cute_error *err)
{
  cute_layout r;
  cute_status st;
  int k;
  cute_scratch_start(&r);
  st = cute_scratch_tok(&r, '(', err);
  for (k = 0; k < n && !st; k++)
    st = cute_scratch_whole(&r, ls[k], err);
  if (!st) st = cute_scratch_tok(&r, ')', err);
  return finish(out, &r, st, "concat", n > 0 ? ls[0] : NULL,
                n > 1 ? ls[1] : NULL, err);
}
