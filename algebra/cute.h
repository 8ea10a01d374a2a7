/*
 * cute.h -- CuTe's layout representation and algebra as a C99 library.
 *
 * The specification is the CuTe paper (C. Cecka, "CuTe Layout Representation
 * and Algebra"), sections 2 and 3.  Reference behaviour and text forms follow
 * NVIDIA CuTe (cutlass include/cute); where the two differ the paper wins and
 * the choice is recorded in a test (spec/c/).
 *
 * Design rules of this library:
 *   - no heap allocation, no global state: every object is a fixed-capacity
 *     value type that lives wherever the caller puts it (stack, userdata);
 *   - every fallible function returns a cute_status and, if `err` is not
 *     NULL, fills it with a message naming the operation, the operands (as
 *     CuTe text) and the violated condition;
 *   - all arithmetic is checked 64-bit: overflow is an error, never UB;
 *   - modes and coordinates are 0-based, as in the paper and CuTe.
 *
 * Representation.  An HTuple (shape, stride, coordinate, value) is stored
 * flat: its leaves in order in `v[]` and its nesting as a token string
 * `tok[]` of '(' ')' and 'x' (one 'x' per leaf, commas implied).  So
 *     ((2,2),(4,2))   is  tok "((xx)(xx))", v {2,2,4,2}
 *     8               is  tok "x",          v {8}
 *     (8)             is  tok "(x)",        v {8}
 *     ()              is  tok "()"
 * A leaf may be a scaled basis element a@i (= a * e_i, the paper's
 * integer-semimodule strides): `e[]` holds its basis path, 0 for a plain
 * integer.  A layout is a pair of congruent tuples.
 */
#ifndef CUTE_H
#define CUTE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- limits -- */
/* Exceeding any of these is a CUTE_ELIMIT error, never undefined behaviour. */
#define CUTE_MAX_LEAVES      32  /* leaves of one tuple / layout            */
#define CUTE_MAX_TOKENS      96  /* tokens of one tuple: leaves + 2*groups  */
#define CUTE_MAX_DEPTH        8  /* nesting depth of a tuple                */
#define CUTE_MAX_BASIS_DEPTH  3  /* length of a basis path (1@1@0 has 2)    */
#define CUTE_MAX_BASIS_INDEX 254 /* largest mode index in a basis path      */
#define CUTE_MAX_TILER       32  /* layouts of one tiler (<...>, nested)    */
#define CUTE_MAX_TEXT      4096  /* longest text accepted by the parsers    */
#define CUTE_ERRMSG_SIZE    512

/* Elements a brute-force walk over a layout's domain visits.  The one walk
 * of this library is cute_composed_cosize's: exact up to CUTE_MAX_WALK
 * elements, an upper bound beyond (still a valid size to allocate, so not
 * an error).  ~0.1 s at the limit. */
#define CUTE_MAX_WALK (1 << 24)

/* Work per call.  No function here does work that grows with a layout's
 * size or cosize, so none runs unbounded:
 *   - every operation loops over leaves, tokens or modes (bounded by
 *     CUTE_MAX_LEAVES, CUTE_MAX_TOKENS, CUTE_MAX_TILER) and over the 64 bits
 *     of a value at most (a right inverse's chain grows strictly);
 *   - the parsers read at most CUTE_MAX_TEXT characters, without recursion;
 *     nesting is CUTE_MAX_DEPTH deep at most, basis paths
 *     CUTE_MAX_BASIS_DEPTH;
 *   - printers write into the caller's buffer (snprintf-like);
 *   - the one walk over a domain, cute_composed_cosize, stops at
 *     CUTE_MAX_WALK elements (above).
 * The layers above keep their own limits: cute_cuda.h's CUTE_CUDA_MAX_*
 * (host-side loops over device buffers) and the Lua table `cute.limits`
 * (stdlib/cute/limits.lua: pictures, brute-force checks in Lua), which
 * also lists these constants. */

/* The slice marker `_` is stored as this leaf value in coordinates. */
#define CUTE_UNDERSCORE INT64_MIN

/* ---------------------------------------------------------------- errors -- */
typedef enum cute_status {
  CUTE_OK = 0,
  CUTE_EINVAL,        /* malformed argument (non-positive shape, bad mode...) */
  CUTE_ESYNTAX,       /* text does not parse; column and expectation given    */
  CUTE_EOVERFLOW,     /* a 64-bit checked operation overflowed                */
  CUTE_ELIMIT,        /* one of the documented limits above is exceeded       */
  CUTE_ERANK,         /* rank / profile / congruence mismatch                 */
  CUTE_EDIVISIBILITY, /* stride or shape divisibility condition (paper 3.3.2) */
  CUTE_ENONINJECTIVE, /* complement/inverse of a non-injective layout         */
  CUTE_ECODOMAIN      /* integer vs coordinate codomain mismatch              */
} cute_status;

typedef struct cute_error {
  cute_status code;
  int column;                  /* 1-based column for CUTE_ESYNTAX, else 0 */
  char msg[CUTE_ERRMSG_SIZE];  /* "composition((4,6,8):(2,3,5), 6:3): ..." */
} cute_error;

const char *cute_status_name(cute_status s);

/* Fill `err` (if not NULL) with code, column 0 and a printf-formatted
 * message; returns code, so a caller that builds operands for the algebra
 * (the Lua bindings' tuple reader) reports in the same form:
 *     return cute_fail(err, CUTE_EINVAL, "tuple: %s is not ...", what); */
cute_status cute_fail(cute_error *err, cute_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---------------------------------------------------------------- tuples -- */
/* Basis path of a scaled-basis leaf, packed: byte 0 = length (0..3), byte k
 * (k = 1..3) = index at nesting level k-1, outermost first.  So e_1 is
 * CUTE_BASIS1(1) and the nested E<0,1> (mode 0, sub-mode 1) has path (0,1)
 * and prints as 1@1@0 (innermost index first, as CuTe prints it). */
typedef uint32_t cute_basis;
#define CUTE_BASIS_LEN(b)     ((int)((b) & 0x7fu))
#define CUTE_BASIS_AT(b, k)   ((int)(((b) >> (8 * ((k) + 1))) & 0xffu))
#define CUTE_BASIS1(i)        ((cute_basis)(1u | ((uint32_t)(i) << 8)))
/* Bit 0x80 of byte 0 marks a binary (F2) stride, the paper's f_d (2.4.4,
 * Table 1), printed F<d> as the reference pycute prints its F2 scalars:
 * its leaves combine by XOR, and a coordinate c contributes the carry-less
 * product c*d (the XOR of d<<j over the set bits j of c), so
 * (4,4):(F1,F5) = ((2,2),(2,2)):((F1,F2),(F5,F10)).  Its path is empty. */
#define CUTE_BASIS_F2         ((cute_basis)0x80u)
/* Sum strides.  A leaf a@i+b@j (the paper's a*e_i + b*e_j, CuTe's
 * ArithmeticTuple E<i>*a + E<j>*b) is packed into the leaf itself, so
 * tuples stay the same size and integer strides cost nothing: bit 0x40 of
 * byte 0 marks it, the low 2 bits of byte 0 count its terms (2 or 3),
 * byte t+1 holds term t's mode index (strictly increasing) and bits
 * [21t, 21t+21) of v its coefficient (non-zero, two's complement).  So a
 * sum holds at most CUTE_MAX_SUM_TERMS depth-1 bases with coefficients in
 * [-CUTE_MAX_SUM_COEF-1, CUTE_MAX_SUM_COEF]; longer sums, nested bases in
 * a sum and larger coefficients are CUTE_ELIMIT.  The algebra reads and
 * writes such leaves only through stride.c's functions (cute_internal.h).
 *   (2,2):(1@0,1@0+1@1)   leaf 1: e = 0x42 | 0<<8 | 1<<16, v = 1 | 1<<21 */
#define CUTE_BASIS_SUM        ((cute_basis)0x40u)
#define CUTE_BASIS_IS_SUM(b)  (((b) & CUTE_BASIS_SUM) != 0)
#define CUTE_MAX_SUM_TERMS    3
#define CUTE_MAX_SUM_COEF     ((1 << 20) - 1)

/* One stride leaf from two: (v, e) = a*(va, ea) + b*(vb, eb), in the
 * normal form above: 2*E<1> = 2@1, E<0> + E<1> = 1@0+1@1, a@i - a@i =
 * 0@i.  An integer other than 0 added to a basis is CUTE_ECODOMAIN;
 * past the limits of a sum, CUTE_ELIMIT; CUTE_EOVERFLOW. */
cute_status cute_stride_combine(int64_t *v, cute_basis *e, int64_t a,
                                int64_t va, cute_basis ea, int64_t b,
                                int64_t vb, cute_basis eb, cute_error *err);

typedef struct cute_tuple {
  uint8_t ntok;                      /* tokens used in tok[]          */
  uint8_t nleaf;                     /* leaves used in v[] / e[]      */
  char tok[CUTE_MAX_TOKENS];         /* '(' ')' 'x'                   */
  int64_t v[CUTE_MAX_LEAVES];        /* leaf values (or coefficients) */
  cute_basis e[CUTE_MAX_LEAVES];     /* 0: plain integer              */
} cute_tuple;

/* Construction (builder: open/leaf/close in order; checks limits). */
void cute_tuple_clear(cute_tuple *t);
cute_status cute_tuple_int(cute_tuple *t, int64_t v);            /* t = v    */
cute_status cute_tuple_open(cute_tuple *t, cute_error *err);     /* '('      */
cute_status cute_tuple_close(cute_tuple *t, cute_error *err);    /* ')'      */
cute_status cute_tuple_leaf(cute_tuple *t, int64_t v, cute_basis e,
                            cute_error *err);
/* Appends a whole tuple `sub` as the next element of an open group. */
cute_status cute_tuple_push(cute_tuple *t, const cute_tuple *sub,
                            cute_error *err);
/* Makes (x0, x1, ..., xn-1) from n tuples. */
cute_status cute_tuple_make(cute_tuple *t, const cute_tuple *const *xs, int n,
                            cute_error *err);

/* dst = src, copying only the used tokens and leaves (not the whole
 * fixed-capacity struct). */
void cute_tuple_copy(cute_tuple *dst, const cute_tuple *src);

/* Is t well formed (balanced tokens, one root, leaf count, limits)?  Values
 * are not checked.  Every tuple made by the builder or the parser is. */
cute_status cute_tuple_check(const cute_tuple *t, cute_error *err);

/* Where element i of t lies in t's arrays: tokens [tok0, tok1) and leaves
 * [leaf0, leaf1).  Of an integer, element 0 is the integer itself.
 * Returns 0, or -1 when i is outside [0, rank(t)). */
typedef struct cute_span { int tok0, tok1, leaf0, leaf1; } cute_span;
int cute_tuple_span(const cute_tuple *t, int i, cute_span *sp);
/* The same for element i of the element `of` of t (a leaf's element 0 is
 * itself), so nested elements can be walked without copying them. */
int cute_tuple_child(const cute_tuple *t, const cute_span *of, int i,
                     cute_span *sp);

/* The natural coordinate of `crd` (weakly congruent to `shape`), one entry
 * per leaf of shape in c[]: an integer against a group is that group's
 * in-mode index, spread colexicographically with the last leaf absorbing
 * the rest (extended domain).  CUTE_UNDERSCORE leaves give 0 when
 * allow_underscore, CUTE_EINVAL otherwise; a mismatch is CUTE_ERANK.
 *   ((2,2),(4,2)) at (2,5) -> c = {0,1,1,1} */
cute_status cute_tuple_natural(int64_t *c, const cute_tuple *crd,
                               const cute_tuple *shape, int allow_underscore,
                               cute_error *err);

int cute_tuple_is_int(const cute_tuple *t);        /* depth 0           */
int cute_tuple_rank(const cute_tuple *t);          /* 1 for an integer  */
int cute_tuple_depth(const cute_tuple *t);
int cute_tuple_equal(const cute_tuple *a, const cute_tuple *b);
/* i-th element (0-based); of an integer, mode 0 is the integer itself. */
cute_status cute_tuple_mode(cute_tuple *out, const cute_tuple *t, int i,
                            cute_error *err);
/* The leaves of t as a flat tuple, in order; a leaf stays a leaf:
 *   flatten((4,(2,(3,5)))) = (4,2,3,5),   flatten(7) = 7.
 * @post depth(out) <= 1 and its leaves are t's, in order.
 * A malformed t gets cute_tuple_check's status (CUTE_EINVAL, CUTE_ELIMIT). */
cute_status cute_tuple_flatten(cute_tuple *out, const cute_tuple *t);
/* Product of the leaves (a shape's size), checked for overflow; leaves of
 * any sign, as CuTe's size(IntTuple) = product: size((2,-3)) = -6. */
cute_status cute_tuple_size(const cute_tuple *t, int64_t *out, cute_error *err);
cute_status cute_tuple_sum(const cute_tuple *t, int64_t *out, cute_error *err);

/* Relations of paper section 2 (Definitions 2.3, 2.4, 2.7). */
int cute_congruent(const cute_tuple *a, const cute_tuple *b);        /* ~  */
int cute_weakly_congruent(const cute_tuple *a, const cute_tuple *b); /* <~ */
int cute_compatible(const cute_tuple *a, const cute_tuple *b);       /* <= */

/* Coordinate maps (paper eq. 4, 5) between compatible coordinate sets.
 * idx2crd: `idx` (any integer, extended domain: the last mode absorbs the
 * overflow) -> the natural coordinate congruent to `shape`.
 * crd2idx: any coordinate weakly congruent to `shape` -> its integral index. */
cute_status cute_idx2crd(cute_tuple *crd, int64_t idx, const cute_tuple *shape,
                         cute_error *err);
cute_status cute_crd2idx(int64_t *idx, const cute_tuple *crd,
                         const cute_tuple *shape, cute_error *err);

/* --------------------------------------------------------------- layouts -- */
typedef struct cute_layout {
  cute_tuple shape;   /* HTuple of positive integers                    */
  cute_tuple stride;  /* congruent HTuple of integers or scaled bases   */
} cute_layout;

/* shape:stride, checked for congruence and positive shape; binary (F<d>)
 * strides may not mix with integer or basis strides other than 0:
 *   (4,3):(1,F15) -> CUTE_ECODOMAIN (XOR and + do not combine) */
cute_status cute_layout_make(cute_layout *L, const cute_tuple *shape,
                             const cute_tuple *stride, cute_error *err);
cute_status cute_layout_left(cute_layout *L, const cute_tuple *shape,
                             cute_error *err);  /* compact column-major */
cute_status cute_layout_right(cute_layout *L, const cute_tuple *shape,
                              cute_error *err); /* compact row-major    */
/* (4,8) -> (4,8):(1@0,1@1); (4,(2,2)) -> (4,(2,2)):(1@0,(1@0@1,1@1@1));
 * an integer shape evaluates to integers, as CuTe's: 8 -> 8:1, (8) -> (8):(1@0) */
cute_status cute_layout_identity(cute_layout *L, const cute_tuple *shape,
                                 cute_error *err);

/* Does any stride leaf carry a basis (coordinate codomain)? */
int cute_layout_has_basis(const cute_layout *L);
/* Does any stride leaf carry a binary (F2) stride F<d>?  Such a layout
 * (CUTE_BASIS_F2) evaluates, coalesces, composes (A o B with A binary)
 * and inverts (a bijection onto [0, N)) as the paper's binary layout;
 * every other operation refuses it with CUTE_ECODOMAIN or CUTE_EINVAL. */
int cute_layout_is_f2(const cute_layout *L);
int cute_layout_equal(const cute_layout *a, const cute_layout *b);

/* Evaluation.  `index` form requires an integral codomain.  The general form
 * takes any coordinate weakly congruent to the shape (extended domain
 * allowed) and yields an integer or, for coordinate layouts, a tuple. */
cute_status cute_layout_eval_index(const cute_layout *L, int64_t index,
                                   int64_t *out, cute_error *err);
cute_status cute_layout_eval(const cute_layout *L, const cute_tuple *crd,
                             cute_tuple *out, cute_error *err);

cute_status cute_layout_size(const cute_layout *L, int64_t *out,
                             cute_error *err);
/* cosize = L(size-1) + 1 for an integral codomain. */
cute_status cute_layout_cosize(const cute_layout *L, int64_t *out,
                               cute_error *err);
int cute_layout_rank(const cute_layout *L);
int cute_layout_depth(const cute_layout *L);

/* The image of L as a set (the one owner of these facts: buffers are
 * sized and writes checked with them).  Integral codomain only, else
 * CUTE_ECODOMAIN.
 * offset_range: every offset L reaches on its domain lies in [lo, hi],
 * both reached: lo = sum of (s-1)d over negative strides, hi over
 * positive ones; checked (CUTE_EOVERFLOW).
 *   (4,8):(1,4) -> [0, 31]   (4,8):(-1,-4) -> [-31, 0]   1:0 -> [0, 0]
 * @post lo <= L(i) <= hi for every i in [0, size(L)). */
cute_status cute_layout_offset_range(const cute_layout *L, int64_t *lo,
                                     int64_t *hi, cute_error *err);
/* injective: *yes = whether L(i) != L(j) for all i != j in [0, size(L)).
 * Exact: a stride-0 mode of size > 1 repeats; strides that nest (sorted
 * by |d|, each >= the last one's s|d|) never do; any other layout is
 * walked over a bitmap of its offset span, which must then be below
 * CUTE_MAX_INJECTIVE_SPAN (else CUTE_ELIMIT: undecided, never a guess).
 *   (2,2):(2,3) -> 1 (offsets 0 2 3 5)   (2,2):(1,1) -> 0   (4,2):(1,0) -> 0 */
#define CUTE_MAX_INJECTIVE_SPAN (1 << 16)
cute_status cute_layout_injective(const cute_layout *L, int *yes,
                                  cute_error *err);

/* Mode manipulation (CuTe names; modes 0-based, ranges half-open [b,e)).
 * An integer layout is rank 1: its mode 0 is itself.  Results other than
 * mode() and replace() on an integer layout are tuples:
 *   A = (4,(2,3),8):(1,(4,8),24)
 *   group(A,1,3)  = (4,((2,3),8)):(1,((4,8),24))   group(A,1,1) inserts ()
 *   take(A,0,1)   = (4):(1)      append(4:1, 5:100) = (4,5):(1,100)
 *   concat({4:1, 5:100}) = (4,5):(1,100), of none: ():() */
cute_status cute_layout_mode(cute_layout *out, const cute_layout *L, int i,
                             cute_error *err);
/* Shape and stride flattened alike:
 *   flatten((4,(2,3)):(1,(4,8))) = (4,2,3):(1,4,8).
 * @post depth(out) <= 1 and out(i) = L(i) for every index i. */
cute_status cute_layout_flatten(cute_layout *out, const cute_layout *L,
                                cute_error *err);
cute_status cute_layout_group(cute_layout *out, const cute_layout *L, int b,
                              int e, cute_error *err);    /* group_modes */
cute_status cute_layout_take(cute_layout *out, const cute_layout *L, int b,
                             int e, cute_error *err);
cute_status cute_layout_select(cute_layout *out, const cute_layout *L,
                               const int *modes, int n, cute_error *err);
cute_status cute_layout_append(cute_layout *out, const cute_layout *L,
                               const cute_layout *x, cute_error *err);
cute_status cute_layout_prepend(cute_layout *out, const cute_layout *L,
                                const cute_layout *x, cute_error *err);
cute_status cute_layout_replace(cute_layout *out, const cute_layout *L, int i,
                                const cute_layout *x, cute_error *err);
/* (L0, L1, ..., Ln-1): concatenation (paper 3.1). */
cute_status cute_layout_concat(cute_layout *out, const cute_layout *const *ls,
                               int n, cute_error *err);

/* Slicing (paper 2.5.1, Figure 5): `crd` is weakly congruent to the shape
 * with CUTE_UNDERSCORE leaves marking the kept modes.  `offset` receives
 * L(c') (an integer tuple, or a coordinate for coordinate layouts) and `out`
 * the sublayout of the kept modes: one top-level mode per `_` leaf of crd,
 * in order, each that leaf's whole sub-tree of L (CuTe's slice and the
 * paper's reference; Figure 5 typesets the same functions without the
 * outer tuple).  A bare `_` keeps L itself; no `_` gives ().
 *   A = ((3,2),((2,3),2)):((4,1),((2,15),100))
 *   A(2,_)             = (((2,3),2)):(((2,15),100))   rank 1, offset 8
 *   A((1,_),((_,0),_)) = (2,2,2):(1,2,100)            offset 4
 * @post L(c) = offset + out(c_kept) for every c that agrees with crd
 *       outside the `_` modes, c_kept its coordinate in those modes. */
cute_status cute_layout_slice(cute_layout *out, cute_tuple *offset,
                              const cute_layout *L, const cute_tuple *crd,
                              cute_error *err);

/* --------------------------------------------------------------- algebra -- */
/* Coalesce (paper 3.2): depth <= 1, same size, same values on the integral
 * domain, minimal rank.  A single remaining mode is returned as an integer
 * leaf (12:1, not (12):(1)); an all-size-1 layout becomes 1:0 (as CuTe).
 *   coalesce((2,(1,6)):(1,(6,2))) = 12:1
 * @post depth(out) <= 1, size(out) = size(L), out(i) = L(i) for i in
 *       [0, size(L)). */
cute_status cute_coalesce(cute_layout *out, const cute_layout *L,
                          cute_error *err);
/* By-mode coalesce: `profile` is a tuple of rank <= rank(L); a leaf of the
 * profile coalesces that mode whole, a group recurses; extra modes of L are
 * kept unchanged. */
cute_status cute_coalesce_profile(cute_layout *out, const cute_layout *L,
                                  const cute_tuple *profile, cute_error *err);
/* Replace the shape of every stride-0 mode by 1 (structure kept). */
cute_status cute_filter_zeros(cute_layout *out, const cute_layout *L,
                              cute_error *err);
/* coalesce(filter_zeros(L)): drops stride-0 and size-1 modes. */
cute_status cute_filter(cute_layout *out, const cute_layout *L,
                        cute_error *err);

/* Composition R = A o B (paper 3.3): R(c) = A(B(c)) for every c of B, B's
 * shape is R's.  A is taken on its extended domain; B may have integer or
 * scaled-basis strides (coordinate case).  Modes of A that B never reaches
 * are dropped first (paper 3.3.2's truncation), which changes nothing B
 * sees: the result is always A o B itself, never a truncated or otherwise
 * different function.  Errors, CUTE_EDIVISIBILITY: the stride or shape
 * divisibility condition (eqs. 20, 21) by name, or "distributivity
 * condition violated" when the images of B's modes would carry into one
 * another in A (the per-mode results then do not add up to A o B).  A
 * negative stride of B is supported only when it steps over whole modes of
 * A (R = -(A o s:|d|)); otherwise CUTE_EINVAL.  Where the divisibility
 * conditions fail but a leaf s:d of B walks A without carrying between
 * A's modes, the leaf keeps one mode of stride A(d) -- a sum of bases for
 * a coordinate A: (4,8):(1@0,1@1) o (2,2):(1,5) = (2,2):(1@0,1@0+1@1).
 * Sum strides in A or B compose through A's natural coordinates (stride.c).
 *   (4,6,8,10):(2,3,5,7) o 6:12 = (2,3):(9,5)
 * @post shape(out) is compatible with shape(B), and out(c) = A(B(c)) for
 *       every coordinate c of B. */
cute_status cute_composition(cute_layout *out, const cute_layout *A,
                             const cute_layout *B, cute_error *err);

/* A tiler (paper 3.3.5, CuTe's Tiler): a layout B, the slice marker `_`
 * (CuTe's Underscore: the mode is left whole), or a by-mode list
 * <T0, T1, ...> whose element i acts on mode i of the layout -- each
 * element itself a tiler, so lists nest.  The structure is spelled in tok[]
 * ('<' and '>' around a list, 'L' for the next layout of mode[], '_' for
 * the marker); ntok == 0 is the flat list <mode[0],...,mode[n-1]> (what
 * cute_tiler_parse makes of "<4:1,8:2>").
 *   <2:1,<_,4:1>>  is  tok "<L<_L>>", mode {2:1, 4:1}
 *   4:1            is  tok "L",       mode {4:1}       (a whole-layout B)
 *   _              is  tok "_",       n 0 */
#define CUTE_MAX_TILER_TOKENS CUTE_MAX_TOKENS
typedef struct cute_tiler {
  int n;                               /* layouts used in mode[] */
  cute_layout mode[CUTE_MAX_TILER];
  uint8_t ntok;
  char tok[CUTE_MAX_TILER_TOKENS];
} cute_tiler;
/* Is T well formed (balanced, one root, n layouts, nesting within
 * CUTE_MAX_DEPTH)?  CUTE_EINVAL / CUTE_ELIMIT otherwise. */
cute_status cute_tiler_check(const cute_tiler *T, cute_error *err);
/* (A0 o T0, A1 o T1, ...): modes of A past the tiler are dropped, as CuTe
 * C++ does; a list longer than rank(A) is a CUTE_ERANK error.  A `_`
 * element keeps its mode (A_i o _ = A_i); a layout tiler is A o B. */
cute_status cute_composition_tiler(cute_layout *out, const cute_layout *A,
                                   const cute_tiler *T, cute_error *err);

/* Divides (paper 3.5.2) by a tiler T, modes of A past a list kept:
 *   A / B = A o (B, B*),  B* = coalesce(complement(B, size(A)))
 * so (B, B*) covers A and no element is dropped; mode 0 is the tile, mode
 * 1 the rest.  The arrangements split each divided mode into (tile, rest)
 * -- a `_` element's mode must have rank 2 to be read so (CuTe's zip2_by),
 * or rank 1 (then the tile part is 1:0 and the mode is all rest):
 *   (8,16):(20,1) / <4:1,8:2>  = ((4,2),(8,2)):((20,80),(2,1))  logical
 *                              = ((4,8),(2,2)):((20,2),(80,1))   zipped
 *                              = ((4,8),2,2):((20,2),80,1)       tiled
 *                              = (4,8,2,2):(20,2,80,1)           flat
 * A coordinate tiler B (strides a@i naming A's modes) gets its rest mode
 * by mode: B* = (complement of B's part in mode p against size(A_p),
 * along e_p)_p, a mode B leaves alone whole:
 *   (8,8):(9,1) / 4:1@0 = A o (4:1@0, (2,8):(4@0,1@1)) = (4,(2,8)):(9,(36,1))
 * Errors name the call, then the step that failed:
 *   "logical_divide(A, <T>): composition(...): ... condition violated".
 * @post size(out) = size(B) size(B*) (by mode for lists): size(A) when B
 *       tiles A, more when size(B) does not divide it, as in CuTe:
 *       12:1 / 5:1 = (5,3):(1,5), A's extended domain; logical:
 *       out(i) = A((B, B*)(i)). */
cute_status cute_logical_divide(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, cute_error *err);
cute_status cute_zipped_divide(cute_layout *out, const cute_layout *A,
                               const cute_tiler *T, cute_error *err);
cute_status cute_tiled_divide(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T, cute_error *err);
cute_status cute_flat_divide(cute_layout *out, const cute_layout *A,
                             const cute_tiler *T, cute_error *err);

/* Products (paper 3.5.1, Figures 10 and 11) by a tiler T:
 *   A x B = (A, A* o B),  A* the minimal complement of A
 * (on its extended domain, so A* o B keeps stepping past A).  A list
 * multiplies by mode, modes past it kept; arrangements as for divides.
 * blocked and raked take a layout B: ranks are padded to the larger with
 * 1:0 modes (CuTe's append<R>) and mode i pairs A_i with its grid
 * A* o B_i, as (A_i, grid_i) (blocked) or (grid_i, A_i) (raked); an
 * integer-shaped A gives the pair itself (CuTe's zip of a non-tuple):
 *   (3,4):(4,1) x (2,5):(1,2) = ((3,4),(2,5)):((4,1),(12,24))   logical
 *     blocked = ((3,2),(4,5)):((4,12),(1,24))                    Figure 10
 *     raked   = ((2,3),(5,4)):((12,4),(24,1))                    Figure 11
 * @post size(out) = size(A) * size(B) (by mode for lists), and
 *       out(a + size(A) b) = A(a) + A*(B(b)) for the logical product. */
cute_status cute_logical_product(cute_layout *out, const cute_layout *A,
                                 const cute_tiler *T, cute_error *err);
cute_status cute_zipped_product(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, cute_error *err);
cute_status cute_tiled_product(cute_layout *out, const cute_layout *A,
                               const cute_tiler *T, cute_error *err);
cute_status cute_flat_product(cute_layout *out, const cute_layout *A,
                              const cute_tiler *T, cute_error *err);
cute_status cute_blocked_product(cute_layout *out, const cute_layout *A,
                                 const cute_layout *B, cute_error *err);
cute_status cute_raked_product(cute_layout *out, const cute_layout *A,
                               const cute_layout *B, cute_error *err);

/* Partitioning by compose-and-slice (paper 3.3.4, CuTe's local_tile and
 * local_partition).  `proj`, when not NULL, is CuTe's Step: a tuple whose
 * CUTE_UNDERSCORE leaves (X) drop the matching element and whose other
 * leaves keep it; local_tile dices the tiler (a list, or a layout's
 * modes) and the coordinate with it, local_partition the thread layout.
 * local_tile: zipped_divide(A, T) sliced at (the tile modes, coord): one
 * mode per tile mode, then the rest modes coord leaves open (`_`); coord
 * is an integer (a flat tile index) or a tuple padded with `_` to the
 * rest's rank.  local_partition: zipped_divide(A, product_each(shape of
 * thr)) sliced at (thread index's coordinate in thr, the rest modes):
 * thread `index` keeps its element of every tile.
 *   A = (512,64):(1,512)  local_tile(A, <128:1,128:1,8:1>, (1,0,_),
 *     Step (1,_,1)) = (128,8,8):(1,512,4096) at 128; then
 *   local_partition(that, (32,8):(1,32), 37) = (4,1,8):(32,0,4096) at 517
 * @post offset + out(c) = zipped_divide(A, T)(tile c, coord) (local_tile) */
cute_status cute_local_tile(cute_layout *out, cute_tuple *offset,
                            const cute_layout *A, const cute_tiler *T,
                            const cute_tuple *coord, const cute_tuple *proj,
                            cute_error *err);
cute_status cute_local_partition(cute_layout *out, cute_tuple *offset,
                                 const cute_layout *A, const cute_layout *thr,
                                 int64_t index, const cute_tuple *proj,
                                 cute_error *err);
/* flat_coord: the coordinate of thread `index` in the thread layout t, one
 * integer per top-level mode (CuTe's get_flat_coord, what local_partition
 * slices at): each leaf's (index / stride) mod shape, 0 for stride 0, then
 * each mode's leaf coordinates combined colexicographically; an integer
 * for an integer-shaped t.  Integral strides only (CUTE_ECODOMAIN).
 *   flat_coord((2,16,16):(1,2,32), 37) = (1,2,1)
 *   flat_coord(((4,8),2):((16,1),8), 5) = (20,0)
 * @post local_partition(A, t, index) slices at (flat_coord(t, index), _) */
cute_status cute_layout_flat_coord(cute_tuple *c, const cute_layout *t,
                                   int64_t index, cute_error *err);

/* Complement (paper 3.5): disjoint from A, strictly increasing image; with
 * cotarget > 0 the pair (A, A*) covers [0, cotarget) (ceil); with cotarget
 * <= 0 the minimal complement against cosize(A), which keeps its trailing
 * size-1 mode whose stride marks the end of A's codomain:
 *   complement((4,8):(1,4)) = 1:32,   complement(4:2, 24) = (2,3):(1,8).
 * The size-1 rest mode is kept with a cotarget too (complement(8:3, 24) =
 * (3,1):(1,24)): disjointness on the extended domain needs it.  Modes are
 * taken in stride order; each stride d leaves a hole above cur, the end
 * (s*d) of the modes before it.  Without a cotarget the hole gets floor(
 * d/cur) steps of cur, which stay below d even when cur does not divide d:
 *   complement((4,8):(1,9)) = (2,1):(4,72),  complement((4,8):(1,5)) = 1:40
 * With a cotarget a hole must be a whole number of steps, else
 * CUTE_EDIVISIBILITY.  Overlapping modes: CUTE_ENONINJECTIVE; a negative
 * stride: CUTE_EINVAL.  Coordinate layouts get a complement per
 * component of the codomain, nested paths a@i@j included, the result
 * weakly congruent with it (Table 7's e-rows): complement((4,2):(1@0,
 * 2@1@1)) = (1,(1,(2,1))):(4@0,(1@0@1,(1@1@1,4@1@1))); a cotarget > 0
 * with a coordinate layout, or a sum stride (it spans several
 * components), is CUTE_ECODOMAIN.
 * @post out is strictly increasing; its image (on its extended domain)
 *       and A's (on A's domain) share only offset 0; with cotarget > 0
 *       the offsets of (A, out) cover [0, cotarget). */
cute_status cute_complement(cute_layout *out, const cute_layout *A,
                            int64_t cotarget, cute_error *err);

/* Right inverse (3.4.1): largest R with L(R(k)) = k; stride-0 and size-1
 * modes are skipped.  Among the other modes, a negative stride is
 * CUTE_EINVAL, as for the left inverse and the complement (inverse.c says
 * why).  The modes chain from stride 1, each continuing the last one's end:
 *   right_inverse((3,7,5):(5,15,1)) = (5,21):(21,1)
 * @post L(out(k)) = k for every k in [0, size(out)).
 * Left inverse (3.4.3): L(Linv(L(k))) = L(k) on the image, holes filled by
 * stride-0 modes: left_inverse((4,8):(1,5)) = (5,8):(1,4).
 * @post L(out(L(i))) = L(i) for every index i of L.
 * Coordinate layouts are inverted per component of the codomain (nested
 * paths included, as the complement); a sum stride is CUTE_ECODOMAIN. */
cute_status cute_right_inverse(cute_layout *out, const cute_layout *L,
                               cute_error *err);
cute_status cute_left_inverse(cute_layout *out, const cute_layout *L,
                              cute_error *err);

/* Paper 3.4.2: the number K of leading elements on which A and B agree
 * (the paper's size of the stride-1 mode of coalesce(A o right_inverse(B)),
 * computed without the composition: the common prefix of right_inverse(A)
 * and right_inverse(B), so it never fails on divisibility), and the layout
 * right_inverse(B) restricted to those K elements -- 1:0 when only offset 0
 * is shared.  Negative-stride modes take no part (K is then a lower
 * bound).  Coordinate layouts: CUTE_ECODOMAIN; a K past 64 bits:
 * CUTE_EOVERFLOW.
 * @post A(R(k)) = B(R(k)) = k for k in [0, K), R = max_common_layout. */
cute_status cute_max_common_vector(const cute_layout *A, const cute_layout *B,
                                   int64_t *out, cute_error *err);
cute_status cute_max_common_layout(cute_layout *out, const cute_layout *A,
                                   const cute_layout *B, cute_error *err);

/* Recast a layout of old_bits-wide elements to new_bits-wide ones (CuTe's
 * upcast / downcast / recast_layout); indivisible shapes or strides are an
 * error.  Widths where neither divides the other recast through their gcd:
 *   recast((8,4):(1,8), 6, 4) = downcast by 3, upcast by 2 = (12,4):(1,12) */
cute_status cute_upcast(cute_layout *out, const cute_layout *L, int64_t n,
                        cute_error *err);
cute_status cute_downcast(cute_layout *out, const cute_layout *L, int64_t n,
                          cute_error *err);
cute_status cute_recast(cute_layout *out, const cute_layout *L,
                        int64_t old_bits, int64_t new_bits, cute_error *err);

/* -------------------------------------------------------- compact layouts -- */
/* CuTe's make_ordered_layout: the leaves of `order` (weakly congruent to
 * shape; a leaf may cover a sub-shape) rank the sub-shapes, ties by
 * position, and each is packed column-major after those ranked before it.
 *   make_ordered_layout((2,3,4), (2,0,1)) = (2,3,4):(12,1,3)
 * @post out is compact: its image is [0, size(shape)). */
cute_status cute_layout_ordered(cute_layout *out, const cute_tuple *shape,
                                const cute_tuple *order, cute_error *err);
/* CuTe's make_layout_like: L's shape, packed in the order of L's strides
 * (coordinate strides by basis path, then coefficient); stride-0 leaves
 * stay 0 and take no room, size-1 leaves rank last (idempotence).
 *   make_layout_like((2,3,4,5):(0,42,1,0)) = (2,3,4,5):(0,4,1,0)
 *   make_layout_like((2,3,4):(1@2,1@1,1@0)) = (2,3,4):(12,4,1) */
cute_status cute_layout_like(cute_layout *out, const cute_layout *L,
                             cute_error *err);
/* CuTe's nullspace: the stride-0 leaves of L with their index strides in
 * L's flat column-major domain; 1:0 when there are none.
 *   nullspace((2,4,6):(0,1,0)) = (2,6):(1,8)
 * @post L(out(i)) = 0 for every i in [0, size(out)). */
cute_status cute_nullspace(cute_layout *out, const cute_layout *L,
                           cute_error *err);

/* ------------------------------------------------------- tuple arithmetic -- */
/* CuTe's int_tuple arithmetic (names as CuTe and the CuTe DSL spell them).
 * ceil_div(a, b): tuple/tuple by mode (b may be shorter: its missing modes
 * are 1), tuple/int folds b through a's modes, int/tuple divides by b's
 * product:  ceil_div((10,6), (3,4)) = (4,2),  ceil_div((4,6), 8) = (1,3).
 * shape_div: the same with equal ranks and each integer step requiring one
 * of a, b to divide the other (CUTE_EDIVISIBILITY):
 *   shape_div((4,5,6), 40) = (1,1,3). */
cute_status cute_ceil_div(cute_tuple *out, const cute_tuple *a,
                          const cute_tuple *b, cute_error *err);
cute_status cute_shape_div(cute_tuple *out, const cute_tuple *a,
                           const cute_tuple *b, cute_error *err);
/* (product(t0), product(t1), ...); of an integer, itself; of (), 1. */
cute_status cute_product_each(cute_tuple *out, const cute_tuple *t,
                              cute_error *err);
/* Leaf by leaf a + b and a - b; a missing mode counts as 0 (CuTe's
 * ArithmeticTuple); leaves of different bases are CUTE_ECODOMAIN. */
cute_status cute_tuple_add(cute_tuple *out, const cute_tuple *a,
                           const cute_tuple *b, cute_error *err);
cute_status cute_tuple_sub(cute_tuple *out, const cute_tuple *a,
                           const cute_tuple *b, cute_error *err);
/* Every leaf of a below b's (a mode of a past b's rank: false). */
cute_status cute_elem_less(int *out, const cute_tuple *a, const cute_tuple *b,
                           cute_error *err);
/* The next coordinate colexicographically: (2,0,0) in (3,3,3) -> (0,1,0);
 * the last leaf does not wrap (one past the end is (0,...,0,s)). */
cute_status cute_increment_coord(cute_tuple *out, const cute_tuple *crd,
                                 const cute_tuple *shape, cute_error *err);
/* The elements of t paired with integer leaves of crd, as one flat tuple
 * (slicing keeps the `_` ones): dice((1,_), (4,8)) = (4); dice(1, t) = t. */
cute_status cute_dice(cute_tuple *out, const cute_tuple *crd,
                      const cute_tuple *t, cute_error *err);
/* idx2crd of a coordinate: mode by mode, each integer leaf of idx taken
 * by cute_idx2crd against its mode of shape:
 *   idx2crd((3,5), (4,(2,4))) = (3,(1,2)). */
cute_status cute_idx2crd_tuple(cute_tuple *crd, const cute_tuple *idx,
                               const cute_tuple *shape, cute_error *err);
/* append / prepend x to t (an integer t is wrapped first) until rank
 * `rank`, or once when rank < 0:  append((1,2), 0, 4) = (1,2,0,0). */
cute_status cute_tuple_extend(cute_tuple *out, const cute_tuple *t,
                              const cute_tuple *x, int rank, int front,
                              cute_error *err);

/* -------------------------------------------------------------- swizzles -- */
/* CuTe's Swizzle<B,M,S>: bits [M+S, M+S+B) are XORed into bits [M, M+B)
 * (S may be negative: then bits [M, M+B) are XORed upward into bits
 * [M-S, M-S+B)).  Requires B >= 0, M >= 0, |S| >= B and M+|S|+B <= 62
 * (CUTE_EINVAL, CUTE_ELIMIT).  An invalid hand-made value applies as the
 * identity. */
typedef struct cute_swizzle { int b, m, s; } cute_swizzle;

cute_status cute_swizzle_make(cute_swizzle *sw, int b, int m, int s,
                              cute_error *err);
int64_t cute_swizzle_apply(cute_swizzle sw, int64_t offset);

/* Sw<B,M,S> o offset o layout: c -> sw(offset + layout(c)). */
typedef struct cute_composed {
  cute_swizzle sw;
  int64_t offset;
  cute_layout layout;
} cute_composed;

cute_status cute_composed_eval(const cute_composed *C, const cute_tuple *crd,
                               int64_t *out, cute_error *err);
cute_status cute_composed_eval_index(const cute_composed *C, int64_t index,
                                     int64_t *out, cute_error *err);
cute_status cute_composed_size(const cute_composed *C, int64_t *out,
                               cute_error *err);
/* Largest swizzled offset + 1 over the domain: exact up to CUTE_MAX_WALK
 * elements (a walk over the domain), beyond that an upper bound from the
 * swizzle's span (swizzle.c):
 *   Sw<3,4,3> o 1 o (2^24):(1)    -> 2^24 + 1     (exact: walked)
 *   Sw<3,4,3> o 1 o (2^24+1):(1)  -> 2^24 + 1024  (bound: block of 2^10) */
cute_status cute_composed_cosize(const cute_composed *C, int64_t *out,
                                 cute_error *err);
/* (Sw o off o L) o B = Sw o off o (L o B). */
cute_status cute_composed_compose(cute_composed *out, const cute_composed *C,
                                  const cute_layout *B, cute_error *err);

/* --------------------------------------------------------- element types -- */
/* The one table of element types (dtype.c): cuda's names (the first twelve
 * are the types a device buffer stores), tf32 (32 bits, kept in an f32),
 * the fp8 types e4m3 and e5m2, and the untyped bits b8 .. b128; s8 s16 s32
 * s64 are CuTe's and PTX's names of i8 .. i64.
 *   cute_dtype_parse("s32", &t) -> 0, t == CUTE_I32, cute_dtype_bits(t) 32 */
typedef enum cute_dtype {
  CUTE_F16, CUTE_BF16, CUTE_F32, CUTE_F64,
  CUTE_I8, CUTE_I16, CUTE_I32, CUTE_I64,
  CUTE_U8, CUTE_U16, CUTE_U32, CUTE_U64,
  CUTE_TF32, CUTE_E4M3, CUTE_E5M2,
  CUTE_B8, CUTE_B16, CUTE_B32, CUTE_B64, CUTE_B128,
  CUTE_DTYPE_COUNT
} cute_dtype;
#define CUTE_DTYPE_ALIASES 4  /* s8 s16 s32 s64 */

int cute_dtype_bits(cute_dtype t);
const char *cute_dtype_name(cute_dtype t);   /* "i32" (never an alias) */
int cute_dtype_is_float(cute_dtype t);
/* 0 with *out set, or -1: name is no spelling of an element type. */
int cute_dtype_parse(const char *name, cute_dtype *out);
/* Spelling i (0 <= i < CUTE_DTYPE_COUNT + CUTE_DTYPE_ALIASES) and its type
 * in *t: the names in table order, then the aliases; NULL past the end.
 * For listing the accepted names in messages. */
const char *cute_dtype_spelling(int i, cute_dtype *t);

/* ------------------------------------------------------------------ text -- */
/* Printers write CuTe's text (no spaces, no `_` of static integers) into
 * buf (always NUL-terminated when cap > 0) and return the full length, like
 * snprintf.  Parsers accept everything the printers print, whitespace
 * anywhere, and basis descriptors (docs/grammar.md): "(1@0, 8@1)",
 * "(1/2@0, 4@1)" (a fraction must reduce to an integer), "(1@0@1)".  A
 * syntax error gives CUTE_ESYNTAX with err->column (1-based) and the
 * expected token. */
size_t cute_tuple_print(const cute_tuple *t, char *buf, size_t cap);
size_t cute_layout_print(const cute_layout *L, char *buf, size_t cap);
size_t cute_swizzle_print(cute_swizzle sw, char *buf, size_t cap);
size_t cute_composed_print(const cute_composed *C, char *buf, size_t cap);
size_t cute_tiler_print(const cute_tiler *T, char *buf, size_t cap);

cute_status cute_tuple_parse(cute_tuple *t, const char *text, cute_error *err);
/* "(4,8):(1,4)", "8", "(4,8)" (a bare shape: compact column-major). */
cute_status cute_layout_parse(cute_layout *L, const char *text,
                              cute_error *err);
cute_status cute_swizzle_parse(cute_swizzle *sw, const char *text,
                               cute_error *err);
cute_status cute_composed_parse(cute_composed *C, const char *text,
                                cute_error *err);
cute_status cute_tiler_parse(cute_tiler *T, const char *text, cute_error *err);

#ifdef __cplusplus
}
#endif

/* Linear layouts (Triton's, over F2) and their CuTe forms: cute_linear.h,
 * part of this manual, so that one include serves. */
#include "cute_linear.h"

#endif /* CUTE_H */
