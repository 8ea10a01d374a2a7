/*
 * tiling.h -- walking a cute_tiler and applying an operation by it: the
 * machinery shared by composition by tilers, the divides, the products and
 * partitioning (tiler.c, divide.c, product.c, partition.c).  Private to
 * algebra/.
 *
 * A tiler element starts at a token position p: 'L' (the next layout of
 * mode[], counted from the start), '_' or a list '<' ... '>'.  A tiler
 * with ntok == 0 reads as the tokens '<' 'L'...'L' '>'.
 */
#ifndef CUTE_TILING_H
#define CUTE_TILING_H

#include "scratch.h"

#include <string.h>

/* Token p of T (virtual tokens for ntok == 0); '\0' past the end. */
char cute_tiler_tok(const cute_tiler *T, int p);
int cute_tiler_len(const cute_tiler *T);
/* The position after the element at p; *nl += the layouts it holds. */
int cute_tiler_skip(const cute_tiler *T, int p, int *nl);
/* Elements of the list at p ('<'). */
int cute_tiler_count(const cute_tiler *T, int p);

/* The per-layout operation a tiler applies: op(out, A_i, B_i). */
typedef cute_status (*cute_tile_fn)(cute_layout *out, const cute_layout *A,
                                    const cute_layout *B, cute_error *err);

/* op by T over A: a layout B -> op(A, B); `_` -> A; a list -> (op by T0
 * over A0, op by T1 over A1, ...), A's modes past the list kept when
 * keep_rest.  Errors carry the failing step's own message (the caller
 * adds its call with cute_tiler_context). */
cute_status cute_tiler_apply(cute_layout *out, const cute_layout *A,
                             const cute_tiler *T, int keep_rest,
                             cute_tile_fn op, cute_error *err);

/* The arrangements of D = op by T over some layout (tile_unzip): */
enum { CUTE_ZIPPED, CUTE_TILED, CUTE_FLAT };
cute_status cute_tiler_arrange(cute_layout *out, const cute_layout *D,
                               const cute_tiler *T, int how,
                               cute_error *err);

/* A one-pass form of a by-mode operation, arranged by how (-1: as it
 * is): 1 when it wrote the result to out, 0 when the general path must
 * run (see cute_tiler_target). */
typedef int (*cute_tile_pass)(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T, int how);

/* The divides and products: op by T over A (keep_rest) -- through `pass`
 * where it can, when not NULL: arranged by it, else as it is and then
 * arranged -- then its arrangement `how` (-1: none); errors in the
 * context of the call `name`. */
cute_status cute_tiler_run(cute_layout *out, const cute_layout *A,
                           const cute_tiler *T, int how, const char *name,
                           cute_tile_pass pass, cute_tile_fn op,
                           cute_error *err);

/* st, with err prefixed by "op(A, T): " (T printed as a tiler). */
cute_status cute_tiler_context(cute_error *err, cute_status st,
                               const char *op, const cute_layout *A,
                               const cute_tiler *T);

/* Where a one-pass by-mode operation builds its result: in out itself,
 * unless out is A or one of T's layouts (read while the result is
 * written), else in tmp -- copying a result just written stalls on store
 * forwarding.  So on an error out may be left half-made.  The result is
 * started (cute_scratch_start) and completed by cute_tiler_done. */
cute_layout *cute_tiler_target(cute_layout *out, cute_layout *tmp,
                               const cute_layout *A, const cute_tiler *T);
void cute_tiler_done(cute_layout *out, cute_layout *r);
/* The same when every token of r was written to its stride's tokens too
 * (the scratch helpers do): nothing to copy when r is out. */
void cute_tiler_end_both(cute_layout *out, cute_layout *r);

/* Is out A or one of T's first n layouts, which a result written in
 * place would overwrite while they are read?  (A range test: the
 * layouts of T are one array; n may be T->n or fewer.) */
static inline int cute_tile_aliased(const cute_layout *out,
                                    const cute_layout *A, const cute_tiler *T,
                                    int n)
{
  uintptr_t o = (uintptr_t)out, m = (uintptr_t)T->mode;
  return out == A || o - m < (uintptr_t)n * sizeof T->mode[0];
}

/* Is B one integral leaf, well formed?  (Inline: the closed forms ask
 * it of every tiler layout.)  A tuple's first three bytes are ntok,
 * nleaf and tok[0]: one compare of each, where the eight tests of the
 * fields took a tenth of a small divide.  It is leaves.h's
 * cute_flat_is(t, 1) with its bytes as constants: through that table the
 * divide and the tiler's composition take 6 and 14 more instructions. */
static inline int cute_tiler_leaf(const cute_layout *B)
{
  static const char one_leaf[3] = {1, 1, 'x'};
  return memcmp(&B->shape, one_leaf, 3) == 0 &&
         memcmp(&B->stride, one_leaf, 3) == 0 &&
         (B->shape.e[0] | B->stride.e[0]) == 0;
}
/* One token of a result written in place, into its shape's and stride's
 * tokens at once (a copy read back right after byte stores stalls on
 * store forwarding); the next position, passed by value: through a
 * pointer each store reloads it. */
static inline int cute_put_tok(cute_layout *o, int nt, char ch)
{
  o->shape.tok[nt] = ch;
  o->stride.tok[nt] = ch;
  return nt + 1;
}

/* Leaf nl of a result written in place: s:d, integral. */
static inline void cute_put_leaf(cute_layout *o, int nl, int64_t s,
                                 int64_t d)
{
  o->shape.v[nl] = s;
  o->shape.e[nl] = 0;
  o->stride.v[nl] = d;
  o->stride.e[nl] = 0;
}

/* Does a layout of a tiler pass cute_tuple_check (shape and stride)? */
int cute_tiler_layout_ok(const cute_layout *B);
/* Could the scratch r be deeper than CUTE_MAX_DEPTH?  0 when its token
 * count rules that out (a depth d takes 2d+1 tokens), saving the walk. */
int cute_tiler_deep(const cute_layout *r);

/* Is T a flat list of layouts (every element 'L', at depth 1)? */
int cute_tiler_is_flat(const cute_tiler *T);

/* composition.c's one-pass by-mode composition of a flat list of layouts
 * (every element 'L'), modes of A past it dropped. */
cute_status cute_composition_flat(cute_layout *out, const cute_layout *A,
                                  const cute_tiler *T, cute_error *err);

/* Appends (A restricted to its element a) o B to the scratch r as one
 * element of an open group (one token reserved for its ')'): the step of
 * the one-pass by-mode operations, which never copy a mode out of A.
 * CUTE_OK; or the composition's status (why = ""; no message: the caller
 * reports, by composing again with an error); or CUTE_ELIMIT with the
 * reason in why when the result does not fit in r (tokens, leaves, depth
 * one below CUTE_MAX_DEPTH). */
cute_status cute_composition_append(cute_layout *r, const cute_layout *A,
                                    const cute_span *a, const cute_layout *B,
                                    char *why, size_t cap);

/* A mode of A that is one integral leaf s:d, divided by a tiler layout
 * that is one integral leaf t:u (the tile of a matrix: the common case),
 * in closed form (divide.c): the tile t:tile and the rest, rs:rd of nr
 * leaves (a group when 2). */
typedef struct cute_split {
  int64_t t, tile;
  int nr;
  int64_t rs[2], rd[2];
} cute_split;

/* The divide by T of A's first n modes in closed form, and where A's
 * modes past them lie: tokens [tok0, tok0+ntok) of its shape (depth
 * their deepest nesting), leaves [leaf0, leaf0+nleaf). */
typedef struct cute_closed {
  int n, list, tok0, ntok, leaf0, nleaf, depth;
  cute_split q[CUTE_MAX_LEAVES];
} cute_closed;

/* Fills c when T is one layout over a one-leaf A (list 0), or a flat list
 * of n layouts over A's first n modes (list 1), each mode and layout one
 * integral leaf in closed form; 0 otherwise.  Reads A and T only. */
int cute_divide_gather(cute_closed *c, const cute_layout *A,
                       const cute_tiler *T);

/* A's modes past the divided ones (c), moved to tokens from nt and leaves
 * from nl of o, where they end a closed form's result.  First: o may be
 * A, and the result's head is longer than A's, so they only move right. */
void cute_closed_tail(cute_layout *o, const cute_layout *A,
                      const cute_closed *c, int nt, int nl);

/* The divides and products arranged by how (-1: the logical ones) without
 * their fast forms (divide.c, product.c): the same results and messages,
 * which spec/c/test_fast_paths.c checks on random inputs. */
cute_status cute_divide_general(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, int how,
                                cute_error *err);
cute_status cute_product_general(cute_layout *out, const cute_layout *A,
                                 const cute_tiler *T, int how,
                                 cute_error *err);
/* local_tile and local_partition without a projection and without
 * their closed forms
 * (partition.c): the same results and messages (test_fast_paths.c). */
cute_status cute_local_tile_general(cute_layout *out, cute_tuple *offset,
                                    const cute_layout *A,
                                    const cute_tiler *T,
                                    const cute_tuple *coord,
                                    cute_error *err);
cute_status cute_local_partition_general(cute_layout *out, cute_tuple *offset,
                                         const cute_layout *A,
                                         const cute_layout *thr,
                                         int64_t index, cute_error *err);

#endif
