/*
 * linear_text.c -- linear layouts as text: Triton's LinearLayout::toString
 * form (printed and parsed) and the one-line attribute form of Triton's IR
 * dumps, #ttg.linear<{register = [[0, 1]], lane = [...], ...}> (parsed,
 * and printed for error messages).  So a layout copied out of a Triton
 * dump pastes into a script.
 */
#include "cute_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static uint64_t mask_of(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* snprintf that keeps counting past the end of buf, like the printers. */
static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void put(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
  va_list ap;
  int w;
  va_start(ap, fmt);
  w = vsnprintf(*n < cap ? buf + *n : NULL, *n < cap ? cap - *n : 0, fmt, ap);
  va_end(ap);
  if (w > 0) *n += (size_t)w;
}

static void put_vector(const cute_linear *A, uint64_t v, char *buf, size_t cap,
                       size_t *n, const char *open, const char *close)
{
  int j, off = 0;
  put(buf, cap, n, "%s", open);
  for (j = 0; j < A->nout; j++) {
    put(buf, cap, n, "%s%llu", j ? ", " : "",
        (unsigned long long)((v >> off) & mask_of(A->out[j].bits)));
    off += A->out[j].bits;
  }
  put(buf, cap, n, "%s", close);
}

static void put_outs(const cute_linear *A, char *buf, size_t cap, size_t *n)
{
  int j;
  put(buf, cap, n, "[");
  for (j = 0; j < A->nout; j++)
    put(buf, cap, n, "%s%s (size %llu)", j ? ", " : "", A->out[j].name,
        1ull << A->out[j].bits);
  put(buf, cap, n, "]");
}

size_t cute_linear_print(const cute_linear *A, char *buf, size_t cap)
{
  size_t n = 0;
  int i, b, k = 0;
  if (cap) buf[0] = '\0';
  if (A->nin == 0) {
    if (A->nout == 0) {
      put(buf, cap, &n, "(empty layout)");
    } else {
      put(buf, cap, &n, "(empty layout with out-dims ");
      put_outs(A, buf, cap, &n);
      put(buf, cap, &n, ")");
    }
    return n;
  }
  for (i = 0; i < A->nin; i++) {
    if (A->in[i].bits == 0) {
      put(buf, cap, &n, " - %s is a size 1 dimension\n", A->in[i].name);
      continue;
    }
    for (b = 0; b < A->in[i].bits; b++, k++) {
      put(buf, cap, &n, "%s%s=%llu -> ", b ? "   " : " - ", A->in[i].name,
          1ull << b);
      put_vector(A, A->basis[k], buf, cap, &n, "(", ")\n");
    }
  }
  put(buf, cap, &n, "where out dims are: ");
  put_outs(A, buf, cap, &n);
  return n;
}

size_t cute_linear_print_compact(const cute_linear *A, char *buf, size_t cap)
{
  size_t n = 0;
  int i, b, k = 0;
  if (cap) buf[0] = '\0';
  put(buf, cap, &n, "#ttg.linear<{");
  for (i = 0; i < A->nin; i++) {
    put(buf, cap, &n, "%s%s = [", i ? ", " : "", A->in[i].name);
    for (b = 0; b < A->in[i].bits; b++, k++)
      put_vector(A, A->basis[k], buf, cap, &n, b ? ", [" : "[", "]");
    put(buf, cap, &n, "]");
  }
  put(buf, cap, &n, "}>");
  return n;
}

/* ------------------------------------------------------------ parser -- */

typedef struct cursor {
  const char *s;
  size_t i;
  cute_error *err;
} cursor;

static void ws(cursor *c)
{
  while (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' ||
         c->s[c->i] == '\r')
    c->i++;
}

static cute_status expected(cursor *c, const char *what)
{
  cute_status st = cute_fail(c->err, CUTE_ESYNTAX, "parse error at column "
                             "%d: expected %s", (int)c->i + 1, what);
  if (c->err) c->err->column = (int)c->i + 1;
  return st;
}

/* Skips whitespace, then matches `lit` (spaces in lit match any run of
 * whitespace); returns whether it did, consuming it only then. */
static int accept(cursor *c, const char *lit)
{
  size_t i;
  ws(c);
  i = c->i;
  for (; *lit; lit++) {
    if (*lit == ' ') {
      while (c->s[i] == ' ' || c->s[i] == '\t' || c->s[i] == '\n') i++;
    } else if (c->s[i] == *lit) {
      i++;
    } else {
      return 0;
    }
  }
  c->i = i;
  return 1;
}

static cute_status need(cursor *c, const char *lit)
{
  char what[48];
  if (accept(c, lit)) return CUTE_OK;
  snprintf(what, sizeof what, "'%s'", lit);
  return expected(c, what);
}

static cute_status ident(cursor *c, char *name)
{
  size_t n = 0;
  ws(c);
  while (n + 1 < CUTE_LINEAR_NAME) {
    char ch = c->s[c->i];
    int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
             ch == '_' || (n > 0 && ch >= '0' && ch <= '9');
    if (!ok) break;
    name[n++] = ch;
    c->i++;
  }
  name[n] = '\0';
  return n ? CUTE_OK : expected(c, "a dimension name");
}

static cute_status number(cursor *c, int64_t *v)
{
  int64_t r = 0;
  size_t i0;
  ws(c);
  i0 = c->i;
  while (c->s[c->i] >= '0' && c->s[c->i] <= '9') {
    if (r > (INT64_MAX - 9) / 10) return expected(c, "a smaller number");
    r = r * 10 + (c->s[c->i++] - '0');
  }
  if (c->i == i0) return expected(c, "a non-negative integer");
  *v = r;
  return CUTE_OK;
}

/* Bases as read, before the output dims are known. */
typedef struct raw {
  int nbits, width;
  int64_t v[CUTE_LINEAR_MAX_BITS][CUTE_LINEAR_MAX_DIMS];
} raw;

/* A vector open ... close of integers into R's next basis. */
static cute_status vector(cursor *c, raw *R, const char *open,
                          const char *close)
{
  cute_status st;
  int n = 0;
  if ((st = need(c, open))) return st;
  if (R->nbits == CUTE_LINEAR_MAX_BITS)
    return expected(c, "at most 32 input bits (CUTE_LINEAR_MAX_BITS)");
  do {
    if (n == CUTE_LINEAR_MAX_DIMS)
      return expected(c, "at most 6 output dims (CUTE_LINEAR_MAX_DIMS)");
    if ((st = number(c, &R->v[R->nbits][n++]))) return st;
  } while (accept(c, ","));
  if (R->width >= 0 && n != R->width)
    return expected(c, "as many values as the other bases");
  R->width = n;
  R->nbits++;
  return need(c, close);
}

static cute_status new_in(cursor *c, cute_linear *A, const char *name)
{
  if (A->nin == CUTE_LINEAR_MAX_DIMS)
    return expected(c, "at most 6 input dims (CUTE_LINEAR_MAX_DIMS)");
  snprintf(A->in[A->nin].name, CUTE_LINEAR_NAME, "%s", name);
  A->in[A->nin++].bits = 0;
  return CUTE_OK;
}

/*  - name=1 -> (..)  name=2 -> (..) ...  |  - name is a size 1 dimension */
static cute_status triton_groups(cursor *c, cute_linear *A, raw *R)
{
  char name[CUTE_LINEAR_NAME], again[CUTE_LINEAR_NAME];
  cute_status st;
  while (accept(c, "-")) {
    if ((st = ident(c, name)) || (st = new_in(c, A, name))) return st;
    if (accept(c, "is a size 1 dimension")) continue;
    for (;;) {
      int64_t at;
      cute_linear_dim *d = &A->in[A->nin - 1];
      if ((st = need(c, "=")) || (st = number(c, &at))) return st;
      if (d->bits >= 62 || at != (int64_t)1 << d->bits)
        return expected(c, "the next power of two of the dim");
      if ((st = need(c, "->")) || (st = vector(c, R, "(", ")"))) return st;
      d->bits++;
      ws(c);
      if (c->s[c->i] == '-' || !strncmp(c->s + c->i, "where", 5)) break;
      if ((st = ident(c, again))) return st;
      if (strcmp(again, name)) return expected(c, "the same dim, or '-'");
    }
  }
  return CUTE_OK;
}

/* [name (size N), ...] */
static cute_status triton_outs(cursor *c, cute_linear *A)
{
  cute_status st;
  if ((st = need(c, "["))) return st;
  if (accept(c, "]")) return CUTE_OK;
  do {
    int64_t size;
    int b = 0;
    cute_linear_dim *d = &A->out[A->nout];
    if (A->nout == CUTE_LINEAR_MAX_DIMS)
      return expected(c, "at most 6 output dims (CUTE_LINEAR_MAX_DIMS)");
    if ((st = ident(c, d->name)) || (st = need(c, "(size")) ||
        (st = number(c, &size)))
      return st;
    while (b < 62 && ((int64_t)1 << b) < size) b++;
    if (size != (int64_t)1 << b)
      return expected(c, "a power-of-two size");
    d->bits = b;
    A->nout++;
    if ((st = need(c, ")"))) return st;
  } while (accept(c, ","));
  return need(c, "]");
}

/* {name = [[..], [..]], name = [], ...} */
static cute_status attribute(cursor *c, cute_linear *A, raw *R)
{
  char name[CUTE_LINEAR_NAME];
  cute_status st;
  int j;
  accept(c, "#ttg.linear<");
  if ((st = need(c, "{"))) return st;
  if (!accept(c, "}")) {
    do {
      if ((st = ident(c, name)) || (st = new_in(c, A, name)) ||
          (st = need(c, "=")) || (st = need(c, "[")))
        return st;
      if (!accept(c, "]")) {
        do {
          if ((st = vector(c, R, "[", "]"))) return st;
          A->in[A->nin - 1].bits++;
        } while (accept(c, ","));
        if ((st = need(c, "]"))) return st;
      }
    } while (accept(c, ","));
    if ((st = need(c, "}"))) return st;
  }
  accept(c, ">");
  A->nout = R->width < 0 ? 0 : R->width;
  for (j = 0; j < A->nout; j++) {
    int64_t any = 0;
    int k, b = 0;
    for (k = 0; k < R->nbits; k++) any |= R->v[k][j];
    while (any >> b) b++;
    snprintf(A->out[j].name, CUTE_LINEAR_NAME, "dim%d", j);
    A->out[j].bits = b;
  }
  return CUTE_OK;
}

static cute_status pack(cursor *c, cute_linear *A, const raw *R)
{
  int k, j;
  char what[96];
  if (R->nbits > 0 && R->width != A->nout) {
    snprintf(what, sizeof what, "bases of %d values, one per output dim (%d)",
             R->width, A->nout);
    return expected(c, what);
  }
  if (cute_linear_out_bits(A) > CUTE_LINEAR_MAX_BITS)
    return expected(c, "output extents of at most 2^32 in all");
  for (k = 0; k < R->nbits; k++) {
    uint64_t v = 0;
    int off = 0;
    for (j = 0; j < A->nout; j++) {
      if ((uint64_t)R->v[k][j] > mask_of(A->out[j].bits)) {
        snprintf(what, sizeof what, "basis %d's value %lld inside %s (size "
                 "%llu)", k, (long long)R->v[k][j], A->out[j].name,
                 1ull << A->out[j].bits);
        return expected(c, what);
      }
      v |= (uint64_t)R->v[k][j] << off;
      off += A->out[j].bits;
    }
    A->basis[k] = v;
  }
  return CUTE_OK;
}

/* A failed parse names its rule and text, as the CuTe text parsers do
 * (text_parse.c), line breaks written \n so the message is one line:
 *   linear_layout("{lane = [[1]]"): parse error at column 14: expected '}'
 * len is the text's length, up to CUTE_MAX_TEXT + 1 (longer: cut, "..."). */
static cute_status parse_fail(cute_error *err, cute_status st,
                              const char *text, size_t len)
{
  char q[2 * CUTE_MAX_TEXT + 8];
  size_t i, n = 0;
  q[n++] = '"';
  for (i = 0; i < len && i < CUTE_MAX_TEXT; i++) {
    if (text[i] == '\n') q[n++] = '\\';
    q[n++] = text[i] == '\n' ? 'n' : text[i];
  }
  if (len > CUTE_MAX_TEXT) q[n++] = '.', q[n++] = '.', q[n++] = '.';
  q[n++] = '"';
  q[n] = '\0';
  cute_error_prefix(err, "linear_layout", q, (char *)NULL);
  return st;
}

static cute_status parse_text(cute_linear *A, const char *text,
                              cute_error *err)
{
  cursor c;
  raw R;
  cute_status st;
  c.s = text;
  c.i = 0;
  c.err = err;
  R.nbits = 0;
  R.width = -1;
  ws(&c);
  if (text[c.i] == '#' || text[c.i] == '{') {
    st = attribute(&c, A, &R);
  } else if (accept(&c, "(empty layout)")) {
    st = CUTE_OK;
  } else if (accept(&c, "(empty layout with out-dims")) {
    if (!(st = triton_outs(&c, A))) st = need(&c, ")");
  } else {
    if (!(st = triton_groups(&c, A, &R)) &&
        !(st = need(&c, "where out dims are:")))
      st = triton_outs(&c, A);
  }
  if (st) return st;
  ws(&c);
  if (text[c.i]) return expected(&c, "the end of the text");
  if ((st = pack(&c, A, &R))) return st;
  return cute_linear_check(A, err);
}

cute_status cute_linear_parse(cute_linear *A, const char *text,
                              cute_error *err)
{
  size_t len = 0;
  cute_status st;
  memset(A, 0, sizeof *A);
  while (len <= CUTE_MAX_TEXT && text[len]) len++;
  if (len > CUTE_MAX_TEXT)
    st = cute_fail(err, CUTE_ELIMIT, "text longer than %d characters "
                   "(CUTE_MAX_TEXT)", CUTE_MAX_TEXT);
  else
    st = parse_text(A, text, err);
  return st ? parse_fail(err, st, text, len) : CUTE_OK;
}
