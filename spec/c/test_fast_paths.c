/*
 * test_fast_paths.c -- the algebra's fast paths for common inputs give
 * what its general paths give (leaves.h): the same status and, on
 * success, the same layout, on thousands of seeded random inputs
 * (rank-1, size-1, stride-0, negative, overflowing and non-injective ones
 * included), also with `out` aliasing the operand.
 */
#include "testlib.h"
#include "leaves.h"
#include "tiling.h"

#include <stdio.h>
#include <string.h>

/* A's strides negated at random, some scaled far (index and extent
 * overflows), some made basis strides (the fast paths must step aside). */
static void perturb(test_rng *r, cute_layout *A)
{
  int k;
  for (k = 0; k < A->stride.nleaf; k++) {
    int64_t pick = rng_range(r, 0, 39);
    if (pick == 0) A->stride.v[k] = -A->stride.v[k];
    else if (pick == 1) A->shape.v[k] = (int64_t)1 << 40;
    else if (pick == 2) A->stride.v[k] = (int64_t)1 << 61;
    else if (pick == 3) A->stride.e[k] = CUTE_BASIS1(rng_range(r, 0, 1));
  }
}

static cute_layout random_layout(test_rng *r, int t)
{
  cute_layout A = t % 2 ? rng_injective_layout(r, 3, 6, 1024)
                        : rng_layout(r, 3, 6, 8, 4096);
  if (t % 5 == 0) perturb(r, &A);
  return A;
}

/* The same message, but for the failing mode that the one-pass by-mode
 * composition names ("composition(A, <T>): mode 1: composition(...)")
 * and the mode-by-mode general path does not. */
static int same_message(const char *fast, const char *general)
{
  const char *m = strstr(fast, "): mode ");
  size_t n;
  if (strcmp(fast, general) == 0) return 1;
  if (!m) return 0;
  n = (size_t)(m - fast) + 3; /* through "): " */
  m += 8;
  while (*m >= '0' && *m <= '9') m++;
  return strncmp(fast, general, n) == 0 && strncmp(m, ": ", 2) == 0 &&
         strcmp(m + 2, general + n) == 0;
}

/* Same status, and the same layout on success, the same message on
 * failure (e1, e2: the errors the two paths filled). */
static void same(const char *op, const cute_layout *A, int64_t arg,
                 cute_status s1, const cute_layout *R1, const cute_error *e1,
                 cute_status s2, const cute_layout *R2, const cute_error *e2)
{
  char a[256], b[256];
  CHECK(s1 == s2, "%s(%s, %lld): fast %s, general %s", op, S(A),
        (long long)arg, cute_status_name(s1), cute_status_name(s2));
  if (s1 != s2) return;
  if (s1 != CUTE_OK) {
    CHECK(same_message(e1->msg, e2->msg), "%s(%s, %lld): fast \"%s\", "
          "general \"%s\"", op, S(A), (long long)arg, e1->msg, e2->msg);
    return;
  }
  cute_layout_print(R1, a, sizeof a);
  cute_layout_print(R2, b, sizeof b);
  CHECK(strcmp(a, b) == 0 && cute_layout_equal(R1, R2),
        "%s(%s, %lld): fast %s, general %s", op, S(A), (long long)arg, a, b);
}

/* One leaf s:d, as an integer or as (s):(d): the closed-form complement's
 * inputs, with their edges (size 1, stride 0, 1, negative, overflowing,
 * a basis, a binary stride). */
static cute_layout one_leaf(test_rng *r)
{
  static const char *const edges[] = {"1:0", "1:5", "7:0", "4:1", "(4):(1)",
                                      "8:-2", "(3):(1@0)", "4:F3", "4:0@1",
                                      "4611686018427387904:4", "(5):(0)"};
  char text[64];
  int64_t pick = rng_range(r, 0, 3);
  if (pick == 0) return L(edges[rng_range(r, 0, 10)]);
  snprintf(text, sizeof text, pick == 1 ? "(%lld):(%lld)" : "%lld:%lld",
           (long long)rng_range(r, 1, 12), (long long)rng_range(r, 0, 64));
  return L(text);
}

/* A flat (s0,..):(d0,..) of 2-4 leaves, the two-leaf closed form's inputs
 * and their neighbours: strides that nest in a shuffled order (cur*k, k
 * in 1..3: holes of size 1 and larger, some not dividing), with size-1,
 * stride-0, equal, negative, basis and overflowing leaves mixed in; *M a
 * cotarget that covers the layout exactly, leaves a remainder, or is 0. */
static cute_layout few_leaves(test_rng *r, int64_t *M)
{
  int64_t s[4], d[4], cur = 1;
  int n = (int)rng_range(r, 2, 4), i, k, at = 0;
  char text[256];
  for (i = 0; i < n; i++) {
    int64_t pick = rng_range(r, 0, 19);
    s[i] = pick == 0 ? 1 : rng_range(r, 2, 6);
    d[i] = cur * rng_range(r, 1, 3);
    if (pick == 1) d[i] = 0;
    else if (pick == 2 && i > 0) d[i] = d[i - 1];
    else if (pick == 3) d[i] = -d[i];
    else if (pick == 4) d[i] = (int64_t)1 << 61;
    else if (pick == 5) s[i] = (int64_t)1 << 62;
    if (d[i] > 0 && d[i] < (1 << 20) && s[i] < (1 << 20)) cur = s[i] * d[i];
  }
  for (i = n - 1; i > 0; i--) { /* shuffle: the path must sort */
    int64_t j = rng_range(r, 0, i), t = s[i];
    s[i] = s[j], s[j] = t, t = d[i], d[i] = d[j], d[j] = t;
  }
  for (i = 0; i < n; i++)
    at += snprintf(text + at, sizeof text - (size_t)at, "%s%lld",
                   i ? "," : "(", (long long)s[i]);
  for (i = 0; i < n; i++)
    at += snprintf(text + at, sizeof text - (size_t)at, "%s%lld%s",
                   i ? "," : "):(", (long long)d[i],
                   rng_range(r, 0, 29) == 0 ? "@1" : "");
  snprintf(text + at, sizeof text - (size_t)at, ")");
  k = (int)rng_range(r, 0, 3);
  *M = k == 0 ? 0 : k == 1 ? cur * rng_range(r, 1, 4)
                           : cur * rng_range(r, 1, 4) + rng_range(r, -3, 3);
  return L(text);
}

static void complement(test_rng *r, int t)
{
  int64_t M = rng_range(r, 0, 3) == 0 ? 0 : rng_range(r, 1, 5000);
  cute_layout A = t % 4 == 0 ? one_leaf(r) : t % 4 == 1 ? few_leaves(r, &M)
                                                          : random_layout(r, t);
  cute_layout R1, R2, X;
  cute_error e1, e2;
  cute_status s1 = cute_complement(&R1, &A, M, &e1);
  cute_status s2 = cute_complement_general(&R2, &A, M, &e2);
  same("complement", &A, M, s1, &R1, &e1, s2, &R2, &e2);
  X = A; /* out aliasing the operand */
  s1 = cute_complement(&X, &X, M, &e1);
  same("complement (aliased)", &A, M, s1, &X, &e1, s2, &R2, &e2);
}

typedef cute_status (*unary_fn)(cute_layout *out, const cute_layout *L,
                                cute_error *err);

static void unary(test_rng *r, int t, const char *op, unary_fn fast,
                  unary_fn general)
{
  cute_layout A = random_layout(r, t), R1, R2, X;
  cute_error e1, e2;
  cute_status s1 = fast(&R1, &A, &e1), s2 = general(&R2, &A, &e2);
  same(op, &A, 0, s1, &R1, &e1, s2, &R2, &e2);
  X = A;
  s1 = fast(&X, &X, &e1);
  same(op, &A, 0, s1, &X, &e1, s2, &R2, &e2);
}

/* A layout of one leaf t:u, the common tile, for the closed forms: t
 * and u small (size 1, stride 0 and negative now and then), or huge. */
static cute_layout leaf_layout(test_rng *r)
{
  cute_layout B;
  cute_tuple_int(&B.shape, rng_range(r, 1, 20));
  cute_tuple_int(&B.stride, rng_range(r, -1, 9));
  if (rng_range(r, 0, 30) == 0) B.stride.v[0] = (int64_t)1 << 61;
  if (rng_range(r, 0, 30) == 0) B.shape.v[0] = (int64_t)1 << 40;
  return B;
}

/* A tiler for A: one layout (tok "L"), `_`, a flat list of up to rank(A)
 * layouts (ntok 0, or tokens "<LL>"), or a list with `_` or a nested list
 * in it (which the one-pass forms leave to the general path); its layouts
 * small injective ones that often divide A's modes, sometimes any layout
 * (divisibility failures, stride-0 modes), often one leaf. */
static void random_tiler(test_rng *r, cute_tiler *T, const cute_layout *A)
{
  static const char *const shapes[] = {"L", "_", "<L_>", "<_L>", "<<L>L>",
                                       "<LL>"};
  int i, rank = cute_layout_rank(A), pick = (int)rng_range(r, 0, 10);
  if (pick < 6) {
    T->ntok = (uint8_t)strlen(shapes[pick]);
    memcpy(T->tok, shapes[pick], T->ntok);
    for (T->n = 0, i = 0; i < T->ntok; i++) T->n += T->tok[i] == 'L';
  } else {
    T->ntok = 0;
    T->n = (int)rng_range(r, 1, rank < 3 ? rank : 3);
  }
  for (i = 0; i < T->n; i++) {
    cute_layout *B = &T->mode[i];
    int k, pick2 = (int)rng_range(r, 0, 7);
    *B = pick2 < 2 ? rng_layout(r, 2, 3, 4, 16)
         : pick2 < 5 ? rng_injective_layout(r, 2, 3, 16) : leaf_layout(r);
    if (rng_range(r, 0, 7) == 0) /* a coordinate tiler */
      for (k = 0; k < B->stride.nleaf; k++)
        if (B->stride.v[k] != 0)
          B->stride.e[k] = CUTE_BASIS1(rng_range(r, 0, 1));
  }
}

/* A sum stride in A (stride.c's compositions), now and then. */
static cute_layout with_sum(test_rng *r, cute_layout A)
{
  static const char *const sums[] = {"(4,8):(1@0+1@1,2@1)",
                                     "((2,2),4):((1@0,1@1),1@0+2@1)",
                                     "(8,8):(9,1)", "(4,2,3):(2,1,8)"};
  return rng_range(r, 0, 9) == 0 ? L(sums[rng_range(r, 0, 3)]) : A;
}

/* A left operand for a tiler: as above, or flat (modes of one leaf: the
 * divide's closed form) as often. */
static cute_layout random_operand(test_rng *r, int t)
{
  cute_layout A;
  if (rng_range(r, 0, 1)) return with_sum(r, random_layout(r, t));
  A = rng_layout(r, 1, 4, 64, 1 << 16);
  if (t % 7 == 0) perturb(r, &A);
  return A;
}

typedef cute_status (*tiler_fn)(cute_layout *out, const cute_layout *A,
                                const cute_tiler *T, cute_error *err);

typedef cute_status (*tiler_general_fn)(cute_layout *, const cute_layout *,
                                        const cute_tiler *, int,
                                        cute_error *);

/* The fast form and the general one of the operation by T over A,
 * arranged by how: the same status, message and layout, also with out
 * aliasing A or a layout of T. */
static void compare_tiler(const char *op, int how, tiler_general_fn general,
                          tiler_fn fast, const cute_layout *Ain,
                          cute_tiler *T, int *ok)
{
  cute_layout A = *Ain, R1, R2, X;
  cute_error e1, e2;
  cute_status s1, s2;
  s1 = fast(&R1, &A, T, &e1);
  s2 = general(&R2, &A, T, how, &e2);
  same(op, &A, T->n, s1, &R1, &e1, s2, &R2, &e2);
  *ok += s2 == CUTE_OK;
  X = A;
  s1 = fast(&X, &X, T, &e1);
  same(op, &A, T->n, s1, &X, &e1, s2, &R2, &e2);
  if (T->n > 0) { /* out aliasing a layout of the tiler */
    X = T->mode[0];
    s1 = fast(&T->mode[0], &A, T, &e1);
    same(op, &A, T->n, s1, &T->mode[0], &e1, s2, &R2, &e2);
    T->mode[0] = X;
  }
  if (T->n > 1) { /* and the last one */
    X = T->mode[T->n - 1];
    s1 = fast(&T->mode[T->n - 1], &A, T, &e1);
    same(op, &A, T->n, s1, &T->mode[T->n - 1], &e1, s2, &R2, &e2);
    T->mode[T->n - 1] = X;
  }
}

/* compare_tiler on a random operand and tiler. */
static void by_tiler(test_rng *r, int t, const char *op, int how,
                     tiler_general_fn general, tiler_fn fast, int *ok)
{
  static cute_tiler T; /* 31 KB: not on the stack */
  cute_layout A = random_operand(r, t);
  random_tiler(r, &T, &A);
  compare_tiler(op, how, general, fast, &A, &T, ok);
}

/* One leaf value of a tile operand: small, now and then 1, 0, negative
 * or huge (index and extent overflows). */
static int64_t tile_value(test_rng *r, int64_t lo, int64_t hi, int shape)
{
  int64_t pick = rng_range(r, 0, 24);
  if (pick == 0) return (int64_t)1 << (shape ? 40 : 61);
  if (pick == 1) return shape ? 1 : 0;
  if (pick == 2 && !shape) return -rng_range(r, 1, 8);
  if (pick == 3 && shape) return (int64_t)1 << 62;
  return rng_range(r, lo, hi);
}

/* A's mode text at *at: a leaf, or a flat group of 2-5 leaves (now and
 * then nested, or empty), strides mostly nesting (a prefix product of the
 * shape, times 1-3) so that the paper's conditions often hold;
 * pre[k] the products of the shapes before leaf k. */
static void tile_mode_text(test_rng *r, char *s, char *d, int64_t *pre,
                           int *np)
{
  int64_t cur = tile_value(r, 1, 7, 0), k, n = rng_range(r, 0, 2) ? 1
                                               : rng_range(r, 2, 5);
  int64_t pick = rng_range(r, 0, 40), prod = 1;
  if (pick == 0) {
    strcat(s, "()"), strcat(d, "()"); /* no leaves: refused */
    return;
  }
  if (n > 1 || pick == 1) strcat(s, pick == 1 ? "((" : "("),
                          strcat(d, pick == 1 ? "((" : "(");
  for (k = 0; k < n; k++) {
    int64_t sk = tile_value(r, 1, 8, 1);
    char b[48];
    snprintf(b, sizeof b, "%s%lld", k ? "," : "", (long long)sk);
    strcat(s, b);
    snprintf(b, sizeof b, "%s%lld", k ? "," : "", (long long)cur);
    strcat(d, b);
    if (*np < 8) pre[(*np)++] = prod;
    if (sk < (1 << 20) && prod < (1 << 20)) prod *= sk;
    if (cur > 0 && cur < (1 << 20) && sk < (1 << 20))
      cur = rng_range(r, 0, 5) ? cur * sk * rng_range(r, 1, 3)
                               : tile_value(r, 0, 64, 0);
  }
  if (n > 1 || pick == 1) strcat(s, pick == 1 ? "))" : ")"),
                          strcat(d, pick == 1 ? "))" : ")");
}

/* A the tile operand of the closed forms (modes of one leaf or flat
 * groups of integral leaves, rank 1-4, rank 1 as an integer too, a basis
 * or a sum stride now and then), T a flat tiler of one-leaf layouts t:u
 * over its first modes (u a prefix product of the mode's shape, times
 * 1-2, half the time), its length rank(A) - 1 .. rank(A) + 1, as ntok 0
 * or tokens, now and then with `_` or one layout not a leaf. */
static void tile_operands(test_rng *r, cute_layout *A, cute_tiler *T)
{
  char s[512] = "", d[512] = "", text[1100];
  int64_t pre[4][8];
  int np[4] = {0, 0, 0, 0}, i, rank = (int)rng_range(r, 1, 4);
  int group = rank > 1 || rng_range(r, 0, 1);
  for (i = 0; i < rank; i++) {
    if (i) strcat(s, ","), strcat(d, ",");
    tile_mode_text(r, s, d, pre[i], &np[i]);
  }
  snprintf(text, sizeof text, group ? "(%s):(%s)" : "%s:%s", s, d);
  *A = rng_range(r, 0, 15) ? L(text) : with_sum(r, L(text));
  if (rng_range(r, 0, 30) == 0) A->stride.e[0] = CUTE_BASIS1(0);
  T->n = (int)rng_range(r, rank > 1 ? rank - 1 : 1, rank + 1);
  T->ntok = 0;
  if (rng_range(r, 0, 2) == 0) { /* as tokens: "<LL>", one maybe `_` */
    int under = rng_range(r, 0, 5) == 0 ? (int)rng_range(r, 0, T->n) : -1;
    T->ntok = (uint8_t)(T->n + 2);
    memset(T->tok, 'L', T->ntok);
    T->tok[0] = '<';
    T->tok[T->ntok - 1] = '>';
    if (under >= 0 && under < T->n) T->tok[1 + under] = '_', T->n--;
  }
  for (i = 0; i < T->n; i++) {
    int64_t u = tile_value(r, 0, 9, 0);
    if (i < rank && np[i] && rng_range(r, 0, 1))
      u = pre[i][rng_range(r, 0, np[i] - 1)] * rng_range(r, 1, 2);
    cute_tuple_int(&T->mode[i].shape, tile_value(r, 1, 16, 1));
    cute_tuple_int(&T->mode[i].stride, u);
    if (rng_range(r, 0, 40) == 0) T->mode[i] = L("(2,2):(1,4)");
  }
}

/* A right operand for A: leaves that walk A's modes (a prefix product of
 * A's shape, times 2 now and then: the admissible case), or any layout
 * (divisibility and carry failures, stride 0), now and then a stride
 * negated, made a basis or made huge (the integral pass must step
 * aside or fail as the general path does). */
static cute_layout random_b(test_rng *r, const cute_layout *A)
{
  cute_layout B = rng_range(r, 0, 2) ? rng_layout(r, 2, 4, 6, 64)
                                      : rng_injective_layout(r, 2, 4, 64);
  int k, i, j;
  for (k = 0; k < B.stride.nleaf && rng_range(r, 0, 1); k++) {
    int64_t pre = 1;
    j = (int)rng_range(r, 0, A->shape.nleaf - 1);
    for (i = 0; i < j && pre < ((int64_t)1 << 40); i++) pre *= A->shape.v[i];
    B.stride.v[k] = pre * rng_range(r, 1, 2);
  }
  for (k = 0; k < B.stride.nleaf; k++) {
    int64_t pick = rng_range(r, 0, 29);
    if (pick == 0) B.stride.v[k] = -B.stride.v[k];
    else if (pick == 1 && B.stride.v[k] != 0)
      B.stride.e[k] = CUTE_BASIS1(rng_range(r, 0, 1));
    else if (pick == 2) B.stride.v[k] = (int64_t)1 << 62;
  }
  return B;
}

/* cute_composition against the general path on A o B: the same status,
 * message and layout, also with out aliasing A or B. */
static void same_composition(const cute_layout *A, const cute_layout *B,
                             int t, int *ok)
{
  cute_layout R1, R2, X;
  cute_error e1, e2;
  cute_status s1 = cute_composition(&R1, A, B, &e1);
  cute_status s2 = cute_composition_general(&R2, A, B, &e2);
  same("composition", A, t, s1, &R1, &e1, s2, &R2, &e2);
  *ok += s2 == CUTE_OK;
  X = *A;
  s1 = cute_composition(&X, &X, B, &e1);
  same("composition (out = A)", A, t, s1, &X, &e1, s2, &R2, &e2);
  X = *B;
  s1 = cute_composition(&X, A, &X, &e1);
  same("composition (out = B)", A, t, s1, &X, &e1, s2, &R2, &e2);
}

static void composition(test_rng *r, int t, int *ok)
{
  cute_layout A = with_sum(r, random_layout(r, t)), B = random_b(r, &A);
  same_composition(&A, &B, t, ok);
}

/* The layout of the nesting tok (one 'x' a leaf) with leaves s[k]:d[k],
 * integral but where e[k] (a basis stride). */
static cute_layout nested(const char *tok, const int64_t *s,
                          const int64_t *d, const cute_basis *e)
{
  cute_layout X;
  int k;
  cute_tuple_clear(&X.shape);
  X.shape.ntok = (uint8_t)strlen(tok);
  memcpy(X.shape.tok, tok, X.shape.ntok);
  for (k = 0; k < X.shape.ntok; k++) X.shape.nleaf += tok[k] == 'x';
  X.stride = X.shape;
  for (k = 0; k < X.shape.nleaf; k++) {
    X.shape.v[k] = s[k];
    X.shape.e[k] = 0;
    X.stride.v[k] = d[k];
    X.stride.e[k] = e[k];
  }
  return X;
}

static int64_t one_of(test_rng *r, const int64_t *v, int n)
{
  return v[rng_range(r, 0, n - 1)];
}

/* An A of one or two leaves in any nesting, the closed form's left
 * operands: leaf 1 continuing leaf 0 (A is then one mode) or not,
 * size-1 leaves, stride 0, negative, huge strides and shapes (overflow),
 * edges of the merge (a trailing size-1 leaf continuing at INT64_MAX, a
 * merged shape past 64 bits), now and then a basis stride, a third leaf
 * or none (the closed form steps aside). */
static cute_layout closed_a(test_rng *r)
{
  static const char *const nests[] = {"x", "(x)", "(xx)", "((x)x)",
                                      "(x(x))", "((xx))", "(xxx)"};
  static const int64_t shapes[] = {1, 2, 3, 4, 6, 8, 12, 16, 2, 4, 8, 5,
                                   (int64_t)1 << 40};
  static const int64_t strides[] = {1, 2, 3, 8, 1, 2, 4, 0, -2,
                                    (int64_t)1 << 61, 5, 16, 64};
  static const char *const edges[] = {
      "(7,1):(1317624576693539401,9223372036854775807)",
      "(7,1):(1317624576693539401,1317624576693539401)",
      "(1099511627776,1099511627776):(1,1099511627776)",
      "(1,1):(3,5)", "(4,1):(1,4)", "((4),(1)):((2),(9))", "():()"};
  int64_t s[3], d[3], pick, t;
  cute_basis e[3] = {0, 0, 0};
  int k, nest = (int)rng_range(r, 0, 6);
  if (rng_range(r, 0, 19) == 0) return L(edges[rng_range(r, 0, 6)]);
  for (k = 0; k < 3; k++) {
    s[k] = one_of(r, shapes, rng_range(r, 0, 9) ? 12 : 13);
    d[k] = one_of(r, strides, rng_range(r, 0, 9) ? 9 : 13);
  }
  pick = rng_range(r, 0, 9);
  if (pick < 4 && !cute_mul(s[0], d[0], &t)) d[1] = t; /* one mode */
  else if (pick == 4) d[1] = INT64_MAX, s[1] = 1;
  else if (pick == 5) d[1] = -s[0];
  if (rng_range(r, 0, 39) == 0) e[rng_range(r, 0, 1)] = CUTE_BASIS1(0);
  return nested(nests[nest], s, d, e);
}

/* A B of one to four leaves that walk closed_a's A: strides dividing
 * its first leaf, multiples of it (whole steps), the size of A (past
 * it), small ones; shapes that make the split's pieces divide or not;
 * with stride 0, size-1, negative, huge (overflow) and basis leaves;
 * nestings at the closed form's limits and past them (depth 8: a group
 * in it is too deep), no leaf. */
static cute_layout closed_b(test_rng *r, const cute_layout *A)
{
  static const char *const nests[] = {
      "x", "(x)", "(xx)", "(xxx)", "(xxxx)", "((xx)x)", "(x(xx))",
      "((xx)(xx))", "(((((((x)))))))", "(((((((xx)))))))",
      "((((((((x))))))))", "(xxxxx)", "()"};
  static const int64_t shapes[] = {1, 2, 3, 4, 6, 8, 16, 2, 4, 32};
  int64_t s[5], d[5], s0 = A->shape.nleaf ? A->shape.v[0] : 1, size, pick;
  cute_basis e[5] = {0, 0, 0, 0, 0};
  int k, nest = (int)rng_range(r, 0, 12);
  if (s0 == 1 && A->shape.nleaf > 1) s0 = A->shape.v[1];
  if (cute_layout_size(A, &size, NULL) || size > ((int64_t)1 << 60))
    size = (int64_t)1 << 60;
  for (k = 0; k < 5; k++) {
    s[k] = one_of(r, shapes, 10);
    pick = rng_range(r, 0, 24);
    if (pick < 6) d[k] = s0 / rng_range(r, 1, 4);
    else if (pick < 10 && s0 <= size) d[k] = s0 * rng_range(r, 1, 3);
    else if (pick < 12) d[k] = size * rng_range(r, 1, 2);
    else if (pick < 18) d[k] = rng_range(r, 1, 6);
    else if (pick < 20) d[k] = 0;
    else if (pick == 20) d[k] = -rng_range(r, 1, 8);
    else if (pick == 21) d[k] = (int64_t)1 << 62;
    else if (pick == 22) d[k] = (int64_t)1 << 40, s[k] = 1;
    else d[k] = s0 / 2;
    if (d[k] == 0 && pick < 12) d[k] = 1;
    if (rng_range(r, 0, 49) == 0) e[k] = CUTE_BASIS1(0);
    if (rng_range(r, 0, 1) == 0 && d[k] > 0 && d[k] < s0 &&
        s0 <= size)
      s[k] = s0 / d[k] * rng_range(r, 1, 4); /* a split that divides */
  }
  return nested(nests[nest], s, d, e);
}

/* The closed form's domain and its edges. */
static void closed_composition(test_rng *r, int t, int *ok)
{
  cute_layout A = closed_a(r), B = closed_b(r, &A);
  same_composition(&A, &B, t, ok);
}

/* X with flat tokens ("x" or "(x...x)") when it has 1..4 leaves, the
 * same leaves. */
static cute_layout flat_of(cute_layout X)
{
  int n = X.shape.nleaf;
  if (n >= 1 && n <= 4) {
    cute_flat_head(&X.shape, n);
    cute_flat_head(&X.stride, n);
  }
  return X;
}

/* A flat tile of 1..4 leaves: the prefix products of its shapes as
 * strides, shuffled, at most one of them scaled by 2 or 3 (a hole: A's
 * complement has two modes), and one of few_leaves' edges now and then
 * (size 1, stride 0, a stride equal to another, negative, huge, a
 * basis). */
static cute_layout flat_tile(test_rng *r)
{
  static const char *const flat[] = {"x", "(xx)", "(xxx)", "(xxxx)"};
  int64_t s[4], d[4], cur = 1;
  cute_basis e[4] = {0, 0, 0, 0};
  int n = (int)rng_range(r, 1, 4), i, hole = (int)rng_range(r, 0, 2 * n);
  for (i = 0; i < n; i++) {
    s[i] = rng_range(r, 2, 8);
    d[i] = cur * (i == hole ? rng_range(r, 2, 3) : 1);
    cur = s[i] * d[i];
  }
  for (i = n - 1; i > 0; i--) { /* shuffle */
    int64_t j = rng_range(r, 0, i), t = s[i];
    s[i] = s[j], s[j] = t, t = d[i], d[i] = d[j], d[j] = t;
  }
  i = (int)rng_range(r, 0, n - 1);
  switch (rng_range(r, 0, 15)) {
  case 0: s[i] = 1; break;
  case 1: d[i] = 0; break;
  case 2: d[i] = d[(i + 1) % n]; break;
  case 3: d[i] = -d[i]; break;
  case 4: d[i] = (int64_t)1 << 61; break;
  case 5: s[i] = (int64_t)1 << 40; break;
  case 6: e[i] = CUTE_BASIS1(rng_range(r, 0, 1)); break;
  }
  return nested(flat[n - 1], s, d, e);
}

/* The logical product's closed form (A and B flat of 1..4 leaves, A's
 * complement one or two modes) and its edges: A a flat tile, or as the
 * complement's and the composition's closed forms draw it (holes,
 * shuffled strides, size 1, stride 0, negative, basis, overflowing and
 * nested leaves), B as the composition's, flattened or not; T one
 * layout. */
static void closed_product(test_rng *r, int t, int *ok)
{
  static cute_tiler T; /* 31 KB: not on the stack */
  int64_t M;
  cute_layout A = t % 4 < 2 ? flat_tile(r) : t % 4 == 2 ? few_leaves(r, &M)
                                                        : closed_a(r);
  T.n = 1;
  T.ntok = 1;
  T.tok[0] = 'L';
  T.mode[0] = closed_b(r, &A);
  if (rng_range(r, 0, 3)) T.mode[0] = flat_of(T.mode[0]);
  compare_tiler("logical_product", -1, cute_product_general,
                cute_logical_product, &A, &T, ok);
}

static cute_status compose_general(cute_layout *out, const cute_layout *A,
                                   const cute_layout *B, cute_error *err)
{
  return cute_composition_general(out, A, B, err);
}

/* Composition by a tiler, mode by mode through the general path (how:
 * none, -1). */
static cute_status composition_tiler_general(cute_layout *out,
                                             const cute_layout *A,
                                             const cute_tiler *T, int how,
                                             cute_error *err)
{
  cute_status st = cute_tiler_check(T, err);
  (void)how;
  if (st) return st;
  if (cute_tiler_tok(T, 0) == 'L')
    return cute_composition_general(out, A, &T->mode[0], err);
  st = cute_tiler_apply(out, A, T, 0, compose_general, err);
  return cute_tiler_context(err, st, "composition", A, T);
}

/* A tile coordinate: a flat tuple of integers and `_`, often as long
 * as the tiler, sometimes longer, an integer or nested. */
static cute_tuple random_coord(test_rng *r, int n)
{
  cute_tuple c;
  int i, k = (int)rng_range(r, 0, n + 1);
  cute_tuple_clear(&c);
  if (rng_range(r, 0, 9) == 0) {
    cute_tuple_int(&c, rng_range(r, 0, 9));
    return c;
  }
  cute_tuple_open(&c, NULL);
  for (i = 0; i < k; i++) {
    int64_t pick = rng_range(r, 0, 9);
    if (pick == 0) cute_tuple_open(&c, NULL); /* nested */
    cute_tuple_leaf(&c, pick < 3 ? CUTE_UNDERSCORE : rng_range(r, -1, 40), 0,
                    NULL);
    if (pick == 0) cute_tuple_close(&c, NULL);
  }
  cute_tuple_close(&c, NULL);
  return c;
}

/* local_tile's closed form against its general path: status, message,
 * layout and offset, also with out aliasing A. */
static void local_tile(test_rng *r, int t, int *ok)
{
  static cute_tiler T;
  cute_layout A = random_operand(r, t), R1, R2, X;
  cute_tuple c, o1, o2;
  cute_error e1, e2;
  cute_status s1, s2;
  char a[64], b[64];
  random_tiler(r, &T, &A);
  c = random_coord(r, T.n);
  s1 = cute_local_tile(&R1, &o1, &A, &T, &c, NULL, &e1);
  s2 = cute_local_tile_general(&R2, &o2, &A, &T, &c, &e2);
  same("local_tile", &A, T.n, s1, &R1, &e1, s2, &R2, &e2);
  *ok += s2 == CUTE_OK;
  if (s1 != CUTE_OK || s2 != CUTE_OK) return;
  cute_tuple_print(&o1, a, sizeof a);
  cute_tuple_print(&o2, b, sizeof b);
  CHECK(strcmp(a, b) == 0, "local_tile(%s): offset %s, general %s", S(&A),
        a, b);
  X = A;
  s1 = cute_local_tile(&X, &o1, &X, &T, &c, NULL, &e1);
  same("local_tile (out = A)", &A, T.n, s1, &X, &e1, s2, &R2, &e2);
}

/* local_partition's closed form against its general path, as above;
 * the thread layout often a flat group of leaves (the closed form). */
static void local_partition(test_rng *r, int t, int *ok)
{
  cute_layout A = random_operand(r, t), thr, R1, R2, X;
  cute_tuple o1, o2;
  cute_error e1, e2;
  cute_status s1, s2;
  int64_t index = rng_range(r, -2, 300);
  char a[64], b[64];
  thr = rng_range(r, 0, 2) ? rng_layout(r, 1, 3, 8, 64)
                           : rng_injective_layout(r, 2, 3, 64);
  if (rng_range(r, 0, 15) == 0) thr.stride.e[0] = CUTE_BASIS1(0);
  s1 = cute_local_partition(&R1, &o1, &A, &thr, index, NULL, &e1);
  s2 = cute_local_partition_general(&R2, &o2, &A, &thr, index, &e2);
  same("local_partition", &A, index, s1, &R1, &e1, s2, &R2, &e2);
  *ok += s2 == CUTE_OK;
  if (s1 != CUTE_OK || s2 != CUTE_OK) return;
  cute_tuple_print(&o1, a, sizeof a);
  cute_tuple_print(&o2, b, sizeof b);
  CHECK(strcmp(a, b) == 0, "local_partition(%s): offset %s, general %s",
        S(&A), a, b);
  X = A;
  s1 = cute_local_partition(&X, &o1, &X, &thr, index, NULL, &e1);
  same("local_partition (out = A)", &A, index, s1, &X, &e1, s2, &R2, &e2);
}

/* The closed forms of the tile of a matrix (tiler.c's composition, the
 * divides) against the general paths, on tile_operands. */
static void closed_tile(test_rng *r, int *composed, int *divided)
{
  static cute_tiler T;
  cute_layout A;
  tile_operands(r, &A, &T);
  compare_tiler("composition (tile)", -1, composition_tiler_general,
                cute_composition_tiler, &A, &T, composed);
  compare_tiler("logical_divide (tile)", -1, cute_divide_general,
                cute_logical_divide, &A, &T, divided);
}

/* A flat A of 9-13 one-leaf modes divided by as many one-leaf layouts:
 * the tile's closed form where its room for the longest head (3 leaves
 * a mode) runs out before the exact count does (all rests of one leaf),
 * or where the exact count passes the limit too (rests of two leaves:
 * u > 1 and a size past t*u).  And composed with them: tiler.c's closed
 * form tests its bounds only past its first TILE_MODES (8) modes. */
static void wide_tile(test_rng *r, int *ok)
{
  static cute_tiler T;
  char s[512] = "(", d[512] = "(", b[48];
  cute_layout A;
  int i, n = (int)rng_range(r, 9, 13);
  T.n = n;
  T.ntok = 0;
  for (i = 0; i < n; i++) {
    int64_t t = rng_range(r, 2, 4), u = rng_range(r, 0, 3) ? 1 : 2;
    snprintf(b, sizeof b, "%s%lld", i ? "," : "",
             (long long)(t * u * rng_range(r, 1, 3)));
    strcat(s, b);
    snprintf(b, sizeof b, "%s%lld", i ? "," : "",
             (long long)rng_range(r, 1, 9));
    strcat(d, b);
    cute_tuple_int(&T.mode[i].shape, t);
    cute_tuple_int(&T.mode[i].stride, u);
  }
  strcat(s, "):");
  strcat(d, ")");
  A = L(strcat(s, d));
  compare_tiler("logical_divide (wide tile)", -1, cute_divide_general,
                cute_logical_divide, &A, &T, ok);
  compare_tiler("composition (wide tile)", -1, composition_tiler_general,
                cute_composition_tiler, &A, &T, ok);
}

int main(void)
{
  static const tiler_fn divides[] = {cute_zipped_divide, cute_tiled_divide,
                                     cute_flat_divide};
  static const tiler_fn products[] = {cute_zipped_product,
                                      cute_tiled_product, cute_flat_product};
  test_rng r, rt;
  int t, how, divided = 0, multiplied = 0, arranged = 0, composed = 0;
  int wide = 0;
  int tiled = 0, tiles = 0, parts = 0, tile_comp = 0, tile_div = 0;
  int closed = 0, products_closed = 0;
  rng_seed(&r, 15);
  for (t = 0; t < 40000; t++) closed_composition(&r, t, &closed);
  rng_seed(&r, 14);
  rng_seed(&rt, 15); /* its own stream: the others' inputs stay as they were */
  for (t = 0; t < 20000; t++) closed_tile(&rt, &tile_comp, &tile_div);
  rng_seed(&rt, 16);
  for (t = 0; t < 20000; t++) closed_product(&rt, t, &products_closed);
  rng_seed(&rt, 17);
  for (t = 0; t < 2000; t++) wide_tile(&rt, &wide);
  for (t = 0; t < 20000; t++) {
    composition(&r, t, &composed);
    by_tiler(&r, t, "composition", -1, composition_tiler_general,
             cute_composition_tiler, &tiled);
  }
  for (t = 0; t < 20000; t++) {
    complement(&r, t);
    unary(&r, t, "right_inverse", cute_right_inverse,
          cute_right_inverse_general);
    unary(&r, t, "left_inverse", cute_left_inverse,
          cute_left_inverse_general);
  }
  for (t = 0; t < 20000; t++) {
    local_tile(&r, t, &tiles);
    local_partition(&r, t, &parts);
  }
  for (t = 0; t < 10000; t++) {
    by_tiler(&r, t, "logical_divide", -1, cute_divide_general,
             cute_logical_divide, &divided);
    by_tiler(&r, t, "logical_product", -1, cute_product_general,
             cute_logical_product, &multiplied);
    for (how = CUTE_ZIPPED; how <= CUTE_FLAT; how++) {
      by_tiler(&r, t, "divide arranged", how, cute_divide_general,
               divides[how], &arranged);
      by_tiler(&r, t, "product arranged", how, cute_product_general,
               products[how], &arranged);
    }
  }
  /* Enough of them succeed for the comparison to mean something. */
  CHECK(tiles > 4000 && parts > 4000, "%d local_tiles, %d local_partitions "
        "succeeded", tiles, parts);
  CHECK(divided > 2000 && multiplied > 2000 && arranged > 12000,
        "%d divides, %d products, %d arranged succeeded", divided,
        multiplied, arranged);
  CHECK(tile_comp > 5000 && tile_div > 5000, "%d tile compositions, %d "
        "tile divides succeeded", tile_comp, tile_div);
  CHECK(composed > 6000 && tiled > 6000, "%d compositions, %d by tilers "
        "succeeded", composed, tiled);
  CHECK(closed > 16000, "%d compositions near the closed form succeeded",
        closed);
  CHECK(wide > 1000, "%d wide tile divides succeeded", wide);
  CHECK(products_closed > 4000, "%d products near the closed form "
        "succeeded", products_closed);
  return test_finish();
}
