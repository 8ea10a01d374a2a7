/*
 * tuple.c -- HTuples stored flat (see cute.h): the builder, access, the
 * relations of paper section 2 and the coordinate maps idx2crd / crd2idx.
 *
 * A tuple is a token string over '(' ')' 'x' plus its leaves in order, so
 * most operations are one left-to-right walk over tokens.  Walks are bounded
 * by ntok, so even a hand-made malformed tuple cannot make them read past
 * the arrays; cute_tuple_check is the full structural test.
 */
#include "cute_internal.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- helpers -- */

/* Token count clamped to the array, for walks over unchecked tuples. */
#define NTOK(t) ((t)->ntok < CUTE_MAX_TOKENS ? (t)->ntok : CUTE_MAX_TOKENS)

/* Token index just past the element that starts at token p; *nleaf gets
 * its leaf count.  For a malformed string it stops at `ntok`. */
static int skip_elem(const cute_tuple *t, int p, int *nleaf)
{
  int depth = 0, n = 0;
  do {
    char c = t->tok[p++];
    if (c == '(') depth++;
    else if (c == ')') depth--;
    else n++;
  } while (depth > 0 && p < NTOK(t));
  *nleaf = n;
  return p;
}

/* Each byte's depth step: +1 '(', -1 ')', 0 else (cute_tuple_check,
 * open_depth). */
static const signed char tok_step[256] = {['('] = 1, [')'] = -1};

/* Current nesting depth of a tuple under construction: a sum of steps
 * without a branch a token, as the builder takes it on every element. */
static int open_depth(const cute_tuple *t)
{
  int i, d = 0, n = NTOK(t);
  for (i = 0; i < n; i++) d += tok_step[(unsigned char)t->tok[i]];
  return d;
}

static int tok_depth(const char *tok, int ntok)
{
  int i, d = 0, m = 0;
  for (i = 0; i < ntok; i++) {
    if (tok[i] == '(') { if (++d > m) m = d; }
    else if (tok[i] == ')') d--;
  }
  return m;
}

static const char *tuple_text(const cute_tuple *t, char *buf, size_t cap)
{
  cute_tuple_print(t, buf, cap);
  return buf;
}

/* A basis path is valid when its length is at most CUTE_MAX_BASIS_DEPTH,
 * its indices at most CUTE_MAX_BASIS_INDEX and its unused bytes zero (so
 * that equal paths compare equal as integers); a sum when packed in
 * stride.c's normal form (so equal sums are equal leaves). */
static int basis_valid(int64_t v, cute_basis e)
{
  int k, len = CUTE_BASIS_LEN(e);
  if (e == 0) return 1; /* a plain integer: nearly every leaf */
  if (CUTE_BASIS_IS_SUM(e)) return cute_stride_sum_valid(v, e);
  if (len > CUTE_MAX_BASIS_DEPTH) return 0;
  for (k = 0; k < len; k++)
    if (CUTE_BASIS_AT(e, k) > CUTE_MAX_BASIS_INDEX) return 0;
  return len == CUTE_MAX_BASIS_DEPTH || (e >> (8 * (len + 1))) == 0;
}

/* ------------------------------------------------------------- builder -- */

void cute_tuple_clear(cute_tuple *t)
{
  t->ntok = 0;
  t->nleaf = 0;
}

cute_status cute_tuple_int(cute_tuple *t, int64_t v)
{
  t->ntok = 1;
  t->nleaf = 1;
  t->tok[0] = 'x';
  t->v[0] = v;
  t->e[0] = 0;
  return CUTE_OK;
}

/* A new element may start when the tuple is empty or a group is open (d,
 * the open depth, > 0).  The ')' of every open group is reserved, so a
 * tuple can always be closed. */
static cute_status can_add(const cute_tuple *t, int d, int ntok, int nleaf,
                           int depth, cute_error *err)
{
  if (t->ntok > 0 && d == 0)
    return cute_fail(err, CUTE_EINVAL,
                     "tuple builder: element after a complete tuple");
  if (t->ntok + ntok + d > CUTE_MAX_TOKENS)
    return cute_fail(err, CUTE_ELIMIT, "tuple: more than %d tokens "
                     "(CUTE_MAX_TOKENS)", CUTE_MAX_TOKENS);
  if (t->nleaf + nleaf > CUTE_MAX_LEAVES)
    return cute_fail(err, CUTE_ELIMIT, "tuple: more than %d leaves "
                     "(CUTE_MAX_LEAVES)", CUTE_MAX_LEAVES);
  if (d + depth > CUTE_MAX_DEPTH)
    return cute_fail(err, CUTE_ELIMIT, "tuple: depth above %d "
                     "(CUTE_MAX_DEPTH)", CUTE_MAX_DEPTH);
  return CUTE_OK;
}

/* The builder's steps take the open depth d from callers that count it
 * (the parser), and count it themselves otherwise: counting re-reads the
 * tokens, which made building quadratic. */
cute_status cute_tuple_open_at(cute_tuple *t, int d, cute_error *err)
{
  cute_status st = can_add(t, d, 2, 0, 1, err);
  if (st) return st;
  t->tok[t->ntok++] = '(';
  return CUTE_OK;
}

cute_status cute_tuple_close_at(cute_tuple *t, int d, cute_error *err)
{
  if (d <= 0)
    return cute_fail(err, CUTE_EINVAL, "tuple builder: ')' without '('");
  t->tok[t->ntok++] = ')';
  return CUTE_OK;
}

cute_status cute_tuple_leaf_at(cute_tuple *t, int d, int64_t v,
                               cute_basis e, cute_error *err)
{
  cute_status st = can_add(t, d, 1, 1, 0, err);
  if (st) return st;
  if (e != 0 && !basis_valid(v, e))
    return cute_fail(err, CUTE_ELIMIT,
                     "tuple: basis path deeper than %d "
                     "(CUTE_MAX_BASIS_DEPTH) or index above %d "
                     "(CUTE_MAX_BASIS_INDEX), or a sum not in normal form",
                     CUTE_MAX_BASIS_DEPTH, CUTE_MAX_BASIS_INDEX);
  t->tok[t->ntok++] = 'x';
  t->v[t->nleaf] = v;
  t->e[t->nleaf++] = e;
  return CUTE_OK;
}

cute_status cute_tuple_open(cute_tuple *t, cute_error *err)
{
  return cute_tuple_open_at(t, open_depth(t), err);
}

cute_status cute_tuple_close(cute_tuple *t, cute_error *err)
{
  return cute_tuple_close_at(t, open_depth(t), err);
}

cute_status cute_tuple_leaf(cute_tuple *t, int64_t v, cute_basis e,
                            cute_error *err)
{
  return cute_tuple_leaf_at(t, open_depth(t), v, e, err);
}

cute_status cute_tuple_push(cute_tuple *t, const cute_tuple *sub,
                            cute_error *err)
{
  cute_status st;
  int d = open_depth(t);
  if (d == 0)
    return cute_fail(err, CUTE_EINVAL, "tuple builder: push outside a group");
  if ((st = cute_tuple_check(sub, err))) return st;
  st = can_add(t, d, sub->ntok, sub->nleaf, tok_depth(sub->tok, sub->ntok),
               err);
  if (st) return st;
  memcpy(t->tok + t->ntok, sub->tok, sub->ntok);
  memcpy(t->v + t->nleaf, sub->v, sub->nleaf * sizeof t->v[0]);
  memcpy(t->e + t->nleaf, sub->e, sub->nleaf * sizeof t->e[0]);
  t->ntok += sub->ntok;
  t->nleaf += sub->nleaf;
  return CUTE_OK;
}

cute_status cute_tuple_make(cute_tuple *t, const cute_tuple *const *xs, int n,
                            cute_error *err)
{
  int i;
  cute_status st;
  cute_tuple_clear(t);
  if ((st = cute_tuple_open(t, err))) return st;
  for (i = 0; i < n; i++)
    if ((st = cute_tuple_push(t, xs[i], err))) return st;
  return cute_tuple_close(t, err);
}

/* -------------------------------------------------------------- access -- */

/* Whether each byte is a token at all, for cute_tuple_check. */
static const unsigned char tok_valid[256] = {['('] = 1, [')'] = 1, ['x'] = 1};

cute_status cute_tuple_check(const cute_tuple *t, cute_error *err)
{
  int i, d = 0, lo = 1, hi = 0, n = 0, ok = 1, last = t->ntok - 1;
  if (t->ntok > CUTE_MAX_TOKENS || t->nleaf > CUTE_MAX_LEAVES)
    return cute_fail(err, CUTE_ELIMIT, "tuple: more than %d tokens "
                     "(CUTE_MAX_TOKENS) or %d leaves (CUTE_MAX_LEAVES)",
                     CUTE_MAX_TOKENS, CUTE_MAX_LEAVES);
  /* Without a branch per token (this check runs on every operand): well
   * formed is one root, so every depth before the last token is >= 1
   * (none below 0, no second root) and the last brings it to 0. */
  for (i = 0; i < last; i++) {
    unsigned char c = (unsigned char)t->tok[i];
    d += tok_step[c];
    ok &= tok_valid[c];
    n += c == 'x';
    lo = d < lo ? d : lo;
    hi = d > hi ? d : hi;
  }
  if (last >= 0) {
    unsigned char c = (unsigned char)t->tok[last];
    d += tok_step[c];
    ok &= tok_valid[c];
    n += c == 'x';
  }
  if (last < 0 || !ok || lo < 1 || d != 0 || n != t->nleaf)
    return cute_fail(err, CUTE_EINVAL, "tuple: malformed token string");
  if (hi > CUTE_MAX_DEPTH)
    return cute_fail(err, CUTE_ELIMIT, "tuple: depth above %d "
                     "(CUTE_MAX_DEPTH)", CUTE_MAX_DEPTH);
  return cute_tuple_check_leaves(t, err);
}

cute_status cute_tuple_check_leaves(const cute_tuple *t, cute_error *err)
{
  int i, n = t->nleaf < CUTE_MAX_LEAVES ? t->nleaf : CUTE_MAX_LEAVES;
  cute_basis any = 0;
  for (i = 0; i < n; i++) any |= t->e[i];
  for (i = 0; any != 0 && i < n; i++) /* integers (nearly all) skip it */
    if (!basis_valid(t->v[i], t->e[i]))
      return cute_fail(err, CUTE_ELIMIT, "tuple: invalid basis path");
  return CUTE_OK;
}

int cute_tuple_is_int(const cute_tuple *t)
{
  return t->ntok == 1 && t->tok[0] == 'x';
}

int cute_tuple_rank(const cute_tuple *t)
{
  int p = 1, r = 0, n;
  if (t->ntok == 0 || t->tok[0] != '(') return 1;
  while (p < NTOK(t) && t->tok[p] != ')') {
    p = skip_elem(t, p, &n);
    r++;
  }
  return r;
}

int cute_tuple_depth(const cute_tuple *t)
{
  return tok_depth(t->tok, NTOK(t));
}

int cute_tuple_equal(const cute_tuple *a, const cute_tuple *b)
{
  return a->ntok == b->ntok && a->nleaf == b->nleaf &&
         memcmp(a->tok, b->tok, a->ntok) == 0 &&
         memcmp(a->v, b->v, a->nleaf * sizeof a->v[0]) == 0 &&
         memcmp(a->e, b->e, a->nleaf * sizeof a->e[0]) == 0;
}

int cute_tuple_child(const cute_tuple *t, const cute_span *of, int i,
                     cute_span *sp)
{
  int p = of->tok0 + 1, leaf = of->leaf0, n, k;
  if (i < 0 || of->tok1 <= of->tok0) return -1;
  if (t->tok[of->tok0] != '(') {
    if (i != 0) return -1;
    *sp = *of;
    return 0;
  }
  for (k = 0; p < of->tok1 && t->tok[p] != ')'; k++) {
    int q = skip_elem(t, p, &n);
    if (k == i) {
      sp->tok0 = p; sp->tok1 = q; sp->leaf0 = leaf; sp->leaf1 = leaf + n;
      return 0;
    }
    p = q;
    leaf += n;
  }
  return -1;
}

int cute_tuple_span(const cute_tuple *t, int i, cute_span *sp)
{
  cute_span whole;
  whole.tok0 = 0;
  whole.tok1 = NTOK(t);
  whole.leaf0 = 0;
  whole.leaf1 = t->nleaf;
  return cute_tuple_child(t, &whole, i, sp);
}

int cute_tuple_spans(const cute_tuple *t, cute_span *sp, int max)
{
  int p = 1, leaf = 0, r = 0, n, q;
  if (max <= 0) return 0;
  if (t->ntok == 0 || t->tok[0] != '(') {
    sp->tok0 = sp->leaf0 = 0;
    sp->tok1 = NTOK(t);
    sp->leaf1 = t->nleaf;
    return 1;
  }
  for (; r < max && p < NTOK(t) && t->tok[p] != ')'; p = q, leaf += n, r++) {
    if (t->tok[p] == 'x') { /* a leaf: most modes */
      q = p + 1;
      n = 1;
    } else {
      q = skip_elem(t, p, &n);
    }
    sp[r].tok0 = p;
    sp[r].tok1 = q;
    sp[r].leaf0 = leaf;
    sp[r].leaf1 = leaf + n;
  }
  return r;
}

/* Copies in fixed-size chunks (rounded up inside the arrays' capacity):
 * a variable-length memcpy of a few bytes costs more than the copy. */
void cute_tuple_copy(cute_tuple *dst, const cute_tuple *src)
{
  int k, nt = NTOK(src), nl = src->nleaf;
  if (nl > CUTE_MAX_LEAVES) nl = CUTE_MAX_LEAVES;
  dst->ntok = src->ntok;
  dst->nleaf = src->nleaf;
  for (k = 0; k < nt; k += 16)
    memcpy(dst->tok + k, src->tok + k, 16);
  for (k = 0; k < nl; k += 4) {
    memcpy(dst->v + k, src->v + k, 4 * sizeof src->v[0]);
    memcpy(dst->e + k, src->e + k, 4 * sizeof src->e[0]);
  }
}

/* out = the sub-tuple of t covered by sp (out != t). */
static void copy_span(cute_tuple *out, const cute_tuple *t, const cute_span *sp)
{
  int nl = sp->leaf1 - sp->leaf0;
  out->ntok = (uint8_t)(sp->tok1 - sp->tok0);
  out->nleaf = (uint8_t)nl;
  memcpy(out->tok, t->tok + sp->tok0, out->ntok);
  memcpy(out->v, t->v + sp->leaf0, nl * sizeof t->v[0]);
  memcpy(out->e, t->e + sp->leaf0, nl * sizeof t->e[0]);
}

cute_status cute_tuple_mode(cute_tuple *out, const cute_tuple *t, int i,
                            cute_error *err)
{
  cute_span sp;
  if (cute_tuple_span(t, i, &sp) != 0) {
    char b[256];
    return cute_fail(err, CUTE_ERANK, "mode(%s, %d): index out of range "
                     "[0,%d)", tuple_text(t, b, sizeof b), i,
                     cute_tuple_rank(t));
  }
  if (out == t) {
    cute_tuple tmp;
    copy_span(&tmp, t, &sp);
    *out = tmp;
  } else {
    copy_span(out, t, &sp);
  }
  return CUTE_OK;
}

cute_status cute_tuple_flatten(cute_tuple *out, const cute_tuple *t)
{
  int n = t->nleaf;
  /* The copies trust nleaf: a hand-made t must not overrun them (no err
   * here to say why: the public signature has none). */
  cute_status st = cute_tuple_check(t, NULL);
  if (st) return st;
  if (out != t) {
    memcpy(out->v, t->v, n * sizeof t->v[0]);
    memcpy(out->e, t->e, n * sizeof t->e[0]);
  }
  out->nleaf = (uint8_t)n;
  if (cute_tuple_is_int(t)) {
    out->ntok = 1;
    out->tok[0] = 'x';
    return CUTE_OK;
  }
  out->tok[0] = '(';
  memset(out->tok + 1, 'x', n);
  out->tok[n + 1] = ')';
  out->ntok = (uint8_t)(n + 2);
  return CUTE_OK;
}

/* Product (or sum) of integer leaves; a basis leaf has no integer value. */
static cute_status fold_leaves(const cute_tuple *t, int64_t *out, int mul,
                               cute_error *err)
{
  int i;
  int64_t r = mul;
  char b[256];
  for (i = 0; i < t->nleaf; i++) {
    if (t->e[i] != 0 || t->v[i] == CUTE_UNDERSCORE)
      return cute_fail(err, CUTE_EINVAL, "%s(%s): leaf %d is not an integer",
                       mul ? "size" : "sum", tuple_text(t, b, sizeof b), i);
    if (mul ? cute_mul(r, t->v[i], &r) : cute_add(r, t->v[i], &r))
      return cute_fail(err, CUTE_EOVERFLOW, "%s(%s): 64-bit overflow",
                       mul ? "size" : "sum", tuple_text(t, b, sizeof b));
  }
  *out = r;
  return CUTE_OK;
}

cute_status cute_tuple_size(const cute_tuple *t, int64_t *out, cute_error *err)
{
  return fold_leaves(t, out, 1, err);
}

cute_status cute_tuple_sum(const cute_tuple *t, int64_t *out, cute_error *err)
{
  return fold_leaves(t, out, 0, err);
}

/* ----------------------------------------------------------- relations -- */

int cute_congruent(const cute_tuple *a, const cute_tuple *b)
{
  return a->ntok == b->ntok && memcmp(a->tok, b->tok, a->ntok) == 0;
}

/* Lockstep walk of a against b where a leaf of a may stand for a whole
 * element of b.  With `sizes`, each such leaf must equal the product of
 * that element's leaves (compatibility, Definition 2.7); otherwise only
 * the profiles are compared (weak congruence, Definition 2.4). */
static int refines(const cute_tuple *a, const cute_tuple *b, int sizes)
{
  int pa = 0, pb = 0, la = 0, lb = 0;
  while (pa < a->ntok && pb < b->ntok) {
    char ta = a->tok[pa], tb = b->tok[pb];
    if (ta == 'x') {
      int n, q;
      if (tb == ')') return 0;
      q = skip_elem(b, pb, &n);
      if (sizes) {
        int64_t p = 1;
        int k;
        for (k = lb; k < lb + n; k++)
          if (cute_mul(p, b->v[k], &p)) return 0;
        if (p != a->v[la]) return 0;
      }
      pa++; la++; pb = q; lb += n;
    } else if (ta != tb) {
      return 0;
    } else {
      pa++; pb++;
    }
  }
  return pa == a->ntok && pb == b->ntok;
}

int cute_weakly_congruent(const cute_tuple *a, const cute_tuple *b)
{
  return refines(a, b, 0);
}

int cute_compatible(const cute_tuple *a, const cute_tuple *b)
{
  return refines(a, b, 1);
}

/* ----------------------------------------------------- coordinate maps -- */

/* c[0..n) = idx spread colexicographically over shape leaves s[0..n), the
 * last one absorbing the rest (floor division: negative indices too).  A
 * leaf 2^k (nearly every shape) takes a mask and an arithmetic shift,
 * which are floor mod and floor division for any sign. */
static cute_status spread(int64_t *c, int64_t idx, const int64_t *s, int n,
                          cute_error *err)
{
  int k;
  for (k = 0; k < n - 1; k++) {
    if (s[k] <= 0)
      return cute_fail(err, CUTE_EINVAL, "shape leaf %lld is not positive",
                       (long long)s[k]);
    if ((s[k] & (s[k] - 1)) == 0) {
      c[k] = idx & (s[k] - 1);
      idx >>= __builtin_ctzll((uint64_t)s[k]);
      continue;
    }
    c[k] = cute_floormod(idx, s[k]);
    idx = cute_floordiv(idx, s[k]);
  }
  if (n > 0) c[n - 1] = idx;
  return CUTE_OK;
}

cute_status cute_tuple_natural(int64_t *c, const cute_tuple *crd,
                               const cute_tuple *shape, int allow_underscore,
                               cute_error *err)
{
  cute_status st;
  if ((st = cute_tuple_check(crd, err)) ||
      (st = cute_tuple_check(shape, err)))
    return st;
  return cute_tuple_natural_checked(c, crd, shape, allow_underscore, err);
}

cute_status cute_tuple_natural_checked(int64_t *c, const cute_tuple *crd,
                                       const cute_tuple *shape,
                                       int allow_underscore, cute_error *err)
{
  int pc = 0, ps = 0, lc = 0, ls = 0, n, q;
  char b1[256], b2[256];
  cute_status st;
  while (pc < crd->ntok && ps < shape->ntok) {
    char tc = crd->tok[pc], ts = shape->tok[ps];
    if (tc == 'x' && ts != ')') {
      int64_t v = crd->v[lc];
      if (crd->e[lc] != 0)
        goto bad_leaf;
      if (v == CUTE_UNDERSCORE) {
        if (!allow_underscore) goto bad_leaf;
        v = 0;
      }
      q = skip_elem(shape, ps, &n);
      if ((st = spread(c + ls, v, shape->v + ls, n, err))) return st;
      pc++; lc++; ps = q; ls += n;
    } else if (tc != ts) {
      break;
    } else {
      pc++; ps++;
    }
  }
  if (pc == crd->ntok && ps == shape->ntok) return CUTE_OK;
  return cute_fail(err, CUTE_ERANK, "coordinate %s is not weakly congruent "
                   "to shape %s", tuple_text(crd, b1, sizeof b1),
                   tuple_text(shape, b2, sizeof b2));
bad_leaf:
  return cute_fail(err, CUTE_EINVAL, "coordinate %s: leaf %d is not an "
                   "integer", tuple_text(crd, b1, sizeof b1), lc);
}

/* Prefixes err's message with "op(first, shape): ", the error contract's
 * operation and operands; a malformed shape (st from cute_tuple_check) is
 * not printed. */
static cute_status coord_fail(cute_error *err, cute_status st, const char *op,
                              const char *first, const cute_tuple *shape)
{
  char b[CUTE_MAX_TEXT];
  if (!err) return st;
  err->code = st;
  cute_error_prefix(err, op, first, cute_tuple_check(shape, NULL) ? "?"
                    : tuple_text(shape, b, sizeof b), (char *)NULL);
  return st;
}

cute_status cute_idx2crd(cute_tuple *crd, int64_t idx, const cute_tuple *shape,
                         cute_error *err)
{
  char i[24];
  cute_status st = cute_tuple_check(shape, err);
  if (!st) st = spread(crd->v, idx, shape->v, shape->nleaf, err);
  if (st) {
    snprintf(i, sizeof i, "%lld", (long long)idx);
    return coord_fail(err, st, "idx2crd", i, shape);
  }
  memset(crd->e, 0, shape->nleaf * sizeof crd->e[0]);
  memcpy(crd->tok, shape->tok, shape->ntok);
  crd->ntok = shape->ntok;
  crd->nleaf = shape->nleaf;
  return CUTE_OK;
}

cute_status cute_crd2idx(int64_t *idx, const cute_tuple *crd,
                         const cute_tuple *shape, cute_error *err)
{
  int64_t c[CUTE_MAX_LEAVES], r = 0, p = 1;
  int k;
  char b[CUTE_MAX_TEXT];
  cute_status st = cute_tuple_natural(c, crd, shape, 0, err);
  for (k = 0; !st && k < shape->nleaf; k++)  /* as idx2crd: a shape */
    if (shape->v[k] <= 0)
      st = cute_fail(err, CUTE_EINVAL, "shape leaf %lld is not positive",
                     (long long)shape->v[k]);
  for (k = 0; !st && k < shape->nleaf; k++) {
    int64_t t;
    if (cute_mul(c[k], p, &t) || cute_add(r, t, &r) ||
        (k + 1 < shape->nleaf && cute_mul(p, shape->v[k], &p)))
      st = cute_fail(err, CUTE_EOVERFLOW, "64-bit overflow");
  }
  if (st)
    return coord_fail(err, st, "crd2idx", cute_tuple_check(crd, NULL) ? "?"
                      : tuple_text(crd, b, sizeof b), shape);
  *idx = r;
  return CUTE_OK;
}
