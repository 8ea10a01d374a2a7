/*
 * tiler.c -- tilers (paper 3.3.5): their structure, applying an operation
 * by mode, arranging a result as (tiles, rests), and composition by a
 * tiler.  The divides, products and partitions (divide.c, product.c,
 * partition.c) are written with these.
 *
 * Every result is assembled in a scratch layout (scratch.h) from whole
 * layouts and modes, so `out` may alias an operand; each nesting level of
 * a tiler holds a few layouts on the C stack (CUTE_MAX_DEPTH levels).
 */
#include "compose_base.h"
#include "tiling.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ structure -- */

char cute_tiler_tok(const cute_tiler *T, int p)
{
  if (T->ntok == 0) {
    if (p == 0) return '<';
    if (p <= T->n) return 'L';
    return p == T->n + 1 ? '>' : '\0';
  }
  return p >= 0 && p < T->ntok ? T->tok[p] : '\0';
}

int cute_tiler_len(const cute_tiler *T)
{
  return T->ntok ? T->ntok : T->n + 2;
}

int cute_tiler_skip(const cute_tiler *T, int p, int *nl)
{
  int depth = 0;
  do {
    char c = cute_tiler_tok(T, p++);
    if (c == '<') depth++;
    else if (c == '>') depth--;
    else if (c == 'L') ++*nl;
  } while (depth > 0);
  return p;
}

int cute_tiler_count(const cute_tiler *T, int p)
{
  int n = 0, nl = 0;
  for (p++; cute_tiler_tok(T, p) != '>'; n++) p = cute_tiler_skip(T, p, &nl);
  return n;
}

static cute_status malformed(cute_error *err, const char *why)
{
  return cute_fail(err, CUTE_EINVAL, "tiler: malformed (%s)", why);
}

cute_status cute_tiler_check(const cute_tiler *T, cute_error *err)
{
  int p, depth = 0, roots = 0, nl = 0, len;
  if (T->n < 0 || T->n > CUTE_MAX_TILER)
    return cute_fail(err, CUTE_ELIMIT, "tiler: %d layouts, above "
                     "CUTE_MAX_TILER (%d)", T->n, CUTE_MAX_TILER);
  if (T->ntok > CUTE_MAX_TILER_TOKENS)
    return malformed(err, "too many tokens");
  if (T->ntok == 0) return CUTE_OK; /* <L...L>: well formed by its making */
  if (T->ntok == 1 && T->tok[0] == 'L' && T->n == 1) return CUTE_OK;
  len = cute_tiler_len(T);
  for (p = 0; p < len; p++) {
    char c = cute_tiler_tok(T, p);
    if (depth == 0 && roots++) return malformed(err, "more than one root");
    if (c == '<') {
      if (++depth > CUTE_MAX_DEPTH)
        return cute_fail(err, CUTE_ELIMIT, "tiler nesting exceeds the limit "
                         "of %d levels (CUTE_MAX_DEPTH)", CUTE_MAX_DEPTH);
    } else if (c == '>') {
      if (--depth < 0) return malformed(err, "unbalanced '>'");
    } else if (c == 'L') {
      nl++;
    } else if (c != '_') {
      return malformed(err, "unknown token");
    }
  }
  if (depth != 0 || roots != 1) return malformed(err, "unbalanced '<'");
  /* The layouts themselves are checked by the operations that use them,
   * as any operand is. */
  return nl != T->n ? malformed(err, "layout count") : CUTE_OK;
}

cute_status cute_tiler_context(cute_error *err, cute_status st,
                               const char *op, const cute_layout *A,
                               const cute_tiler *T)
{
  char a[CUTE_MAX_TEXT], t[CUTE_MAX_TEXT];
  if (st == CUTE_OK || !err) return st;
  cute_layout_print(A, a, sizeof a);
  cute_tiler_print(T, t, sizeof t);
  cute_error_prefix(err, op, a, t, (char *)NULL);
  return st;
}

/* --------------------------------------------------------------- apply -- */

static void copy_layout(cute_layout *dst, const cute_layout *src)
{
  cute_tuple_copy(&dst->shape, &src->shape);
  cute_tuple_copy(&dst->stride, &src->stride);
}

static cute_status too_long(int n, int rank, cute_error *err)
{
  return cute_fail(err, CUTE_ERANK, "tiler has %d modes but the layout has "
                   "rank %d", n, rank);
}

static cute_status apply_at(cute_layout *out, const cute_layout *A,
                            const cute_tiler *T, int *p, int *li,
                            int keep_rest, cute_tile_fn op, cute_error *err)
{
  cute_layout r, m, x;
  cute_status st = CUTE_OK;
  int i, n, rank;
  char c = cute_tiler_tok(T, *p);
  if (c == 'L') {
    const cute_layout *B = &T->mode[(*li)++];
    ++*p;
    if ((st = cute_tuple_check(&B->shape, err)) ||
        (st = cute_tuple_check(&B->stride, err)))
      return st;
    return op(out, A, B, err);
  }
  if (c == '_') {
    ++*p;
    if (out != A) copy_layout(out, A);
    return CUTE_OK;
  }
  n = cute_tiler_count(T, *p);
  rank = cute_layout_rank(A);
  if (n > rank) return too_long(n, rank, err);
  ++*p;
  cute_scratch_start(&r);
  st = cute_scratch_tok(&r, '(', err);
  for (i = 0; i < n && !st; i++)
    if (!(st = cute_layout_mode(&m, A, i, err)) &&
        !(st = apply_at(&x, &m, T, p, li, keep_rest, op, err)))
      st = cute_scratch_whole(&r, &x, err);
  if (st) return st;
  ++*p;   /* '>' */
  if (keep_rest && (st = cute_scratch_modes(&r, A, n, rank, err))) return st;
  if ((st = cute_scratch_tok(&r, ')', err))) return st;
  return cute_scratch_finish(out, &r, err);
}

cute_status cute_tiler_apply(cute_layout *out, const cute_layout *A,
                             const cute_tiler *T, int keep_rest,
                             cute_tile_fn op, cute_error *err)
{
  int p = 0, li = 0;
  return apply_at(out, A, T, &p, &li, keep_rest, op, err);
}

/* ------------------------------------------------------------- arrange -- */

static cute_status unit(cute_layout *u)
{
  cute_tuple one, zero;
  cute_tuple_int(&one, 1);
  cute_tuple_int(&zero, 0);
  return cute_layout_make(u, &one, &zero, NULL);
}

/* Splits D, the result of an operation by the tiler element at *p, into
 * its tile t and rest r (CuTe's tile_unzip / zip2_by): a layout element
 * made (tile, rest); `_` left a mode that is read as (tile, rest) when it
 * has rank 2, and as all rest (tile 1:0) when it has rank 1; a list
 * splits each mode it names, modes past it joining the rest. */
static cute_status unzip(cute_layout *t, cute_layout *r, const cute_layout *D,
                         const cute_tiler *T, int *p, cute_error *err)
{
  cute_layout tiles, rests, m, ti, ri;
  cute_status st = CUTE_OK;
  int i, n, nl = 0, rank = cute_layout_rank(D);
  char c = cute_tiler_tok(T, *p);
  if (c != '<') {
    *p = cute_tiler_skip(T, *p, &nl);
    if (c == '_' && rank == 1 && cute_tuple_is_int(&D->shape)) {
      copy_layout(r, D);
      return unit(t);
    }
    if (c == '_' && rank != 2) {
      char d[CUTE_MAX_TEXT];
      cute_layout_print(D, d, sizeof d);
      return cute_fail(err, CUTE_ERANK, "a mode kept whole by _ is split "
                       "into (tile, rest) as its modes 0 and 1, as in CuTe, "
                       "so it needs rank 2 (or one integer mode: all rest); "
                       "%.200s has rank %d", d, rank);
    }
    if ((st = cute_layout_mode(t, D, 0, err))) return st;
    return cute_layout_mode(r, D, 1, err);
  }
  n = cute_tiler_count(T, *p);
  ++*p;
  cute_scratch_start(&tiles);
  cute_scratch_start(&rests);
  if ((st = cute_scratch_tok(&tiles, '(', err)) ||
      (st = cute_scratch_tok(&rests, '(', err)))
    return st;
  for (i = 0; i < n && !st; i++)
    if (!(st = cute_layout_mode(&m, D, i, err)) &&
        !(st = unzip(&ti, &ri, &m, T, p, err)) &&
        !(st = cute_scratch_whole(&tiles, &ti, err)))
      st = cute_scratch_whole(&rests, &ri, err);
  if (st) return st;
  ++*p;   /* '>' */
  if ((st = cute_scratch_modes(&rests, D, n, rank, err)) ||
      (st = cute_scratch_tok(&tiles, ')', err)) ||
      (st = cute_scratch_tok(&rests, ')', err)) ||
      (st = cute_scratch_finish(t, &tiles, err)))
    return st;
  return cute_scratch_finish(r, &rests, err);
}

cute_status cute_tiler_arrange(cute_layout *out, const cute_layout *D,
                               const cute_tiler *T, int how, cute_error *err)
{
  cute_layout t, r, o;
  cute_status st;
  int p = 0;
  if ((st = unzip(&t, &r, D, T, &p, err))) return st;
  cute_scratch_start(&o);
  if ((st = cute_scratch_tok(&o, '(', err))) return st;
  if (how == CUTE_FLAT)
    st = cute_scratch_modes(&o, &t, 0, cute_layout_rank(&t), err);
  else
    st = cute_scratch_whole(&o, &t, err);
  if (st) return st;
  if (how == CUTE_ZIPPED)
    st = cute_scratch_whole(&o, &r, err);
  else
    st = cute_scratch_modes(&o, &r, 0, cute_layout_rank(&r), err);
  if (st || (st = cute_scratch_tok(&o, ')', err))) return st;
  return cute_scratch_finish(out, &o, err);
}

/* ---------------------------------------------------------- composition -- */

cute_layout *cute_tiler_target(cute_layout *out, cute_layout *tmp,
                               const cute_layout *A, const cute_tiler *T)
{
  int i;
  cute_layout *r = out;
  if (out == A) r = tmp;
  for (i = 0; i < T->n; i++)
    if (out == &T->mode[i]) r = tmp;
  cute_scratch_start(r);
  return r;
}

void cute_tiler_done(cute_layout *out, cute_layout *r)
{
  if (r != out) {
    cute_scratch_end(out, r);
    return;
  }
  memcpy(out->stride.tok, out->shape.tok, out->shape.ntok);
  out->stride.ntok = out->shape.ntok;
  out->stride.nleaf = out->shape.nleaf;
}

/* Is B integral, its shape a leaf or a flat group (x0,x1,...) and its
 * stride of the same tokens?  Then cute_tuple_check passes on both, in
 * a fraction of its walk (each of a tiler's layouts is checked on every
 * call). */
static int flat_integral(const cute_layout *B)
{
  const cute_tuple *s = &B->shape, *d = &B->stride;
  int k, n = s->ntok, bad = 0;
  if (n < 1 || n > CUTE_MAX_TOKENS || d->ntok != n ||
      s->nleaf != (n == 1 ? 1 : n - 2) || d->nleaf != s->nleaf)
    return 0;
  if (n > 1) bad = s->tok[0] != '(' || s->tok[n - 1] != ')';
  for (k = n > 1; k < n - (n > 1); k++) bad |= s->tok[k] != 'x';
  for (k = 0; k < n; k++) bad |= d->tok[k] != s->tok[k];
  for (k = 0; k < s->nleaf; k++) bad |= (s->e[k] | d->e[k]) != 0;
  return !bad;
}

int cute_tiler_layout_ok(const cute_layout *B)
{
  return flat_integral(B) || (!cute_tuple_check(&B->shape, NULL) &&
                              !cute_tuple_check(&B->stride, NULL));
}

int cute_tiler_deep(const cute_layout *r)
{
  return r->shape.ntok > 2 * CUTE_MAX_DEPTH;
}

void cute_tiler_end_both(cute_layout *out, cute_layout *r)
{
  if (r != out) {
    cute_scratch_end(out, r);
    return;
  }
  out->stride.ntok = out->shape.ntok;
  out->stride.nleaf = out->shape.nleaf;
}

int cute_tiler_is_flat(const cute_tiler *T)
{
  int p, len = cute_tiler_len(T);
  if (T->ntok == 0) return 1; /* <mode[0],...>: no tokens to read */
  if (cute_tiler_tok(T, 0) != '<') return 0;
  for (p = 1; p < len - 1; p++)
    if (cute_tiler_tok(T, p) != 'L') return 0;
  return 1;
}

static cute_status compose(cute_layout *out, const cute_layout *A,
                           const cute_layout *B, cute_error *err)
{
  return cute_composition(out, A, B, err);
}

/* Does A or a layout of T have a sum stride?  Then each mode composes
 * through cute_composition (stride.c), not composition.c's one pass. */
static int any_sum(const cute_layout *A, const cute_tiler *T)
{
  int i;
  for (i = 0; i < T->n; i++)
    if (cute_tuple_has_sum(&T->mode[i].stride)) return 1;
  return cute_tuple_has_sum(&A->stride);
}

/* -------------------------------------------- composition, closed form -- */

/* The tile of a matrix -- a flat tiler of one-leaf layouts t:u over A's
 * first modes, each a leaf or a flat group of a few integral leaves --
 * composes in closed form: the base case of composition (compose_base.h)
 * for one leaf of B, its carry budget alone, written straight into out.
 * Every step that would fail, or take another rule (a negative or basis
 * stride, a sum, the no-carry walk), refuses instead, and composition.c's
 * one-pass path then decides and reports as before;
 * spec/c/test_fast_paths.c checks the two agree. */
#define TILE_LEAVES 4
/* Modes of T: the last mode's stores (TILE_LEAVES leaves from leaf 28,
 * 8 token bytes from token 1 + 6*7) stay inside CUTE_MAX_LEAVES and
 * CUTE_MAX_TOKENS. */
#define TILE_MODES (CUTE_MAX_LEAVES / TILE_LEAVES)

/* t:u on one mode of stride d: t:d*u, 1:0 for t = 1; 0 to refuse when
 * d*u overflows (composition.c multiplies even for t == 1). */
static inline int tile_one(int64_t *os, int64_t *od, int64_t t, int64_t d,
                           int64_t u)
{
  os[0] = t;
  if (cute_mul(d, u, &od[0])) return 0;
  if (t == 1) od[0] = 0;
  return 1;
}

/* t:u (t >= 1, u >= 1) composed with the target a of at most TILE_LEAVES
 * modes: its leaves os:od, their count; 0 to refuse. */
static int tile_compose(int64_t *os, int64_t *od, const cute_target *a,
                        int64_t t, int64_t u)
{
  cute_wmode w[TILE_LEAVES];
  int m = cute_target_reached(a, cute_sat_mul(t - 1, u)), i, nw, at, n = 0;
  int64_t top;
  if (m == 1) return tile_one(os, od, t, a->d[0], u);
  if (cute_target_walk(a, m, t, u, w, &nw, &at) != CUTE_WALK_DONE) return 0;
  for (i = 0; i < nw; i++) {
    /* No carry out of a bounded mode: composition.c's distribute. */
    if (w[i].r != a->n - 1 && (cute_mul(w[i].s - 1, w[i].step, &top) ||
                               top > a->s[w[i].r] - 1))
      return 0;
    if (w[i].s != 1) os[n] = w[i].s, od[n++] = w[i].d;
  }
  if (n == 0) os[0] = 1, od[0] = 0, n = 1;
  return n;
}

/* The leaves of the mode of A at token *p: a leaf (1) or a flat group of
 * at most TILE_LEAVES leaves; *p moved past it.  0 for another mode, or
 * none (A's rank is below the tiler's). */
static int tile_span(const cute_tuple *as, int *p)
{
  int q = *p, n = 0;
  if (q < as->ntok && as->tok[q] == 'x') {
    *p = q + 1;
    return 1;
  }
  if (q >= as->ntok || as->tok[q] != '(') return 0;
  /* A pair, the usual group, in one compare of its three tokens. */
  if (q + 3 < as->ntok && memcmp(as->tok + q + 1, "xx)", 3) == 0) {
    *p = q + 4;
    return 2;
  }
  for (q++; q < as->ntok && as->tok[q] == 'x'; q++) n++;
  *p = q + 1;
  return q < as->ntok && as->tok[q] == ')' && n <= TILE_LEAVES ? n : 0;
}

/* The modes' tokens: "x" or "(xx)".."(xxxx)", stored 8 bytes at a time
 * (byte loops cost more; the result leaves room, see compose_into), and
 * how many they are (a load costs less than computing k + 2). */
static const char tile_toks[TILE_LEAVES + 1][8] = {"", "x", "(xx)", "(xxx)",
                                                   "(xxxx)"};
static const uint8_t tile_ntoks[TILE_LEAVES + 1] = {0, 1, 4, 5, 6};

/* The same for the group of n leaves [lo, lo + n) of A, u > 0:
 * coalesced, then composed (a shape below 1 is the general path's to
 * report).  Kept out of line: inlined, its arrays and registers slow the
 * one-leaf modes of the loop that calls it. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int tile_group(int64_t *os, int64_t *od, const cute_layout *A,
                      int lo, int n, int64_t t, int64_t u)
{
  cute_target a;
  int i;
  for (i = lo; i < lo + n; i++)
    if (A->shape.v[i] < 1) return 0;
  cute_target_coalesce(&a, A, lo, lo + n);
  return tile_compose(os, od, &a, t, u);
}

/* t:u (t >= 1, u >= 1) composed with a group (s0,s1):(d0,d1) of two
 * leaves of shape >= 2 (a tile of a tile: (4,8):(13,1) o 8:2 is
 * (2,4):(26,1)): tile_group's target and walk in closed form, as that
 * walk ends for two modes.  The group is one mode s0*s1:d0 when
 * s0*d0 == d1, and t:u stays in mode 0 when (t-1)*u < s0: t:d0*u.
 * Otherwise u either steps over mode 0 (s0 | u: t:d1*(u/s0)) or splits
 * it (u | s0: (s0/u, t/(s0/u)):(d0*u, d1), t > s0/u there).  -1 leaves
 * the rest to tile_group: a shape 1, a divisibility that fails, an
 * overflow. */
static int tile_pair(int64_t *os, int64_t *od, const int64_t *s,
                     const int64_t *d, int64_t t, int64_t u)
{
  int64_t s0 = s[0], q, y, rem;
  if (s0 < 2 || s[1] < 2) return -1;
  if ((!cute_mul(s0, d[0], &y) && y == d[1] && !cute_mul(s0, s[1], &y)) ||
      cute_sat_mul(t - 1, u) < s0)
    return tile_one(os, od, t, d[0], u);
  if (u >= s0) {
    q = cute_divmod(u, s0, &rem);
    if (rem || cute_mul(d[1], q, &od[0])) return -1;
    os[0] = t;
    return 1;
  }
  q = cute_divmod(s0, u, &rem);
  if (rem || cute_mul(d[0], u, &od[0])) return -1;
  os[0] = q;
  os[1] = cute_divmod(t, q, &rem); /* >= 2: t > q, as (t-1)*u >= s0 */
  if (rem) return -1;
  od[1] = d[1];
  return 2;
}

/* t:u (t >= 1, u >= 0) composed with the n leaves [lo, lo + n) of a mode
 * of A: its leaves os:od, their count; 0 to refuse.  A one-leaf mode s:d
 * (the common case) gives t:d*u, whatever s. */
static int tile_mode_compose(int64_t *os, int64_t *od, const cute_layout *A,
                             int lo, int n, int64_t t, int64_t u)
{
  int k;
  if (u == 0 || (n == 1 && A->shape.v[lo] >= 1))
    return tile_one(os, od, t, A->stride.v[lo], u);
  if (n == 2 && (k = tile_pair(os, od, A->shape.v + lo, A->stride.v + lo,
                               t, u)) >= 0)
    return k;
  return tile_group(os, od, A, lo, n, t, u);
}

/* Composition by the flat tiler T in closed form (above), written into
 * o mode by mode: leaves straight from the compose, zero bases four at a
 * time, tokens 8 bytes at a time.  Each store stays inside the arrays
 * without a test a mode: a mode adds at most TILE_LEAVES leaves and 6
 * tokens, and T has at most TILE_MODES modes (more go the general way).
 * 0 to refuse; o may then be half written.  o is neither A nor a layout
 * of T. */
static int compose_into(cute_layout *o, const cute_layout *A,
                        const cute_tiler *T)
{
  static const cute_basis zero[TILE_LEAVES];
  const cute_tuple *as = &A->shape;
  cute_basis any = 0;
  int i, k, p = as->ntok > 1, lo = 0, n, nl = 0, nt = 1;
  for (k = 0; k < as->nleaf; k++) any |= A->stride.e[k];
  if (any || T->n < 1 || T->n > TILE_MODES) return 0;
  for (i = 0; i < T->n; i++, lo += n) {
    const cute_layout *B = &T->mode[i];
    int64_t t = B->shape.v[0], u = B->stride.v[0];
    if (!cute_tiler_leaf(B) || t < 1 || u < 0 ||
        !(n = tile_span(as, &p)) ||
        !(k = tile_mode_compose(o->shape.v + nl, o->stride.v + nl, A, lo, n,
                                t, u)))
      return 0;
    memcpy(o->shape.e + nl, zero, sizeof zero);
    memcpy(o->stride.e + nl, zero, sizeof zero);
    memcpy(o->shape.tok + nt, tile_toks[k], 8);
    memcpy(o->stride.tok + nt, tile_toks[k], 8);
    nl += k;
    nt += tile_ntoks[k];
  }
  o->shape.tok[0] = o->stride.tok[0] = '(';
  o->shape.ntok = o->stride.ntok = (uint8_t)cute_put_tok(o, nt, ')');
  o->shape.nleaf = o->stride.nleaf = (uint8_t)nl;
  return 1;
}

/* compose_into out, or into a scratch copied out when out is an operand
 * (A or a layout of T, read while the result is written). */
static int compose_closed(cute_layout *out, const cute_layout *A,
                          const cute_tiler *T)
{
  cute_layout R, *o = cute_tile_aliased(out, A, T, T->n) ? &R : out;
  if (!compose_into(o, A, T)) return 0;
  if (o == &R) cute_scratch_end(out, &R);
  return 1;
}

/* Every tiler but the common one: check it, then the closed form, the
 * one pass or the general path.  Out of line: the entry below then saves
 * few registers and no scratch on its way to the closed form. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static cute_status composition_rest(cute_layout *out, const cute_layout *A,
                                    const cute_tiler *T, cute_error *err)
{
  /* <L...L> (ntok 0) is well formed by its making: checked without the
   * calls, as cute_tiler_run does. */
  cute_status st = T->ntok == 0 && T->n >= 0 && T->n <= CUTE_MAX_TILER
                       ? CUTE_OK : cute_tiler_check(T, err);
  if (st) return st;
  if (T->ntok == 0 || cute_tiler_is_flat(T)) {
    if (compose_closed(out, A, T)) return CUTE_OK;
    if (!any_sum(A, T)) return cute_composition_flat(out, A, T, err);
  }
  if (cute_tiler_tok(T, 0) == 'L') return cute_composition(out, A,
                                                           &T->mode[0], err);
  st = cute_tiler_apply(out, A, T, 0, compose, err);
  return cute_tiler_context(err, st, "composition", A, T);
}

cute_status cute_composition_tiler(cute_layout *out, const cute_layout *A,
                                   const cute_tiler *T, cute_error *err)
{
  /* The tile of a matrix, <t0:u0,...> made of layouts (ntok 0, n in
   * range: well formed by its making), written straight into out. */
  if (T->ntok == 0 && T->n >= 1 && T->n <= CUTE_MAX_TILER &&
      !cute_tile_aliased(out, A, T, T->n) && compose_into(out, A, T))
    return CUTE_OK;
  return composition_rest(out, A, T, err);
}

cute_status cute_tiler_run(cute_layout *out, const cute_layout *A,
                           const cute_tiler *T, int how, const char *name,
                           cute_tile_pass pass, cute_tile_fn op,
                           cute_error *err)
{
  cute_layout R;
  /* <L...L> is well formed by its making (cute_tiler_check's first
   * case), checked here without the call: a divide costs ~30 ns. */
  cute_status st = T->ntok == 0 && T->n >= 0 && T->n <= CUTE_MAX_TILER
                       ? CUTE_OK : cute_tiler_check(T, err);
  if (st == CUTE_OK && pass && pass(out, A, T, how)) return CUTE_OK;
  if (st == CUTE_OK && !(pass && how >= 0 && pass(&R, A, T, -1))) {
    st = cute_tiler_apply(&R, A, T, 1, op, err);
    if (st == CUTE_OK && how < 0) cute_scratch_end(out, &R);
  }
  if (st == CUTE_OK && how >= 0)
    st = cute_tiler_arrange(out, &R, T, how, err);
  return cute_tiler_context(err, st, name, A, T);
}
