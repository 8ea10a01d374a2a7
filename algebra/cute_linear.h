/*
 * cute_linear.h -- linear layouts over F2 (Triton's LinearLayout) and the
 * way between them and CuTe layouts: swizzled layouts, binary (F<d>)
 * strides.  Part of the algebra's manual, included by cute.h (a host
 * includes cute.h alone); the conventions of cute.h hold here (no heap,
 * checked statuses, messages that name the operation).
 */
#ifndef CUTE_LINEAR_H
#define CUTE_LINEAR_H

#include "cute.h"

#ifdef __cplusplus
extern "C" {
#endif

/* -------------------------------------------------------- linear layouts -- */
/* A linear layout (Triton's LinearLayout): a map over F2 from named input
 * dimensions to named output dimensions, every extent a power of two.  Bit
 * k of an input is sent to its basis, a vector of output values, and the
 * image of any input is the XOR of the bases of its set bits:
 *     register=1 -> (0, 1)    register=2 -> (0, 2)    lane=1 -> (1, 0)
 *     L(register=3, lane=1) = (0,1) ^ (0,2) ^ (1,0) = (1, 3)
 * Storage: the input bits of all input dims in order (dim 0's bit 0
 * first) index basis[]; a basis packs its output values with output dim 0
 * in the lowest bits (so a packed value is the colexicographic index of
 * the output coordinate: for a tile (M,N) it is CuTe's tile index).  A
 * packed input is the same with the input dims. */
#define CUTE_LINEAR_MAX_DIMS  6  /* input dims, output dims (each)          */
#define CUTE_LINEAR_MAX_BITS 32  /* input bits in all; output bits in all   */
#define CUTE_LINEAR_NAME     16  /* a dim's name, NUL included              */
#define CUTE_LINEAR_LANE_BITS 5  /* a TV layout's thread: 32 lanes a warp   */

typedef struct cute_linear_dim {
  char name[CUTE_LINEAR_NAME];
  int bits;                      /* log2 of the extent */
} cute_linear_dim;

typedef struct cute_linear {
  int nin, nout;
  cute_linear_dim in[CUTE_LINEAR_MAX_DIMS], out[CUTE_LINEAR_MAX_DIMS];
  uint64_t basis[CUTE_LINEAR_MAX_BITS];
} cute_linear;

/* Well formed: names [A-Za-z_][A-Za-z0-9_]* unique per side, bit totals
 * within CUTE_LINEAR_MAX_BITS, every basis inside the output extents. */
cute_status cute_linear_check(const cute_linear *A, cute_error *err);
int cute_linear_in_bits(const cute_linear *A);
int cute_linear_out_bits(const cute_linear *A);
/* The image of a packed input: XOR of the bases of its set bits. */
uint64_t cute_linear_apply(const cute_linear *A, uint64_t x);
/* in[i] for input dim i (0 <= in[i] < its extent) -> out[j] per output dim. */
cute_status cute_linear_eval(const cute_linear *A, const int64_t *in,
                             int64_t *out, cute_error *err);
/* Rank of the map over F2 (Gaussian elimination on the bases). */
int cute_linear_rank(const cute_linear *A);
/* free[i]: the bits of input dim i whose basis is zero -- flipping one never
 * changes the image (a broadcast copy).
 * @post A(x) == A(x ^ bit) for all x iff bit is in free[dim of bit]. */
void cute_linear_free_masks(const cute_linear *A, uint64_t *free);
/* out = outer o inner: inner's output dims are found in outer's input dims
 * by name, each no larger there.  @post out(x) = outer(inner(x)). */
cute_status cute_linear_compose(cute_linear *out, const cute_linear *outer,
                                const cute_linear *inner, cute_error *err);
/* The inverse of a bijective A (square and of full rank), dims swapped.
 * @post out(A(x)) = x and A(out(y)) = y. */
cute_status cute_linear_invert(cute_linear *out, const cute_linear *A,
                               cute_error *err);
/* C with B(C(x)) = A(x) (Triton's A.invertAndCompose(B)): for layouts of
 * one tensor over two hardware maps, where B holds what A holds -- the move
 * a layout conversion makes.  A's output dims are found in B's by name;
 * every basis of A must lie in B's image (else CUTE_EINVAL naming it); of
 * B's preimages, the one without B's dependent input bits is taken.
 * @post B(out(x)) = A(x) for every x. */
cute_status cute_linear_invert_and_compose(cute_linear *out,
                                           const cute_linear *A,
                                           const cute_linear *B,
                                           cute_error *err);

/* What converting a tensor from the TV layout src to dst (both register,
 * lane, warp -> the same output dims, lanes and warps alike) must do:
 *   CUTE_MOVE_REGISTERS  every thread already holds what it needs;
 *   CUTE_MOVE_SHUFFLE    data moves between lanes, never between warps
 *                        (warp shuffles);
 *   CUTE_MOVE_SHARED     data crosses warps: a shared-memory round trip.
 * A copy held by several threads (src's broadcast) counts wherever it
 * is.  *map (optional) gets invert_and_compose(dst, src): for each dst
 * location, one src location holding its element.  dst must hold only
 * what src holds (invert_and_compose's condition), else CUTE_EINVAL. */
typedef enum cute_linear_move {
  CUTE_MOVE_REGISTERS, CUTE_MOVE_SHUFFLE, CUTE_MOVE_SHARED
} cute_linear_move;
cute_status cute_linear_conversion(cute_linear_move *kind, cute_linear *map,
                                   const cute_linear *src,
                                   const cute_linear *dst, cute_error *err);

/* to_linear: the linear form of Sw o off o L (a plain layout: sw = Sw<0,..>,
 * off = 0).  Every shape leaf must be a power of two, every stride >= 0,
 * the offset 0, and the bits that the modes' bit-steps 2^j*d set pairwise
 * disjoint (then L's sums never carry and equal XORs); each failure is
 * CUTE_EINVAL naming the leaf.  Input dims: the top-level modes dim0,
 * dim1, ...; with `tv` a TV layout (thread, value): register (the value
 * bits), lane (the low CUTE_LINEAR_LANE_BITS thread bits), warp (the rest).
 * Output dims: with ntile > 0 the modes dim0.. of the tile (powers of two,
 * whose colexicographic index L returns); else for an integer codomain
 * one dim `offset`, for scaled-basis strides a@i one dim dim<i> each.
 * @post out(c) = C(c) for every index c of C (packed as colex index). */
cute_status cute_linear_from_composed(cute_linear *out, const cute_composed *C,
                                      const int64_t *tile, int ntile, int tv,
                                      cute_error *err);
/* from_linear: a CuTe layout evaluating like A: one mode per input dim
 * (the dims register, lane, warp give CuTe's TV form ((lane,warp),
 * register)), each bit-step of basis g a leaf 2:g, steps merged where they
 * continue (2:g then 2:2g is 4:g); values are packed output indices.  The
 * sum equals the XOR when the bases share no bit; otherwise the first
 * swizzle Sw<B,M,S> (B ascending) whose image makes them disjoint is
 * factored out: *swizzled = 1 and A = Sw o out.  No such swizzle:
 * CUTE_EINVAL naming the basis that collides.
 * @post out->sw(out->layout(i)) = A(i) for every packed input i. */
cute_status cute_linear_to_composed(cute_composed *out, int *swizzled,
                                    const cute_linear *A, cute_error *err);
/* from_linear with binary strides (CUTE_BASIS_F2): the same modes, each
 * basis g a leaf 2:F<g>, which XOR as a linear layout does -- so every
 * linear layout has this form, with no swizzle and no condition.
 * @post out(i) = A(i) for every packed input i. */
cute_status cute_linear_to_binary(cute_layout *out, const cute_linear *A,
                                  cute_error *err);

/* Text: Triton's LinearLayout::toString form, one basis a line,
 *    - register=1 -> (0, 1)
 *      register=2 -> (0, 2)
 *    - warp is a size 1 dimension
 *   where out dims are: [dim0 (size 16), dim1 (size 8)]
 * and, for parsing, also the attribute form of Triton's IR dumps,
 *   #ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0]], warp = []}>
 * whose output dims, unnamed there, are dim0, dim1, ... of the least
 * power-of-two extent holding the bases.  print_compact writes that form. */
size_t cute_linear_print(const cute_linear *A, char *buf, size_t cap);
size_t cute_linear_print_compact(const cute_linear *A, char *buf, size_t cap);
cute_status cute_linear_parse(cute_linear *A, const char *text,
                              cute_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CUTE_LINEAR_H */
