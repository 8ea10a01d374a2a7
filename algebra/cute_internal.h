/*
 * cute_internal.h -- helpers shared by the algebra's translation units.
 * Not installed; nothing here is part of the public API.
 */
#ifndef CUTE_INTERNAL_H
#define CUTE_INTERNAL_H

#include "cute.h"

#include <stdarg.h>

/* Checked 64-bit arithmetic: return 0 on success, 1 on overflow. */
static inline int cute_mul(int64_t a, int64_t b, int64_t *r)
{
  return __builtin_mul_overflow(a, b, r);
}
static inline int cute_add(int64_t a, int64_t b, int64_t *r)
{
  return __builtin_add_overflow(a, b, r);
}
static inline int cute_sub(int64_t a, int64_t b, int64_t *r)
{
  return __builtin_sub_overflow(a, b, r);
}

/* Floor division and modulo (the paper's idx2crd on the extended domain uses
 * mathematical floor for negative indices).  b > 0. */
static inline int64_t cute_floordiv(int64_t a, int64_t b)
{
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
static inline int64_t cute_floormod(int64_t a, int64_t b)
{
  int64_t m = a % b;
  return m < 0 ? m + b : m;
}

/* a / b and a % b for a >= 0, b > 0: a shift and a mask when b is a power
 * of two (nearly every shape and stride), as a 64-bit division costs tens
 * of cycles. */
static inline int64_t cute_divmod(int64_t a, int64_t b, int64_t *rem)
{
  if ((b & (b - 1)) == 0) {
    *rem = a & (b - 1);
    return a >> __builtin_ctzll((uint64_t)b);
  }
  *rem = a % b;
  return a / b;
}

/* Is L well formed: its shape and stride tuples (cute_tuple_check), a
 * stride leaf for each shape leaf?  Guards the walks that read a layout's
 * modes by their spans against hand-made malformed layouts. */
cute_status cute_layout_well_formed(const cute_layout *L, cute_error *err);

/* cute_layout_make of a shape and a stride known well formed and
 * congruent (the parser's): its checks of the leaves alone. */
cute_status cute_layout_make_congruent(cute_layout *L,
                                       const cute_tuple *shape,
                                       const cute_tuple *stride,
                                       cute_error *err);

/* cute_tuple_open, _close and _leaf for a caller that knows the tuple's
 * open depth d (its '(' less its ')'): the same checks and messages,
 * without counting d from the tokens on every step (text_parse.c). */
cute_status cute_tuple_open_at(cute_tuple *t, int d, cute_error *err);
cute_status cute_tuple_close_at(cute_tuple *t, int d, cute_error *err);
cute_status cute_tuple_leaf_at(cute_tuple *t, int d, int64_t v, cute_basis e,
                               cute_error *err);

/* The leaf half of cute_tuple_check: every basis path valid.  For a tuple
 * whose tokens are known well formed (a stride with its shape's tokens). */
cute_status cute_tuple_check_leaves(const cute_tuple *t, cute_error *err);

/* cute_tuple_natural of a coordinate and a shape already known well formed
 * (cute_tuple_check): the walk without the checks, for callers that have
 * made them (a layout's evaluation checks its shape with its stride). */
cute_status cute_tuple_natural_checked(int64_t *c, const cute_tuple *crd,
                                       const cute_tuple *shape,
                                       int allow_underscore, cute_error *err);

/* cute_fail, the message helper every check below builds on, is public
 * (cute.h): the bindings report their operand errors through it. */

/* Same as cute_fail but for an operation on layouts: the message reads
 * "op(A, B): reason", A and B printed as CuTe text (B may be NULL). */
cute_status cute_fail_op(cute_error *err, cute_status code, const char *op,
                         const cute_layout *a, const cute_layout *b,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Prefix an existing error message with "op(A, B): " context. */
void cute_error_context(cute_error *err, const char *op, const cute_layout *a,
                        const cute_layout *b);

/* The same for operands that are not (only) layouts: "op(x, y, ...): "
 * where x, y, ... are the const char * arguments up to a NULL, CuTe text
 * already (a layout printed, a coordinate, an integer), each elided in its
 * middle when long like a layout operand; the message keeps its end.
 *   cute_error_prefix(err, "recast", text_of_L, "8", "32", (char *)NULL) */
void cute_error_prefix(cute_error *err, const char *op, ...)
#if defined(__GNUC__)
    __attribute__((sentinel))
#endif
    ;

/* "note" verbatim before err's message (a step's name: "mode 1: "), the
 * message keeping its end. */
void cute_error_note(cute_error *err, const char *note);

/* How a parse error names its input, one way for every text parser
 * (text_parse.c): 'op("text")' into buf (cap bytes, NUL-terminated), the
 * text through a window of 120 characters around position pos, "..."
 * where it is cut, a line break written \n so the message is one line;
 * the length written.  CUTE_TEXT_QUOTED bytes hold any of them.
 *   layout("(4,8):(1,4")  linear_layout("{lane = [[1]]\n")  */
#define CUTE_TEXT_QUOTED 320
size_t cute_text_quote(char *buf, size_t cap, const char *op,
                       const char *text, size_t len, size_t pos);

/* The length of text, reading at most CUTE_MAX_TEXT + 1 bytes of it;
 * CUTE_EINVAL for NULL, CUTE_ELIMIT past CUTE_MAX_TEXT, each message
 * naming op and the text's start (text_parse.c). */
cute_status cute_text_length(const char *op, const char *text, size_t *len,
                             cute_error *err);

/* "lane=4 -> (0, 3)": basis k of A as Triton prints it, for messages
 * (linear.c). */
void cute_linear_describe(const cute_linear *A, int k, char *buf, size_t cap);

/* cute_linear_check's tests, their messages without its "linear layout: "
 * (the parser names its text instead: linear_layout("..."): ...). */
cute_status cute_linear_valid(const cute_linear *A, cute_error *err);

/* Are A's input dims register, lane, warp (a TV layout)? (linear.c) */
int cute_linear_is_tv(const cute_linear *A);

/* ------------------------------------------------------ stride values -- */
/* One stride value: an integer, a scaled basis a@p or a sum of those,
 * unpacked (stride.c, the one place that knows how a leaf packs a sum).
 * Term t is a[t]@e[t] (e[t] == 0: the integer a[t]); no two terms share
 * a basis.  n == 0 is the integer 0. */
#define CUTE_STRIDE_TERMS 8
typedef struct cute_stride {
  int n;
  int64_t a[CUTE_STRIDE_TERMS];
  cute_basis e[CUTE_STRIDE_TERMS];
} cute_stride;

/* s = the stride leaf (v, e) of a tuple. */
void cute_stride_of(cute_stride *s, int64_t v, cute_basis e);
/* r += c * x, terms of one basis added (CUTE_EOVERFLOW; CUTE_ELIMIT past
 * CUTE_STRIDE_TERMS bases).  r may be x. */
cute_status cute_stride_axpy(cute_stride *r, int64_t c, const cute_stride *x,
                             cute_error *err);
/* The leaf (v, e) of s in normal form: terms of coefficient 0 dropped (a
 * lone zero term keeps its basis: 0@1), one term a plain leaf, several a
 * packed sum (cute.h's limits: CUTE_ELIMIT; an integer added to bases:
 * CUTE_ECODOMAIN).  Messages start "stride <s>: ". */
cute_status cute_stride_pack(int64_t *v, cute_basis *e, const cute_stride *s,
                             cute_error *err);
/* Is the sum leaf (v, e) in the normal form cute_stride_pack makes? */
int cute_stride_sum_valid(int64_t v, cute_basis e);
/* Does the leaf (d1, e1) equal s0 times the leaf (d0, e0)?  (Coalesce's
 * merge rule on stride values; s0*d0 must not overflow.) */
int cute_stride_continues(int64_t s0, int64_t d0, cute_basis e0, int64_t d1,
                          cute_basis e1);
/* CuTe's text of s: "5", "2@1", "1@0+1@1", "1@0-2@1" (text_print.c,
 * which prints sum leaves with it); snprintf-like. */
size_t cute_stride_print(const cute_stride *s, char *buf, size_t cap);
/* Does the basis path e start with the first len indices of prefix?
 * (A sum is under no path.) */
int cute_basis_under(cute_basis e, cute_basis prefix, int len);
/* The path prefix (of length len) extended by index i. */
cute_basis cute_basis_child(cute_basis prefix, int len, int i);
/* Does any leaf of t pack a sum? */
int cute_tuple_has_sum(const cute_tuple *t);

/* B_p, the component of B along basis p: B's shape, each stride the
 * coefficient of its terms along p, the rest of a nested path kept (a@q@p
 * -> a@q; a@p -> the integer a); *any says whether a stride of B has a
 * term along p.  (4,2):(1@0+1@1,2@1@0) along 0 = (4,2):(1,2@1). */
void cute_stride_component(cute_layout *Bp, const cute_layout *B, int p,
                           int *any);

/* Composition when a stride of A or B is a sum (stride.c; cute_composition
 * calls it first when one is): A's strides by substitution into A's
 * natural coordinates, B's by splitting B per basis. */
cute_status cute_composition_sums(cute_layout *out, const cute_layout *A,
                                  const cute_layout *B, cute_error *err);

/* A layout's shape and stride built in step by the checked tuple builder
 * (layout.c), for results that follow B's nesting leaf by leaf: the
 * compositions by sum and by binary strides.  Start with
 * cute_tuple_clear on both; the builder's messages name no operation
 * (put_end adds it). */
/* '(' or ')' in both. */
cute_status cute_layout_put_tok(cute_layout *r, char c, cute_error *err);
/* The n >= 1 leaves s[i]:v[i] (stride bases e[i]) as one element, in
 * parentheses when n > 1: what a composition puts in one leaf's place. */
cute_status cute_layout_put_group(cute_layout *r, int n, const int64_t *s,
                                  const int64_t *v, const cute_basis *e,
                                  cute_error *err);
/* The end of a build: r copied to out when st is CUTE_OK, else the error
 * given the call's context "op(a, b): "; returns st. */
cute_status cute_layout_put_end(cute_layout *out, const cute_layout *r,
                                cute_status st, const char *op,
                                const cute_layout *a, const cute_layout *b,
                                cute_error *err);

/* cute_composition without its integral one-pass form (composition.c):
 * the same results and errors, which spec/c/test_fast_paths.c checks. */
cute_status cute_composition_general(cute_layout *out, const cute_layout *A,
                                     const cute_layout *B, cute_error *err);
/* out = A o B in closed form (composition_closed.c) where A has one or
 * two integral leaves, B one to four integral leaves in at most 16
 * tokens, and each leaf of B gives one mode or a group of two: returns
 * 1.  Else returns 0, out untouched, and the caller takes the general
 * path, which decides and reports.
 *   (64,32):(1,64) o (4,8):(2,128) = (4,8):(2,128)
 * @post on 1, out is what cute_composition_general gives. */
int cute_composition_closed(cute_layout *out, const cute_layout *A,
                            const cute_layout *B);

/* The spans of t's first top-level elements in one walk (cute_tuple_span
 * of each is a walk from the start): sp[i] for i < min(max, rank(t));
 * returns that count. */
int cute_tuple_spans(const cute_tuple *t, cute_span *sp, int max);

/* Overflow error shorthand. */
#define CUTE_OVERFLOW(err, what) \
  cute_fail((err), CUTE_EOVERFLOW, "%s: 64-bit overflow", (what))

/* Binary (F2) strides (linear_f2.c): the paths of evaluation, composition
 * and the inverses that layout.c, composition.c and inverse.c take for a
 * layout with a stride F<d>. */
/* Every stride binary (F<d>, d >= 0, no path) or the integer 0. */
cute_status cute_f2_check(const cute_layout *L, const char *op,
                          cute_error *err);
cute_status cute_f2_eval_index(const cute_layout *L, int64_t index,
                               int64_t *out, cute_error *err);
cute_status cute_f2_inner_product(cute_tuple *out, const int64_t *c,
                                  const cute_layout *L, cute_error *err);
cute_status cute_f2_composition(cute_layout *out, const cute_layout *A,
                                const cute_layout *B, cute_error *err);
cute_status cute_f2_inverse(cute_layout *out, const cute_layout *L,
                            const char *op, cute_error *err);

#endif /* CUTE_INTERNAL_H */
