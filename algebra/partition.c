/*
 * partition.c -- partitioning by compose-and-slice (paper 3.3.4 and the
 * end of 3.5.2): CuTe's local_tile (inner_partition) and local_partition
 * (outer_partition), with CuTe's Step projections (dice).
 *
 *   local_tile(A, T, c)        zipped_divide(A, T)((_,...,_), c)
 *   local_partition(A, t, i)   zipped_divide(A, product_each(shape(t)))
 *                                (t's coordinate of i, (_,...,_))
 *
 * One `_` per mode of the sliced part keeps each of its modes as a
 * top-level mode of the result (cute_layout_slice), so a (M,K) matrix
 * tiled by (BM,BK) with an open k gives (BM,BK,k), as CuTe's tutorial
 * code expects.
 */
#include "tiling.h"

#include <string.h>

static cute_status mismatch(cute_error *err)
{
  return cute_fail(err, CUTE_ERANK, "the projection (CuTe's Step: 1 keeps "
                   "a mode, X = _ drops it) does not match the ranks it "
                   "projects");
}

/* ------------------------------------------------------------- dicing -- */

/* Pushes onto the open group t the elements of x that proj keeps, a
 * sub-projection splicing in what it keeps of that element. */
static cute_status dice_tuple(cute_tuple *t, const cute_tuple *proj,
                              const cute_tuple *x, cute_error *err)
{
  cute_tuple pi, xi;
  cute_status st;
  int i, n = cute_tuple_rank(proj);
  if (cute_tuple_is_int(proj))
    return proj->v[0] == CUTE_UNDERSCORE ? CUTE_OK
                                         : cute_tuple_push(t, x, err);
  if (cute_tuple_is_int(x) || cute_tuple_rank(x) != n) return mismatch(err);
  for (i = 0; i < n; i++)
    if ((st = cute_tuple_mode(&pi, proj, i, err)) ||
        (st = cute_tuple_mode(&xi, x, i, err)) ||
        (st = dice_tuple(t, &pi, &xi, err)))
      return st;
  return CUTE_OK;
}

/* The same for the modes of a layout, appended to the scratch r. */
static cute_status dice_layout(cute_layout *r, const cute_tuple *proj,
                               const cute_layout *L, cute_error *err)
{
  cute_tuple pi;
  cute_layout m;
  cute_status st;
  int i, n = cute_tuple_rank(proj);
  if (cute_tuple_is_int(proj))
    return proj->v[0] == CUTE_UNDERSCORE ? CUTE_OK
                                         : cute_scratch_whole(r, L, err);
  if (cute_tuple_is_int(&L->shape) || cute_layout_rank(L) != n)
    return mismatch(err);
  for (i = 0; i < n; i++)
    if ((st = cute_tuple_mode(&pi, proj, i, err)) ||
        (st = cute_layout_mode(&m, L, i, err)) ||
        (st = dice_layout(r, &pi, &m, err)))
      return st;
  return CUTE_OK;
}

/* dice(proj, L): the layout of L's modes that proj keeps. */
static cute_status dice_whole(cute_layout *out, const cute_tuple *proj,
                              const cute_layout *L, cute_error *err)
{
  cute_layout r;
  cute_status st;
  if (cute_tuple_is_int(proj)) return mismatch(err);
  cute_scratch_start(&r);
  if ((st = cute_scratch_tok(&r, '(', err)) ||
      (st = dice_layout(&r, proj, L, err)) ||
      (st = cute_scratch_tok(&r, ')', err)))
    return st;
  return cute_scratch_finish(out, &r, err);
}

/* Appends to D the elements of the list of T at *p that proj keeps. */
static cute_status dice_list(cute_tiler *D, const cute_tiler *T, int *p,
                             int *li, const cute_tuple *proj,
                             cute_error *err)
{
  cute_tuple pi;
  cute_status st;
  int i, n = cute_tiler_count(T, *p);
  if (cute_tuple_is_int(proj) || cute_tuple_rank(proj) != n)
    return mismatch(err);
  ++*p;
  for (i = 0; i < n; i++) {
    int q = *p, l0 = *li;
    if ((st = cute_tuple_mode(&pi, proj, i, err))) return st;
    if (!cute_tuple_is_int(&pi)) {
      if (cute_tiler_tok(T, q) != '<') return mismatch(err);
      if ((st = dice_list(D, T, p, li, &pi, err))) return st;
      continue;
    }
    *p = cute_tiler_skip(T, q, li);
    if (pi.v[0] == CUTE_UNDERSCORE) continue;
    for (; q < *p; q++) D->tok[D->ntok++] = cute_tiler_tok(T, q);
    for (; l0 < *li; l0++) D->mode[D->n++] = T->mode[l0];
  }
  ++*p;   /* '>' */
  return CUTE_OK;
}

/* dice(proj, T): a list keeps its projected elements, a layout its
 * projected modes. */
static cute_status dice_tiler(cute_tiler *D, const cute_tiler *T,
                              const cute_tuple *proj, cute_error *err)
{
  int p = 0, li = 0;
  cute_status st;
  D->n = 0;
  D->ntok = 0;
  if (cute_tiler_tok(T, 0) == 'L') {
    D->n = 1;
    D->ntok = 1;
    D->tok[0] = 'L';
    return dice_whole(&D->mode[0], proj, &T->mode[0], err);
  }
  if (cute_tiler_tok(T, 0) != '<') return mismatch(err);
  D->tok[D->ntok++] = '<';
  if ((st = dice_list(D, T, &p, &li, proj, err))) return st;
  D->tok[D->ntok++] = '>';
  return CUTE_OK;
}

/* ------------------------------------------------------------ slicing -- */

/* Pushes `_` for every mode of M (a bare `_` for an integer-shaped M,
 * its only mode): CuTe's repeat<rank(M)>(_). */
static cute_status all_of(cute_tuple *c, const cute_layout *M,
                          cute_error *err)
{
  cute_status st;
  int i, n = cute_layout_rank(M);
  if (cute_tuple_is_int(&M->shape))
    return cute_tuple_int(c, CUTE_UNDERSCORE);
  if ((st = cute_tuple_open(c, err))) return st;
  for (i = 0; i < n; i++)
    if ((st = cute_tuple_leaf(c, CUTE_UNDERSCORE, 0, err))) return st;
  return cute_tuple_close(c, err);
}

/* Pushes x, a tuple padded with `_` to n elements (CuTe's append<N>(x,
 * _)), or an integer as it is. */
static cute_status padded(cute_tuple *c, const cute_tuple *x, int n,
                          cute_error *err)
{
  cute_tuple xi;
  cute_status st;
  int i, k = cute_tuple_rank(x);
  if (cute_tuple_is_int(x)) {
    cute_tuple_copy(c, x);
    return CUTE_OK;
  }
  if ((st = cute_tuple_open(c, err))) return st;
  for (i = 0; i < k; i++)
    if ((st = cute_tuple_mode(&xi, x, i, err)) ||
        (st = cute_tuple_push(c, &xi, err)))
      return st;
  for (; i < n; i++)
    if ((st = cute_tuple_leaf(c, CUTE_UNDERSCORE, 0, err))) return st;
  return cute_tuple_close(c, err);
}

/* Z sliced at (tile part, rest part) -- each part pushed by the caller's
 * choice of all_of / padded. */
static cute_status slice2(cute_layout *out, cute_tuple *offset,
                          const cute_layout *Z, const cute_tuple *first,
                          const cute_tuple *second, cute_error *err)
{
  cute_tuple c;
  cute_status st;
  cute_tuple_clear(&c);
  if ((st = cute_tuple_open(&c, err)) || (st = cute_tuple_push(&c, first, err)) ||
      (st = cute_tuple_push(&c, second, err)) ||
      (st = cute_tuple_close(&c, err)))
    return st;
  return cute_layout_slice(out, offset, Z, &c, err);
}

static cute_status tile_in(cute_layout *out, cute_tuple *offset,
                           const cute_layout *A, const cute_tiler *T,
                           const cute_tuple *coord, cute_error *err)
{
  cute_layout Z, Z0, Z1;
  cute_tuple a, b;
  cute_status st;
  cute_tuple_clear(&a);
  cute_tuple_clear(&b);
  if ((st = cute_zipped_divide(&Z, A, T, err)) ||
      (st = cute_layout_mode(&Z0, &Z, 0, err)) ||
      (st = cute_layout_mode(&Z1, &Z, 1, err)))
    return st;
  if ((st = all_of(&a, &Z0, err)) ||
      (st = padded(&b, coord, cute_layout_rank(&Z1), err)))
    return st;
  return slice2(out, offset, &Z, &a, &b, err);
}

/* --------------------------------------------------------- closed form -- */

/* The coordinate c of the tiles, read where it is a flat tuple of at most
 * n integers >= 0 or `_` (the usual (m, n) or (m, _)); 0 otherwise. */
static int flat_coord(int64_t *x, int *k, const cute_tuple *c, int n)
{
  int i;
  *k = c->nleaf;
  if (*k < 1 || *k > n || c->ntok != *k + 2 || c->tok[0] != '(' ||
      c->tok[*k + 1] != ')')
    return 0;
  for (i = 0; i < *k; i++) {
    x[i] = c->v[i];
    if (c->tok[i + 1] != 'x' || c->e[i] != 0 ||
        (x[i] < 0 && x[i] != CUTE_UNDERSCORE))
      return 0;
  }
  return 1;
}

/* The offset of rest q at the integer coordinate x (colexicographic,
 * the last leaf unbounded); 0 on overflow. */
static int rest_at(int64_t *off, const cute_split *q, int64_t x)
{
  int64_t y = q->nr == 2 ? x % q->rs[0] : x, t;
  if (cute_mul(y, q->rd[0], &t) || cute_add(*off, t, off)) return 0;
  return q->nr == 1 || (!cute_mul(x / q->rs[0], q->rd[1], &t) &&
                        !cute_add(*off, t, off));
}

/* The tiles, the rests the coordinate keeps (`_`, or past its end) and
 * A's modes past the tiler, into o; the offset of the others in *off.
 * 0 on overflow or past a limit.  Reads c and x only: A's rest is moved
 * by the caller. */
static int tile_head(cute_layout *o, int64_t *off, const cute_closed *c,
                     const int64_t *x, int k, int *ntok, int *nleaf)
{
  int i, j, nt = 0, nl = 0;
  for (i = 0; i < c->n; i++)
    if (i < k && x[i] != CUTE_UNDERSCORE && !rest_at(off, &c->q[i], x[i]))
      return 0;
  for (i = 0, *ntok = 2 + c->n + c->ntok, *nleaf = c->n + c->nleaf;
       i < c->n; i++)
    if (i >= k || x[i] == CUTE_UNDERSCORE) {
      *ntok += c->q[i].nr == 2 ? 4 : 1;
      *nleaf += c->q[i].nr;
    }
  if (*ntok > CUTE_MAX_TOKENS || *nleaf > CUTE_MAX_LEAVES) return 0;
  nt = cute_put_tok(o, nt, '(');
  for (i = 0; i < c->n; i++) {
    nt = cute_put_tok(o, nt, 'x');
    cute_put_leaf(o, nl++, c->q[i].t, c->q[i].tile);
  }
  for (i = 0; i < c->n; i++) {
    const cute_split *q = &c->q[i];
    if (i < k && x[i] != CUTE_UNDERSCORE) continue;
    if (q->nr == 2) nt = cute_put_tok(o, nt, '(');
    for (j = 0; j < q->nr; j++) {
      nt = cute_put_tok(o, nt, 'x');
      cute_put_leaf(o, nl++, q->rs[j], q->rd[j]);
    }
    if (q->nr == 2) nt = cute_put_tok(o, nt, ')');
  }
  return 1;
}

/* local_tile by a flat list of one-leaf layouts over A's leaf modes at a
 * flat coordinate: zipped_divide's closed form (divide.c) sliced at once
 *   ((t0,t1,..),(r0,r1,..,A's rest)) at ((_,..), (x0,x1,..)) =
 *   (t0,t1,.., r_i where x_i is _, A's rest),  offset sum r_i(x_i)
 * as tile_in makes it; 0 where that does not apply (then tile_in). */
static int tile_closed(cute_layout *out, cute_tuple *offset,
                       const cute_layout *A, const cute_tiler *T,
                       const cute_tuple *coord)
{
  cute_closed c;
  cute_layout head;
  int64_t x[CUTE_MAX_LEAVES], off = 0;
  int k, ntok, nleaf, i;
  if (!cute_divide_gather(&c, A, T) || !c.list ||
      !flat_coord(x, &k, coord, c.n))
    return 0;
  /* The slice's offset is a tuple when a stride is a basis (its general
   * path refuses mixing them with integers): integral A only. */
  for (i = 0; i < c.nleaf; i++)
    if (A->stride.e[c.leaf0 + i] != 0) return 0;
  if (!tile_head(&head, &off, &c, x, k, &ntok, &nleaf)) return 0;
  /* A's rest first (out may be A), then the head built aside. */
  cute_closed_tail(out, A, &c, ntok - 1 - c.ntok, nleaf - c.nleaf);
  for (i = 0; i < ntok - 1 - c.ntok; i++)
    out->shape.tok[i] = out->stride.tok[i] = head.shape.tok[i];
  for (i = 0; i < nleaf - c.nleaf; i++)
    cute_put_leaf(out, i, head.shape.v[i], head.stride.v[i]);
  cute_put_tok(out, ntok - 1, ')');
  out->shape.ntok = out->stride.ntok = (uint8_t)ntok;
  out->shape.nleaf = out->stride.nleaf = (uint8_t)nleaf;
  cute_tuple_int(offset, off);
  return 1;
}

/* local_tile, through its closed form when `fast` and it applies. */
static cute_status local_tile(cute_layout *out, cute_tuple *offset,
                              const cute_layout *A, const cute_tiler *T,
                              const cute_tuple *coord,
                              const cute_tuple *proj, int fast,
                              cute_error *err)
{
  cute_tiler D;
  cute_tuple c;
  cute_status st;
  if ((st = cute_tiler_check(T, err)))
    return cute_tiler_context(err, st, "local_tile", A, T);
  if (!proj) {
    if (fast && tile_closed(out, offset, A, T, coord)) return CUTE_OK;
    st = tile_in(out, offset, A, T, coord, err);
    return cute_tiler_context(err, st, "local_tile", A, T);
  }
  cute_tuple_clear(&c);
  if (cute_tuple_is_int(coord))
    st = cute_fail(err, CUTE_ERANK, "a projection needs a tuple coordinate");
  else if (!(st = dice_tiler(&D, T, proj, err)) &&
           !(st = cute_tuple_open(&c, err)) &&
           !(st = dice_tuple(&c, proj, coord, err)) &&
           !(st = cute_tuple_close(&c, err)))
    st = tile_in(out, offset, A, &D, &c, err);
  return cute_tiler_context(err, st, "local_tile", A, T);
}

cute_status cute_local_tile(cute_layout *out, cute_tuple *offset,
                            const cute_layout *A, const cute_tiler *T,
                            const cute_tuple *coord, const cute_tuple *proj,
                            cute_error *err)
{
  return local_tile(out, offset, A, T, coord, proj, 1, err);
}

cute_status cute_local_tile_general(cute_layout *out, cute_tuple *offset,
                                    const cute_layout *A,
                                    const cute_tiler *T,
                                    const cute_tuple *coord,
                                    cute_error *err)
{
  return local_tile(out, offset, A, T, coord, NULL, 0, err);
}

/* ---------------------------------------------------------- partition -- */

/* The per-mode coordinate of `index` in the thread layout t (the manual:
 * cute.h).  Each sum is < size(t): no overflow. */
static cute_status thread_coord(cute_tuple *c, const cute_layout *t,
                                int64_t index, cute_error *err)
{
  cute_span sp;
  cute_status st;
  int i, k, n = cute_layout_rank(t);
  if (cute_layout_has_basis(t))
    return cute_fail(err, CUTE_ECODOMAIN, "thread layout strides must be "
                     "integers");
  if (!cute_tuple_is_int(&t->shape) && (st = cute_tuple_open(c, err)))
    return st;
  for (i = 0; i < n; i++) {
    int64_t x = 0, m = 1;
    cute_tuple_span(&t->shape, i, &sp);
    for (k = sp.leaf0; k < sp.leaf1; k++) {
      int64_t s = t->shape.v[k], d = t->stride.v[k];
      int64_t q = d == 0 ? 0 : cute_floormod(cute_floordiv(index, d), s);
      x += q * m;
      m *= s;
    }
    if (cute_tuple_is_int(&t->shape)) return cute_tuple_int(c, x);
    if ((st = cute_tuple_leaf(c, x, 0, err))) return st;
  }
  return cute_tuple_close(c, err);
}

cute_status cute_layout_flat_coord(cute_tuple *c, const cute_layout *t,
                                   int64_t index, cute_error *err)
{
  cute_status st;
  cute_tuple_clear(c);
  st = thread_coord(c, t, index, err);
  if (st) cute_error_context(err, "flat_coord", t, NULL);
  return st;
}

/* <size(t0):1, size(t1):1, ...> (product_each), or size(t):1 whole. */
static cute_status shape_tiler(cute_tiler *T, const cute_layout *t,
                               cute_error *err)
{
  cute_tuple one, s;
  cute_span sp;
  cute_status st;
  int i, n = cute_layout_rank(t), whole = cute_tuple_is_int(&t->shape);
  T->n = 0;
  T->ntok = 0;
  cute_tuple_int(&one, 1);
  if (!whole) T->tok[T->ntok++] = '<';
  for (i = 0; i < n; i++) {
    int64_t size = 1;
    int k;
    cute_tuple_span(&t->shape, i, &sp);
    for (k = sp.leaf0; k < sp.leaf1; k++) size *= t->shape.v[k];
    cute_tuple_int(&s, size);   /* size(t) was checked: no overflow */
    if ((st = cute_layout_make(&T->mode[T->n++], &s, &one, err))) return st;
    T->tok[T->ntok++] = 'L';
  }
  if (!whole) T->tok[T->ntok++] = '>';
  return CUTE_OK;
}

/* local_partition in closed form where t is a flat group of integral
 * leaves and T = <size(t0):1,...> divides A's first modes in closed form
 * (cute_divide_gather): the tiles sliced at t's coordinate of index, the
 * rests kept,
 *   ((t0,t1,..),(r0,r1,..,A's rest)) at ((x0,x1,..), (_,..)) =
 *   (r0,r1,..,A's rest),  offset sum x_i * stride(t_i)
 * as the general path below makes it; 0 where that does not apply. */
static int partition_closed(cute_layout *out, cute_tuple *offset,
                            const cute_layout *A, const cute_layout *t,
                            const cute_tiler *T, int64_t index)
{
  cute_closed c;
  int64_t off = 0, x, p;
  int i, j, nt = 0, nl = 0, n = t->shape.nleaf;
  if (t->shape.ntok != n + 2 || t->shape.tok[0] != '(' ||
      !cute_divide_gather(&c, A, T) || !c.list || c.n != n ||
      2 + 4 * n + c.ntok > CUTE_MAX_TOKENS) /* a rest: 4 tokens at most */
    return 0;
  for (i = 0; i < c.nleaf; i++)
    if (A->stride.e[c.leaf0 + i] != 0) return 0; /* see tile_closed */
  for (i = 0; i < n; i++) {
    int64_t s = t->shape.v[i], d = t->stride.v[i];
    x = d == 0 ? 0 : cute_floormod(cute_floordiv(index, d), s);
    if (t->stride.e[i] != 0 || cute_mul(x, c.q[i].tile, &p) ||
        cute_add(off, p, &off))
      return 0;
  }
  for (i = 0, nt = 1; i < n; i++) {
    nt += c.q[i].nr == 2 ? 4 : 1;
    nl += c.q[i].nr;
  }
  if (nl + c.nleaf > CUTE_MAX_LEAVES) return 0;
  cute_closed_tail(out, A, &c, nt, nl); /* first: out may be A */
  out->shape.ntok = out->stride.ntok = (uint8_t)(nt + c.ntok + 1);
  out->shape.nleaf = out->stride.nleaf = (uint8_t)(nl + c.nleaf);
  cute_put_tok(out, nt + c.ntok, ')');
  for (i = 0, nt = cute_put_tok(out, 0, '('), nl = 0; i < n; i++) {
    const cute_split *q = &c.q[i];
    if (q->nr == 2) nt = cute_put_tok(out, nt, '(');
    for (j = 0; j < q->nr; j++) {
      nt = cute_put_tok(out, nt, 'x');
      cute_put_leaf(out, nl++, q->rs[j], q->rd[j]);
    }
    if (q->nr == 2) nt = cute_put_tok(out, nt, ')');
  }
  cute_tuple_int(offset, off);
  return 1;
}

static cute_status partition(cute_layout *out, cute_tuple *offset,
                             const cute_layout *A, const cute_layout *t,
                             int64_t index, int fast, cute_error *err)
{
  cute_tiler T;
  cute_layout Z, Z0, Z1;
  cute_tuple a, b, tc;
  int64_t n;
  cute_status st;
  cute_tuple_clear(&a);
  cute_tuple_clear(&b);
  cute_tuple_clear(&tc);
  if ((st = cute_layout_size(t, &n, err)) ||
      (st = shape_tiler(&T, t, err)))
    return st;
  if (fast && partition_closed(out, offset, A, t, &T, index)) return CUTE_OK;
  if ((st = cute_zipped_divide(&Z, A, &T, err)) ||
      (st = cute_layout_mode(&Z0, &Z, 0, err)) ||
      (st = cute_layout_mode(&Z1, &Z, 1, err)) ||
      (st = thread_coord(&tc, t, index, err)) ||
      (st = padded(&a, &tc, cute_layout_rank(&Z0), err)) ||
      (st = all_of(&b, &Z1, err)))
    return st;
  return slice2(out, offset, &Z, &a, &b, err);
}

/* local_partition, through its closed form when `fast` and it applies. */
static cute_status local_partition(cute_layout *out, cute_tuple *offset,
                                   const cute_layout *A,
                                   const cute_layout *thr, int64_t index,
                                   const cute_tuple *proj, int fast,
                                   cute_error *err)
{
  cute_layout t;
  cute_status st;
  if (proj) {
    st = dice_whole(&t, proj, thr, err);
  } else {
    cute_tuple_copy(&t.shape, &thr->shape);
    cute_tuple_copy(&t.stride, &thr->stride);
    st = CUTE_OK;
  }
  if (st == CUTE_OK) st = partition(out, offset, A, &t, index, fast, err);
  if (st) cute_error_context(err, "local_partition", A, thr);
  return st;
}

cute_status cute_local_partition(cute_layout *out, cute_tuple *offset,
                                 const cute_layout *A, const cute_layout *thr,
                                 int64_t index, const cute_tuple *proj,
                                 cute_error *err)
{
  return local_partition(out, offset, A, thr, index, proj, 1, err);
}

cute_status cute_local_partition_general(cute_layout *out, cute_tuple *offset,
                                         const cute_layout *A,
                                         const cute_layout *thr,
                                         int64_t index, cute_error *err)
{
  return local_partition(out, offset, A, thr, index, NULL, 0, err);
}
