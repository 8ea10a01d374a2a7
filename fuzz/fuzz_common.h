/*
 * fuzz_common.h -- what every fuzz target shares: decoding an input into
 * text fields, parsing them through the public parsers, a reference layout
 * evaluator independent of the algebra, and the checks of the error
 * contract.
 *
 * Input format (all targets): text fields separated by '|', e.g.
 *     (4,8):(1,4)|2:3
 * so the parser does the structuring and a corpus file reads like a test
 * case.  A field that does not parse is simply not used (its parse error is
 * still checked against the error contract).
 *
 * A failed check prints "fuzz check failed: ..." and aborts: libFuzzer
 * records the input as a crash, the replay driver fails its ctest.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include "cute.h"

#include <stddef.h>
#include <stdint.h>

/* Brute-force checks evaluate every index: layouts larger than this are
 * still fed to the operations (crashes and UB are checked) but their
 * properties are not enumerated, so one input stays fast. */
#define FZ_MAX_SIZE   4096
#define FZ_MAX_FIELDS 4
#define FZ_MAX_INPUT  (CUTE_MAX_TEXT + 16)

/* 128-bit arithmetic for the reference evaluator: a value the algebra
 * computes in checked 64 bits is recomputed exactly here. */
__extension__ typedef __int128 fz_i128;

/* The libFuzzer entry point every target defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---------------------------------------------------------------- input -- */
typedef struct fz_input {
  int n;                          /* fields found (>= 1)          */
  const char *f[FZ_MAX_FIELDS];   /* NUL-terminated, "" if absent */
  char buf[FZ_MAX_INPUT + 1];
} fz_input;

/* Splits data at '|' into at most FZ_MAX_FIELDS fields (the last one takes
 * the rest).  Returns 0 when the input is too long to be worth a run. */
int fz_split(fz_input *in, const uint8_t *data, size_t size);

/* ---------------------------------------------------------------- checks -- */
/* Abort with a message unless ok. */
void fz_require(int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The error contract of a call to `op`: CUTE_OK returns 1; any other
 * status must be a known one, equal err->code, with a non-empty message
 * that starts with an operation -- "name(", "name:" or a parse error --
 * and names `op` itself; returns 0. */
int fz_ok(cute_status st, const cute_error *err, const char *op);

/* fz_ok without the operation name, for the tuple-level functions
 * (cute_tuple_natural, idx2crd, crd2idx, cute_tuple_size): their messages
 * state the condition and the operands, and callers add the operation. */
int fz_ok_tuple(cute_status st, const cute_error *err, const char *op);

/* The parsers' contract on top of fz_ok: a syntax error names a column
 * inside the text (1 .. strlen + 1), in the message too. */
int fz_parsed(cute_status st, const cute_error *err, const char *text);

/* --------------------------------------------------------------- parsing -- */
int fz_layout(cute_layout *L, const char *text);
int fz_tuple(cute_tuple *t, const char *text);
/* An integer field ("12", "-3"); 0 when absent or not an integer. */
int fz_int(int64_t *v, const char *text);
/* Does the field, past leading blanks, start with prefix ("<", "Sw")? */
int fz_starts_with(const char *text, const char *prefix);

/* ---------------------------------------------------------------- values -- */
/* Printed text in a rotating static buffer (valid for 8 calls). */
const char *fz_text(const cute_layout *L);
const char *fz_ttext(const cute_tuple *t);

/* size(L) checked against the product of its leaves; -1 if it overflows. */
int64_t fz_size(const cute_layout *L);
/* Integral codomain and size <= FZ_MAX_SIZE: small enough to enumerate. */
int fz_small(const cute_layout *L);

/* Reference L(i) for an integral layout on its extended domain (flat
 * colexicographic coordinates, floor division, last leaf takes the rest),
 * exact in 128 bits; 0 when the sum leaves 128 bits. */
int fz_ref(const cute_layout *L, int64_t i, fz_i128 *out);
/* L(i) by cute_layout_eval_index, required to equal fz_ref whenever it
 * succeeds; 0 (error contract checked) when the algebra reports overflow. */
int fz_eval(const cute_layout *L, int64_t i, int64_t *out);
/* L at 0 .. n-1 into v[]; 0 if any value could not be computed. */
int fz_eval_all(const cute_layout *L, int64_t n, int64_t *v);
/* L(crd) as a tuple (any codomain); 0 on an error (contract checked). */
int fz_eval_crd(const cute_layout *L, const cute_tuple *crd, cute_tuple *out);
int fz_eval_at(const cute_layout *L, int64_t i, cute_tuple *out);

/* Do a and b denote the same point of the codomain: the same non-zero
 * leaves at the same paths?  An all-zero value is the origin whatever its
 * form (0 = (0,0) = (0,(0))), and a missing trailing mode is 0 ((0,3) =
 * (0,3,0)): coordinate values are printed only as wide as their bases. */
int fz_same_value(const cute_tuple *a, const cute_tuple *b);
/* crd made weakly congruent to shape by the algebra's conventions for
 * coordinate values: a missing trailing mode is 0 (an extra all-zero one
 * is dropped) and a group (x) against a leaf is x (an integer's mode 0 is
 * itself).  0 when it cannot be. */
int fz_conform(cute_tuple *out, const cute_tuple *crd,
               const cute_tuple *shape);

/* Sorted copy of v[0..n) into s; returns whether v had no duplicates. */
int fz_sorted(const int64_t *v, int64_t n, int64_t *s);
/* Is x in the sorted s[0..n)? */
int fz_member(const int64_t *s, int64_t n, int64_t x);

/* The reference filter of L: its leaves with a non-zero stride and a shape
 * above 1, flat and in order; 1:0 when none is left. */
void fz_filter_ref(cute_layout *F, const cute_layout *L);

/* Layout (or tuple) of L's mode i; 0 if i is out of range (contract). */
int fz_mode(cute_layout *out, const cute_layout *L, int i);

#endif
