/*
 * linear.c -- linear layouts over F2 (Triton's LinearLayout) and their
 * conversion to and from CuTe layouts (cute_linear.h).
 *
 * Why the two meet: a CuTe layout whose extents are powers of two sends a
 * coordinate to a sum of bit-steps 2^j*d; when no two steps share a bit the
 * sum never carries and IS the XOR of the steps, so the layout is F2-linear
 * with those steps as its bases.  A swizzle Sw<B,M,S> XORs bits into bits,
 * so it is F2-linear as well, and Sw o L is the product of two such maps.
 * Conversely a linear layout is a CuTe layout exactly when its bases (after
 * undoing at most one swizzle) share no bit.
 *
 * Everything here is bounded by CUTE_LINEAR_MAX_BITS: a basis is a uint64
 * of at most 32 packed output bits, elimination is 32 x 32 bit operations,
 * the swizzle search at most 16 * 32 * 64 candidates of 32 bases.
 */
#include "cute_internal.h"

#include <stdio.h>
#include <string.h>

static uint64_t mask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

static int dims_bits(const cute_linear_dim *d, int n)
{
  int i, t = 0;
  for (i = 0; i < n; i++) t += d[i].bits;
  return t;
}

int cute_linear_in_bits(const cute_linear *A) { return dims_bits(A->in, A->nin); }
int cute_linear_out_bits(const cute_linear *A) { return dims_bits(A->out, A->nout); }

static int bit_length(uint64_t v)
{
  int n = 0;
  while (v) { n++; v >>= 1; }
  return n;
}

static int name_ok(const char *s)
{
  size_t i, n = 0;
  while (n < CUTE_LINEAR_NAME && s[n]) n++;
  if (n == 0 || n == CUTE_LINEAR_NAME) return 0;
  for (i = 0; i < n; i++) {
    char c = s[i];
    int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return 0;
  }
  return 1;
}

static int find_dim(const cute_linear_dim *d, int n, const char *name)
{
  int i;
  for (i = 0; i < n; i++)
    if (strcmp(d[i].name, name) == 0) return i;
  return -1;
}

static cute_status check_dims(const cute_linear_dim *d, int n, const char *side,
                              cute_error *err)
{
  int i;
  if (n < 0 || n > CUTE_LINEAR_MAX_DIMS)
    return cute_fail(err, CUTE_ELIMIT, "%d %s dims, at most "
                     "%d (CUTE_LINEAR_MAX_DIMS)", n, side, CUTE_LINEAR_MAX_DIMS);
  for (i = 0; i < n; i++) {
    if (!name_ok(d[i].name))
      return cute_fail(err, CUTE_EINVAL, "%s dim %d: a name is "
                       "[A-Za-z_][A-Za-z0-9_]*, shorter than %d characters",
                       side, i, CUTE_LINEAR_NAME);
    if (find_dim(d, i, d[i].name) >= 0)
      return cute_fail(err, CUTE_EINVAL, "%s dim '%s' twice",
                       side, d[i].name);
    if (d[i].bits < 0 || d[i].bits > CUTE_LINEAR_MAX_BITS)
      return cute_fail(err, CUTE_ELIMIT, "%s dim '%s' of 2^%d",
                       side, d[i].name, d[i].bits);
  }
  if (dims_bits(d, n) > CUTE_LINEAR_MAX_BITS)
    return cute_fail(err, CUTE_ELIMIT, "%s extents multiply to "
                     "2^%d, at most 2^%d (CUTE_LINEAR_MAX_BITS)", side,
                     dims_bits(d, n), CUTE_LINEAR_MAX_BITS);
  return CUTE_OK;
}

void cute_linear_describe(const cute_linear *A, int k, char *buf, size_t cap)
{
  uint64_t value = A->basis[k];
  int i = 0, j, off = 0, at = k;
  size_t n;
  while (i < A->nin && at >= A->in[i].bits) at -= A->in[i++].bits;
  n = (size_t)snprintf(buf, cap, "%s=%llu -> (", i < A->nin ? A->in[i].name : "?",
                       1ull << at);
  for (j = 0; j < A->nout && n < cap; j++) {
    n += (size_t)snprintf(buf + n, cap - n, "%s%llu", j ? ", " : "",
                          (unsigned long long)((value >> off) &
                                               mask_of(A->out[j].bits)));
    off += A->out[j].bits;
  }
  if (n < cap) snprintf(buf + n, cap - n, ")");
}

cute_status cute_linear_valid(const cute_linear *A, cute_error *err)
{
  cute_status st;
  int k, nb;
  char b[96];
  if ((st = check_dims(A->in, A->nin, "input", err)) ||
      (st = check_dims(A->out, A->nout, "output", err)))
    return st;
  nb = cute_linear_in_bits(A);
  for (k = 0; k < nb; k++)
    if (A->basis[k] & ~mask_of(cute_linear_out_bits(A))) {
      cute_linear_describe(A, k, b, sizeof b);
      return cute_fail(err, CUTE_EINVAL, "basis %s lies "
                       "outside the output dims", b);
    }
  return CUTE_OK;
}

cute_status cute_linear_check(const cute_linear *A, cute_error *err)
{
  cute_status st = cute_linear_valid(A, err);
  if (st) cute_error_note(err, "linear layout: ");
  return st;
}

uint64_t cute_linear_apply(const cute_linear *A, uint64_t x)
{
  uint64_t r = 0;
  int k, nb = cute_linear_in_bits(A);
  for (k = 0; k < nb; k++)
    if ((x >> k) & 1) r ^= A->basis[k];
  return r;
}

cute_status cute_linear_eval(const cute_linear *A, const int64_t *in,
                             int64_t *out, cute_error *err)
{
  uint64_t x = 0, y;
  int i, off = 0;
  for (i = 0; i < A->nin; i++) {
    if (in[i] < 0 || (uint64_t)in[i] > mask_of(A->in[i].bits))
      return cute_fail(err, CUTE_EINVAL, "linear layout: %s=%lld is outside "
                       "[0, %llu)", A->in[i].name, (long long)in[i],
                       1ull << A->in[i].bits);
    x |= (uint64_t)in[i] << off;
    off += A->in[i].bits;
  }
  y = cute_linear_apply(A, x);
  for (i = off = 0; i < A->nout; i++) {
    out[i] = (int64_t)((y >> off) & mask_of(A->out[i].bits));
    off += A->out[i].bits;
  }
  return CUTE_OK;
}

/* ------------------------------------------------------- elimination -- */

/* Row echelon form of the bases: row r has pivot bit piv[r] (cleared in
 * every later row) and comb[r], the input bits whose bases XOR to it. */
typedef struct echelon {
  int n;
  uint64_t row[CUTE_LINEAR_MAX_BITS], comb[CUTE_LINEAR_MAX_BITS];
  int piv[CUTE_LINEAR_MAX_BITS];
} echelon;

/* Reduce v by the rows; *c collects the combination used.  Rows are taken
 * in insertion order: a later row never has an earlier row's pivot. */
static uint64_t reduce(const echelon *E, uint64_t v, uint64_t *c)
{
  int r;
  for (r = 0; r < E->n; r++)
    if ((v >> E->piv[r]) & 1) { v ^= E->row[r]; *c ^= E->comb[r]; }
  return v;
}

static void eliminate(echelon *E, const cute_linear *A)
{
  int k, nb = cute_linear_in_bits(A);
  E->n = 0;
  for (k = 0; k < nb; k++) {
    uint64_t c = 1ull << k, v = reduce(E, A->basis[k], &c);
    if (!v) continue;  /* dependent on earlier input bits */
    E->row[E->n] = v;
    E->comb[E->n] = c;
    E->piv[E->n++] = bit_length(v) - 1;
  }
}

int cute_linear_rank(const cute_linear *A)
{
  echelon E;
  eliminate(&E, A);
  return E.n;
}

void cute_linear_free_masks(const cute_linear *A, uint64_t *free)
{
  int i, j, k = 0;
  for (i = 0; i < A->nin; i++) {
    free[i] = 0;
    for (j = 0; j < A->in[i].bits; j++, k++)
      if (!A->basis[k]) free[i] |= 1ull << j;
  }
}

/* Moves packed values from dims `from` to dims `to` matched by name: map[i]
 * is the bit offset in `to` of from-dim i. */
static cute_status match_dims(int *map, const cute_linear_dim *from, int nf,
                              const cute_linear_dim *to, int nt,
                              const char *what, cute_error *err)
{
  int i, j;
  for (i = 0; i < nf; i++) {
    j = find_dim(to, nt, from[i].name);
    if (j < 0 && from[i].bits == 0) { map[i] = 0; continue; }
    if (j < 0 || to[j].bits < from[i].bits)
      return cute_fail(err, CUTE_EINVAL, "%s dim '%s' (size %llu) has no "
                       "match of that size or larger", what, from[i].name,
                       1ull << from[i].bits);
    map[i] = dims_bits(to, j);
  }
  return CUTE_OK;
}

static uint64_t repack(uint64_t v, const int *map, const cute_linear_dim *from,
                       int nf)
{
  uint64_t r = 0;
  int i, off = 0;
  for (i = 0; i < nf; i++) {
    r |= ((v >> off) & mask_of(from[i].bits)) << map[i];
    off += from[i].bits;
  }
  return r;
}

/* "op(A, B): " in front of err, the operands in the one-line form. */
static cute_status fail2(cute_status st, cute_error *err, const char *op,
                         const cute_linear *a, const cute_linear *b)
{
  char ta[CUTE_MAX_TEXT], tb[CUTE_MAX_TEXT];
  cute_linear_print_compact(a, ta, sizeof ta);
  if (b) cute_linear_print_compact(b, tb, sizeof tb);
  cute_error_prefix(err, op, ta, b ? tb : (const char *)NULL, (char *)NULL);
  return st;
}

/* r's input dims are in[0, nin), its output dims out[0, nout): each map
 * below takes its dims from its operands'. */
static void set_dims(cute_linear *r, const cute_linear_dim *in, int nin,
                     const cute_linear_dim *out, int nout)
{
  r->nin = nin;
  r->nout = nout;
  memcpy(r->in, in, sizeof r->in);
  memcpy(r->out, out, sizeof r->out);
}

cute_status cute_linear_compose(cute_linear *out, const cute_linear *outer,
                                const cute_linear *inner, cute_error *err)
{
  int map[CUTE_LINEAR_MAX_DIMS], k, nb = cute_linear_in_bits(inner);
  cute_linear r;
  cute_status st = match_dims(map, inner->out, inner->nout, outer->in,
                              outer->nin, "inner output", err);
  if (st) return fail2(st, err, "compose", outer, inner);
  set_dims(&r, inner->in, inner->nin, outer->out, outer->nout);
  for (k = 0; k < nb; k++)
    r.basis[k] = cute_linear_apply(outer, repack(inner->basis[k], map,
                                                 inner->out, inner->nout));
  *out = r;
  return CUTE_OK;
}

cute_status cute_linear_invert(cute_linear *out, const cute_linear *A,
                               cute_error *err)
{
  echelon E;
  cute_linear r;
  int b, nb = cute_linear_in_bits(A), ob = cute_linear_out_bits(A);
  eliminate(&E, A);
  if (nb != ob || E.n != nb) {
    cute_fail(err, CUTE_ENONINJECTIVE, "not a bijection: %d input bits, %d "
              "output bits, rank %d", nb, ob, E.n);
    return fail2(CUTE_ENONINJECTIVE, err, "invert", A, NULL);
  }
  set_dims(&r, A->out, A->nout, A->in, A->nin);
  for (b = 0; b < ob; b++) {
    uint64_t c = 0;
    reduce(&E, 1ull << b, &c);  /* full rank: the remainder is 0 */
    r.basis[b] = c;
  }
  *out = r;
  return CUTE_OK;
}

cute_status cute_linear_invert_and_compose(cute_linear *out,
                                           const cute_linear *A,
                                           const cute_linear *B,
                                           cute_error *err)
{
  int map[CUTE_LINEAR_MAX_DIMS], k, nb = cute_linear_in_bits(A);
  echelon E;
  cute_linear r;
  char desc[96];
  cute_status st = match_dims(map, A->out, A->nout, B->out, B->nout,
                              "first layout's output", err);
  if (st) return fail2(st, err, "invert_and_compose", A, B);
  eliminate(&E, B);
  set_dims(&r, A->in, A->nin, B->in, B->nin);
  for (k = 0; k < nb; k++) {
    uint64_t c = 0;
    if (reduce(&E, repack(A->basis[k], map, A->out, A->nout), &c)) {
      cute_linear_describe(A, k, desc, sizeof desc);
      cute_fail(err, CUTE_EINVAL, "basis %s of the first layout is not in "
                "the image of the second", desc);
      return fail2(CUTE_EINVAL, err, "invert_and_compose", A, B);
    }
    r.basis[k] = c;
  }
  *out = r;
  return CUTE_OK;
}

/* ---------------------------------------------------- conversions -- */

int cute_linear_is_tv(const cute_linear *A)
{
  return A->nin == 3 && !strcmp(A->in[0].name, "register") &&
         !strcmp(A->in[1].name, "lane") && !strcmp(A->in[2].name, "warp");
}

/* Is v in the span of vecs[0..n)?  (Elimination on a copy.) */
static int in_span(const uint64_t *vecs, int n, uint64_t v)
{
  uint64_t rows[CUTE_LINEAR_MAX_BITS];
  int piv[CUTE_LINEAR_MAX_BITS], nr = 0, k, r;
  for (k = 0; k <= n; k++) {
    uint64_t x = k < n ? vecs[k] : v;
    for (r = 0; r < nr; r++)
      if ((x >> piv[r]) & 1) x ^= rows[r];
    if (k == n) return x == 0;
    if (x) { rows[nr] = x; piv[nr++] = bit_length(x) - 1; }
  }
  return 0;
}

cute_status cute_linear_conversion(cute_linear_move *kind, cute_linear *map,
                                   const cute_linear *src,
                                   const cute_linear *dst, cute_error *err)
{
  uint64_t kern[CUTE_LINEAR_MAX_BITS], lw, w;
  echelon E;
  cute_linear D;
  cute_status st;
  int k, nk = 0, R = src->in[0].bits, Rd = dst->in[0].bits, local = 1, warp = 1;
  if (!cute_linear_is_tv(src) || !cute_linear_is_tv(dst) ||
      src->in[1].bits != dst->in[1].bits || src->in[2].bits != dst->in[2].bits) {
    cute_fail(err, CUTE_EINVAL, "both layouts need the input dims register, "
              "lane, warp, with as many lanes and warps");
    return fail2(CUTE_EINVAL, err, "conversion", src, dst);
  }
  if ((st = cute_linear_invert_and_compose(&D, dst, src, err))) return st;
  /* the kernel of src: the input combinations it sends to 0 (copies) */
  E.n = 0;
  for (k = 0; k < cute_linear_in_bits(src); k++) {
    uint64_t c = 1ull << k, v = reduce(&E, src->basis[k], &c);
    if (!v) { kern[nk++] = c; continue; }
    E.row[E.n] = v;
    E.comb[E.n] = c;
    E.piv[E.n++] = bit_length(v) - 1;
  }
  lw = ~mask_of(R);
  w = ~mask_of(R + src->in[1].bits);
  for (k = 0; k < cute_linear_in_bits(dst); k++) {
    /* dst's lane/warp bit k, in src's packing; a register bit has none */
    uint64_t id = k < Rd ? 0 : 1ull << (k - Rd + R), diff = D.basis[k] ^ id;
    uint64_t pk[CUTE_LINEAR_MAX_BITS];
    int j;
    for (j = 0; j < nk; j++) pk[j] = kern[j] & lw;
    if (local && !in_span(pk, nk, diff & lw)) local = 0;
    for (j = 0; j < nk; j++) pk[j] = kern[j] & w;
    if (warp && !in_span(pk, nk, diff & w)) warp = 0;
  }
  *kind = local ? CUTE_MOVE_REGISTERS : warp ? CUTE_MOVE_SHUFFLE
                                             : CUTE_MOVE_SHARED;
  if (map) *map = D;
  return CUTE_OK;
}
