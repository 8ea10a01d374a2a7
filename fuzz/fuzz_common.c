/*
 * fuzz_common.c -- input decoding, the reference evaluator and the error
 * contract checks shared by the fuzz targets (see fuzz_common.h).
 */
#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- input -- */

int fz_split(fz_input *in, const uint8_t *data, size_t size)
{
  char *p;
  int k;
  if (size > FZ_MAX_INPUT)
    return 0;
  memcpy(in->buf, data, size);
  in->buf[size] = '\0';
  in->n = 1;
  in->f[0] = p = in->buf;
  while (in->n < FZ_MAX_FIELDS && (p = strchr(p, '|')) != NULL) {
    *p++ = '\0';
    in->f[in->n++] = p;
  }
  for (k = in->n; k < FZ_MAX_FIELDS; k++)
    in->f[k] = "";
  return 1;
}

/* ---------------------------------------------------------------- checks -- */

void fz_require(int ok, const char *fmt, ...)
{
  va_list ap;
  if (ok)
    return;
  fputs("fuzz check failed: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

/* Does msg start with an operation name, "name(" or "name:"? */
static int names_operation(const char *msg)
{
  const char *p = msg;
  while ((*p >= 'a' && *p <= 'z') || *p == '_' || (*p >= '0' && *p <= '9'))
    p++;
  return p > msg && (*p == '(' || *p == ':');
}

/* Status, code and a non-empty message; returns 1 for CUTE_OK. */
static int contract(cute_status st, const cute_error *err, const char *op)
{
  const char *nul;
  if (st == CUTE_OK)
    return 1;
  fz_require(st > CUTE_OK && st <= CUTE_ECODOMAIN,
             "%s: unknown status %d", op, (int)st);
  fz_require(err->code == st, "%s: status %s but err->code %s", op,
             cute_status_name(st), cute_status_name(err->code));
  nul = memchr(err->msg, '\0', sizeof err->msg);
  fz_require(nul != NULL && nul > err->msg,
             "%s: %s with an empty or unterminated message", op,
             cute_status_name(st));
  return 0;
}

int fz_ok(cute_status st, const cute_error *err, const char *op)
{
  if (contract(st, err, op))
    return 1;
  fz_require(names_operation(err->msg) ||
                 strncmp(err->msg, "parse error at column ", 22) == 0,
             "%s: %s message names no operation: \"%s\"", op,
             cute_status_name(st), err->msg);
  fz_require(strstr(err->msg, op) != NULL,
             "%s: %s message does not name %s: \"%s\"", op,
             cute_status_name(st), op, err->msg);
  return 0;
}

int fz_ok_tuple(cute_status st, const cute_error *err, const char *op)
{
  return contract(st, err, op);
}

int fz_parsed(cute_status st, const cute_error *err, const char *text)
{
  size_t len = strlen(text);
  char at[48];
  if (fz_ok(st, err, "parse"))
    return 1;
  if (len > CUTE_MAX_TEXT) {
    fz_require(st == CUTE_ELIMIT, "parse of %zu bytes: %s, not CUTE_ELIMIT",
               len, cute_status_name(st));
    return 0;
  }
  fz_require(err->column >= 1 && (size_t)err->column <= len + 1,
             "parse: %s column %d outside the text (%zu bytes): %s",
             cute_status_name(st), err->column, len, err->msg);
  snprintf(at, sizeof at, "at column %d:", err->column);
  fz_require(strstr(err->msg, at) != NULL,
             "parse: message does not say \"%s\": %s", at, err->msg);
  return 0;
}

/* --------------------------------------------------------------- parsing -- */

int fz_layout(cute_layout *L, const char *text)
{
  cute_error e;
  return *text != '\0' && fz_parsed(cute_layout_parse(L, text, &e), &e, text);
}

int fz_tuple(cute_tuple *t, const char *text)
{
  cute_error e;
  return *text != '\0' && fz_parsed(cute_tuple_parse(t, text, &e), &e, text);
}

int fz_int(int64_t *v, const char *text)
{
  cute_tuple t;
  if (!fz_tuple(&t, text) || !cute_tuple_is_int(&t) || t.e[0] != 0 ||
      t.v[0] == CUTE_UNDERSCORE)
    return 0;
  *v = t.v[0];
  return 1;
}

int fz_starts_with(const char *text, const char *prefix)
{
  while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
    text++;
  return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* ---------------------------------------------------------------- values -- */

enum { FZ_TEXT_SLOTS = 8, FZ_TEXT_SIZE = 2 * CUTE_MAX_TEXT };
static char *text_slot(void)
{
  static char buf[FZ_TEXT_SLOTS][FZ_TEXT_SIZE];
  static int next;
  next = (next + 1) % FZ_TEXT_SLOTS;
  return buf[next];
}

const char *fz_text(const cute_layout *L)
{
  char *b = text_slot();
  cute_layout_print(L, b, FZ_TEXT_SIZE);
  return b;
}

const char *fz_ttext(const cute_tuple *t)
{
  char *b = text_slot();
  cute_tuple_print(t, b, FZ_TEXT_SIZE);
  return b;
}

int64_t fz_size(const cute_layout *L)
{
  cute_error e;
  fz_i128 p = 1;
  int64_t n;
  int k, over = 0;
  for (k = 0; k < L->shape.nleaf && !over; k++) {
    p *= L->shape.v[k]; /* both factors < 2^63: no 128-bit overflow */
    over = p > INT64_MAX;
  }
  if (!fz_ok(cute_layout_size(L, &n, &e), &e, "size")) {
    fz_require(over, "size(%s) failed: %s", fz_text(L), e.msg);
    return -1;
  }
  fz_require(!over && n == (int64_t)p, "size(%s) = %lld, product %s",
             fz_text(L), (long long)n, over ? "overflows" : "differs");
  return n;
}

int fz_small(const cute_layout *L)
{
  int64_t n;
  if (cute_layout_has_basis(L))
    return 0;
  n = fz_size(L);
  return n >= 0 && n <= FZ_MAX_SIZE;
}

static fz_i128 floordiv(fz_i128 a, int64_t b)
{
  fz_i128 q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

int fz_ref(const cute_layout *L, int64_t i, fz_i128 *out)
{
  const fz_i128 big = (fz_i128)1 << 125;
  fz_i128 acc = 0, rest = i;
  int k, n = L->shape.nleaf;
  if (cute_layout_has_basis(L))
    return 0;
  for (k = 0; k < n; k++) {
    fz_i128 c = rest;
    if (k + 1 < n) {
      fz_i128 q = floordiv(rest, L->shape.v[k]);
      c = rest - q * L->shape.v[k];
      rest = q;
    }
    /* |c| <= 2^63, |stride| < 2^63, |acc| <= 2^125: no overflow. */
    acc += c * L->stride.v[k];
    if (acc > big || acc < -big)
      return 0;
  }
  *out = acc;
  return 1;
}

int fz_eval(const cute_layout *L, int64_t i, int64_t *out)
{
  cute_error e;
  fz_i128 r;
  cute_status st = cute_layout_eval_index(L, i, out, &e);
  int known = fz_ref(L, i, &r);
  if (!fz_ok(st, &e, "layout")) {
    fz_require(st == CUTE_EOVERFLOW,
               "%s(%lld): %s", fz_text(L), (long long)i, e.msg);
    return 0;
  }
  fz_require(known && r == *out, "%s(%lld) = %lld, reference differs",
             fz_text(L), (long long)i, (long long)*out);
  return 1;
}

int fz_eval_all(const cute_layout *L, int64_t n, int64_t *v)
{
  int64_t i;
  for (i = 0; i < n; i++)
    if (!fz_eval(L, i, &v[i]))
      return 0;
  return 1;
}

int fz_eval_crd(const cute_layout *L, const cute_tuple *crd, cute_tuple *out)
{
  cute_error e;
  fz_i128 r;
  if (!fz_ok(cute_layout_eval(L, crd, out, &e), &e, "layout"))
    return 0;
  if (cute_tuple_is_int(crd) && fz_ref(L, crd->v[0], &r))
    fz_require(cute_tuple_is_int(out) && out->v[0] == r,
               "%s(%lld) = %s, reference differs", fz_text(L),
               (long long)crd->v[0], fz_ttext(out));
  return 1;
}

int fz_eval_at(const cute_layout *L, int64_t i, cute_tuple *out)
{
  cute_tuple c;
  cute_tuple_int(&c, i);
  return fz_eval_crd(L, &c, out);
}

/* A value's non-zero leaves as (path, value), the path packed one
 * base-64 digit (index + 1) per level: depth <= 8, index < 32. */
typedef struct fz_term { uint64_t path; int64_t v; } fz_term;

static int cmp_term(const void *a, const void *b)
{
  const fz_term *x = a, *y = b;
  if (x->path != y->path)
    return (x->path > y->path) - (x->path < y->path);
  return (x->v > y->v) - (x->v < y->v);
}

static int terms(const cute_tuple *t, fz_term *out)
{
  int idx[CUTE_MAX_DEPTH + 2] = {0}, d = 0, p, k, leaf = 0, n = 0;
  for (p = 0; p < t->ntok; p++) {
    if (t->tok[p] == '(') {
      idx[++d] = 0;
    } else if (t->tok[p] == ')') {
      idx[--d]++;
    } else {
      uint64_t path = 0;
      for (k = 1; k <= d; k++)
        path = path * 64 + (uint64_t)idx[k] + 1;
      if (t->v[leaf] != 0)
        out[n++] = (fz_term){path, t->v[leaf]};
      leaf++;
      idx[d]++;
    }
  }
  qsort(out, (size_t)n, sizeof *out, cmp_term);
  return n;
}

int fz_same_value(const cute_tuple *a, const cute_tuple *b)
{
  fz_term x[CUTE_MAX_LEAVES], y[CUTE_MAX_LEAVES];
  int n = terms(a, x), k;
  if (n != terms(b, y))
    return 0;
  for (k = 0; k < n; k++)
    if (x[k].path != y[k].path || x[k].v != y[k].v)
      return 0;
  return 1;
}

int fz_conform(cute_tuple *out, const cute_tuple *crd,
               const cute_tuple *shape)
{
  cute_tuple c, m[CUTE_MAX_LEAVES], sm, inner;
  const cute_tuple *xs[CUTE_MAX_LEAVES];
  int k, r = cute_tuple_rank(shape), rc = cute_tuple_rank(crd);
  cute_tuple_copy(&c, crd);
  if (cute_tuple_is_int(shape)) {
    /* A leaf takes a group's mode 0 when the other modes are zero. */
    while (!cute_tuple_is_int(&c)) {
      cute_span sp;
      int j;
      if (cute_tuple_span(&c, 0, &sp) != 0) {
        cute_tuple_int(out, 0); /* () */
        return 1;
      }
      for (j = sp.leaf1; j < c.nleaf; j++)
        if (c.v[j] != 0)
          return 0;
      cute_tuple_mode(&inner, &c, 0, NULL);
      cute_tuple_copy(&c, &inner);
    }
    cute_tuple_copy(out, &c);
    return 1;
  }
  if (cute_tuple_is_int(&c)) {
    cute_tuple_copy(out, &c);
    return 1;
  }
  for (k = r; k < rc; k++) { /* extra modes must be zero: dropped */
    int j;
    cute_tuple_mode(&c, crd, k, NULL);
    for (j = 0; j < c.nleaf; j++)
      if (c.v[j] != 0)
        return 0;
  }
  for (k = 0; k < r; k++) {
    xs[k] = &m[k];
    if (k >= rc) {
      cute_tuple_int(&m[k], 0);
      continue;
    }
    cute_tuple_mode(&c, crd, k, NULL);
    cute_tuple_mode(&sm, shape, k, NULL);
    if (!fz_conform(&m[k], &c, &sm))
      return 0;
  }
  return cute_tuple_make(out, xs, r, NULL) == CUTE_OK;
}

static int cmp64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int fz_sorted(const int64_t *v, int64_t n, int64_t *s)
{
  int64_t k;
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, cmp64);
  for (k = 1; k < n; k++)
    if (s[k] == s[k - 1])
      return 0;
  return 1;
}

int fz_member(const int64_t *s, int64_t n, int64_t x)
{
  return n > 0 && bsearch(&x, s, (size_t)n, sizeof *s, cmp64) != NULL;
}

int fz_mode(cute_layout *out, const cute_layout *L, int i)
{
  cute_error e;
  return fz_ok(cute_layout_mode(out, L, i, &e), &e, "mode");
}

void fz_filter_ref(cute_layout *F, const cute_layout *L)
{
  int k, n = 0;
  cute_tuple_clear(&F->shape);
  cute_tuple_clear(&F->stride);
  cute_tuple_open(&F->shape, NULL);
  cute_tuple_open(&F->stride, NULL);
  for (k = 0; k < L->shape.nleaf; k++) {
    if (L->stride.v[k] == 0 || L->shape.v[k] == 1)
      continue;
    cute_tuple_leaf(&F->shape, L->shape.v[k], 0, NULL);
    cute_tuple_leaf(&F->stride, L->stride.v[k], L->stride.e[k], NULL);
    n++;
  }
  if (n == 0) {
    cute_tuple_leaf(&F->shape, 1, 0, NULL);
    cute_tuple_leaf(&F->stride, 0, 0, NULL);
  }
  cute_tuple_close(&F->shape, NULL);
  cute_tuple_close(&F->stride, NULL);
}
