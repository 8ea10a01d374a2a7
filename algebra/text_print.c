/*
 * text_print.c -- CuTe text of tuples, layouts, swizzles, composed layouts
 * and tilers (the inverse of text_parse.c).
 *
 * The forms are CuTe C++'s print() without the `_` of static integers:
 *     (4,(2,2))                      tuple: commas, no spaces
 *     (4,8):(1@0,1@1)                layout with scaled-basis strides
 *     1@1@0                          E<0,1>: basis indices innermost first
 *     Sw<3,4,3> o 0 o (8,64):(64,1)  composed layout
 *     <4:1,8:2>                      by-mode tiler
 *
 * Every printer behaves like snprintf: it never writes more than `cap`
 * bytes, NUL-terminates whenever cap > 0 and returns the length the full
 * text has, so a caller can size a buffer with a first call of cap 0.
 * Printers run inside error messages and tostring, so digits are produced
 * by hand rather than through one snprintf per leaf.
 */
#include "tiling.h"

#include <string.h>

/* Output cursor: `len` counts every byte the text needs, `buf` receives the
 * ones that fit while keeping one byte for the terminator. */
typedef struct text_sink {
  char *buf;
  size_t cap;
  size_t len;
} text_sink;

static void sink_mem(text_sink *o, const char *s, size_t n)
{
  if (o->len + 1 < o->cap) {
    size_t room = o->cap - 1 - o->len;
    memcpy(o->buf + o->len, s, n < room ? n : room);
  }
  o->len += n;
}

static void sink_char(text_sink *o, char c)
{
  if (o->len + 1 < o->cap)
    o->buf[o->len] = c;
  o->len++;
}

static void sink_str(text_sink *o, const char *s)
{
  sink_mem(o, s, strlen(s));
}

/* Decimal digits of v; INT64_MIN is handled through the unsigned magnitude
 * so that negation cannot overflow.  A digit (most shapes and strides: 1,
 * 2, 4, 8) is one character. */
static void sink_int(text_sink *o, int64_t v)
{
  char d[24];
  size_t n = sizeof d;
  uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  if ((uint64_t)v < 10) {
    sink_char(o, (char)('0' + v));
    return;
  }
  do {
    d[--n] = (char)('0' + m % 10);
    m /= 10;
  } while (m != 0);
  if (v < 0)
    d[--n] = '-';
  sink_mem(o, d + n, sizeof d - n);
}

static size_t sink_end(text_sink *o)
{
  if (o->cap > 0)
    o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
  return o->len;
}

/* One term v@i@j...: the path (stored outermost first) is printed
 * innermost first, as CuTe prints E<0,1> as 1@1@0.  A zero coefficient
 * keeps its basis so the text round-trips.  Messages print hand-made
 * operands before anything checked them, so a path longer than a basis
 * holds is cut (its length byte would shift past the 32 bits of
 * cute_basis). */
static void sink_term(text_sink *o, int64_t v, cute_basis e)
{
  int k, len = CUTE_BASIS_LEN(e);
  if (e & CUTE_BASIS_F2) sink_char(o, 'F');
  sink_int(o, v);
  if (len > CUTE_MAX_BASIS_DEPTH)
    len = CUTE_MAX_BASIS_DEPTH;
  for (k = len - 1; k >= 0; k--) {
    sink_char(o, '@');
    sink_int(o, CUTE_BASIS_AT(e, k));
  }
}

/* A stride value: its terms joined by '+', a negative one by '-' (the
 * parser reads both): 1@0+1@1, 2@0-1@2. */
static void sink_stride(text_sink *o, const cute_stride *s)
{
  int t;
  if (s->n == 0) sink_char(o, '0');
  for (t = 0; t < s->n; t++) {
    int64_t a = s->a[t];
    if (t > 0 && a < 0 && a != INT64_MIN) {
      sink_char(o, '-');
      a = -a;
    } else if (t > 0) {
      sink_char(o, '+');
    }
    sink_term(o, a, s->e[t]);
  }
}

/* One leaf: `_`, an integer, a scaled basis or a sum of them. */
static void sink_leaf(text_sink *o, int64_t v, cute_basis e)
{
  cute_stride s;
  if (e == 0 && v == CUTE_UNDERSCORE) {
    sink_char(o, '_');
  } else if (CUTE_BASIS_IS_SUM(e)) {
    cute_stride_of(&s, v, e);
    sink_stride(o, &s);
  } else {
    sink_term(o, v, e);
  }
}

/* Walks the token string; a comma goes before any element that follows a
 * leaf or a closed group.  The walk stays inside the arrays whatever the
 * counts say (a hand-made tuple in an error message): tokens past
 * CUTE_MAX_TOKENS are not read, leaves past CUTE_MAX_LEAVES print '?'. */
static void sink_tuple(text_sink *o, const cute_tuple *t)
{
  int i, leaf = 0;
  int ntok = t->ntok < CUTE_MAX_TOKENS ? t->ntok : CUTE_MAX_TOKENS;
  char prev = '(';
  for (i = 0; i < ntok; i++) {
    char c = t->tok[i];
    if (c != ')' && prev != '(')
      sink_char(o, ',');
    if (c == 'x' && leaf == CUTE_MAX_LEAVES) {
      sink_char(o, '?');
    } else if (c == 'x') {
      sink_leaf(o, t->v[leaf], t->e[leaf]);
      leaf++;
    } else {
      sink_char(o, c);
    }
    prev = c;
  }
}

size_t cute_stride_print(const cute_stride *s, char *buf, size_t cap)
{
  text_sink o;
  o.buf = buf;
  o.cap = cap;
  o.len = 0;
  sink_stride(&o, s);
  return sink_end(&o);
}

static void sink_layout(text_sink *o, const cute_layout *L)
{
  sink_tuple(o, &L->shape);
  sink_char(o, ':');
  sink_tuple(o, &L->stride);
}

static void sink_swizzle(text_sink *o, cute_swizzle sw)
{
  sink_str(o, "Sw<");
  sink_int(o, sw.b);
  sink_char(o, ',');
  sink_int(o, sw.m);
  sink_char(o, ',');
  sink_int(o, sw.s);
  sink_char(o, '>');
}

/* (4,(2,2)) -> "(4,(2,2))", 8 -> "8", (8) -> "(8)", () -> "()". */
size_t cute_tuple_print(const cute_tuple *t, char *buf, size_t cap)
{
  text_sink o = {buf, cap, 0};
  sink_tuple(&o, t);
  return sink_end(&o);
}

/* "(4,8):(1,4)", "8:1", "():()". */
size_t cute_layout_print(const cute_layout *L, char *buf, size_t cap)
{
  text_sink o = {buf, cap, 0};
  sink_layout(&o, L);
  return sink_end(&o);
}

/* "Sw<3,4,3>". */
size_t cute_swizzle_print(cute_swizzle sw, char *buf, size_t cap)
{
  text_sink o = {buf, cap, 0};
  sink_swizzle(&o, sw);
  return sink_end(&o);
}

/* "Sw<3,4,3> o 0 o (8,64):(64,1)". */
size_t cute_composed_print(const cute_composed *C, char *buf, size_t cap)
{
  text_sink o = {buf, cap, 0};
  sink_swizzle(&o, C->sw);
  sink_str(&o, " o ");
  sink_int(&o, C->offset);
  sink_str(&o, " o ");
  sink_layout(&o, &C->layout);
  return sink_end(&o);
}

/* "<4:1,8:2>", nested "<2:1,<_,4:1>>"; an empty list is "<>". */
size_t cute_tiler_print(const cute_tiler *T, char *buf, size_t cap)
{
  text_sink o = {buf, cap, 0};
  int p, li = 0, len = cute_tiler_len(T);
  char prev = '<';
  for (p = 0; p < len; p++) {
    char c = cute_tiler_tok(T, p);
    if (c != '>' && prev != '<') sink_char(&o, ',');
    if (c == 'L' && li < T->n && li < CUTE_MAX_TILER)
      sink_layout(&o, &T->mode[li++]);
    else
      sink_char(&o, c == 'L' ? '?' : c);
    prev = c;
  }
  return sink_end(&o);
}
