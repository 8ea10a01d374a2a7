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

/* "lane=4 -> (0, 3)": basis k of A as Triton prints it, for messages
 * (linear.c). */
void cute_linear_describe(const cute_linear *A, int k, char *buf, size_t cap);

/* Are A's input dims register, lane, warp (a TV layout)? (linear.c) */
int cute_linear_is_tv(const cute_linear *A);

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
