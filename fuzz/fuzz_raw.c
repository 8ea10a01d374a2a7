/*
 * fuzz_raw.c -- hand-made malformed layouts (spec/c/test_layout.c's
 * test_malformed, coverage-guided): the functions that promise to check
 * their operands' form get arbitrary bytes as a cute_layout and a
 * coordinate tuple, and must return an error (with the error contract),
 * never read or write outside the structs.
 *
 * Input: the bytes of a cute_layout, then those of a cute_tuple (both
 * zero-padded when the input is short).  The checked functions are the
 * ones test_malformed calls: eval, slice, flatten, upcast, downcast,
 * cute_tuple_check, rank, depth, and eval_index when the leaf counts are
 * sane (it trusts them).  Every other function takes well-formed operands
 * only (cute.h: what the builder or the parser made).  A raw layout that
 * is well formed, with positive shapes, must evaluate as the reference.
 */
#include "fuzz_common.h"

#include <string.h>

static int positive(const cute_tuple *shape)
{
  int k;
  for (k = 0; k < shape->nleaf; k++)
    if (shape->v[k] <= 0 || shape->e[k] != 0)
      return 0;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  cute_layout L, O;
  cute_tuple crd, out;
  cute_error e;
  int64_t v, n64;
  size_t n = size < sizeof L ? size : sizeof L;
  memset(&L, 0, sizeof L);
  memset(&crd, 0, sizeof crd);
  memcpy(&L, data, n);
  if (size > n)
    memcpy(&crd, data + n, size - n < sizeof crd ? size - n : sizeof crd);
  fz_ok_tuple(cute_tuple_check(&L.shape, &e), &e, "check");
  fz_ok_tuple(cute_tuple_check(&L.stride, &e), &e, "check");
  fz_ok_tuple(cute_tuple_check(&crd, &e), &e, "check");
  cute_layout_rank(&L);
  cute_layout_depth(&L);
  fz_ok_tuple(cute_layout_eval(&L, &crd, &out, &e), &e, "layout");
  fz_ok_tuple(cute_layout_slice(&O, &out, &L, &crd, &e), &e, "slice");
  fz_ok_tuple(cute_layout_flatten(&O, &L, &e), &e, "flatten");
  fz_ok_tuple(cute_upcast(&O, &L, 2, &e), &e, "upcast");
  fz_ok_tuple(cute_downcast(&O, &L, 2, &e), &e, "downcast");
  if (L.shape.nleaf <= CUTE_MAX_LEAVES && L.shape.nleaf == L.stride.nleaf)
    fz_ok_tuple(cute_layout_eval_index(&L, 5, &v, &e), &e, "layout");
  /* A well-formed one, as cute_layout_make would accept it, evaluates to
   * the reference values. */
  if (cute_tuple_check(&L.shape, NULL) == CUTE_OK &&
      cute_tuple_check(&L.stride, NULL) == CUTE_OK &&
      cute_congruent(&L.shape, &L.stride) && positive(&L.shape) &&
      !cute_layout_has_basis(&L))
    for (v = -2; v < 64; v += 3)
      fz_eval(&L, v, &n64);
  return 0;
}
