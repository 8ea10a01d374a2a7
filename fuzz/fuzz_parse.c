/*
 * fuzz_parse.c -- the text parsers on arbitrary bytes.
 *
 * The whole input is one text, fed to every parser (tuple, layout,
 * swizzle, composed layout, tiler).  On success: print, parse the printed
 * text again, and require the same value and the same text (round trip,
 * docs/architecture.md, "Text forms"); every printer keeps snprintf's
 * contract at any capacity; a parsed layout's size and values must match
 * the reference evaluator.  On failure: fz_parsed's contract (a status, a
 * message, a column inside the text).
 */
#include "fuzz_common.h"

#include <string.h>

/* Printed text of any parsed value: print(x, buf, cap) -> length. */
typedef struct printed {
  char text[2 * CUTE_MAX_TEXT];
  size_t len;
} printed;

/* The printer must fit what it reports, and a second parse of a printed
 * text may only fail by being longer than the parsers accept (a bare
 * shape gains its strides, 4/2 shrinks to 2, spaces go). */
static int reparsable(const printed *p, const char *what)
{
  fz_require(p->len < sizeof p->text && strlen(p->text) == p->len,
             "%s printed %zu bytes, strlen %zu", what, p->len,
             strlen(p->text));
  return p->len <= CUTE_MAX_TEXT;
}

/* The snprintf contract of every printer, at capacities around the
 * text's length and a few small ones: the full length is returned, the
 * buffer holds the longest prefix that fits, NUL-terminated, and nothing
 * past cap is written (cap 0: nothing at all). */
typedef size_t (*printer)(const void *x, char *buf, size_t cap);

static void check_caps(printer print, const void *x, const printed *full,
                       const char *what)
{
  static const size_t small[] = {0, 1, 2, 3, 5, 8, 13};
  char buf[sizeof full->text + 1];
  size_t caps[sizeof small / sizeof small[0] + 3], k, n = 0, cap, len;
  for (k = 0; k < sizeof small / sizeof small[0]; k++)
    caps[n++] = small[k];
  caps[n++] = full->len;
  caps[n++] = full->len + 1;
  caps[n++] = full->len / 2;
  for (k = 0; k < n; k++) {
    cap = caps[k];
    if (cap > sizeof full->text)
      continue;
    memset(buf, '#', sizeof buf);
    len = print(x, buf, cap);
    fz_require(len == full->len, "%s printed with cap %zu returns %zu, "
               "not %zu", what, cap, len, full->len);
    fz_require(buf[cap] == '#' &&
                   (cap == 0 ? buf[0] == '#'
                             : (strlen(buf) == (len < cap ? len : cap - 1) &&
                                strncmp(buf, full->text, strlen(buf)) == 0)),
               "%s \"%s\" printed with cap %zu: \"%.*s\"", what,
               full->text, cap, (int)cap, buf);
  }
}

static size_t print_tuple(const void *x, char *buf, size_t cap)
{
  return cute_tuple_print(x, buf, cap);
}

static size_t print_layout(const void *x, char *buf, size_t cap)
{
  return cute_layout_print(x, buf, cap);
}

static size_t print_swizzle(const void *x, char *buf, size_t cap)
{
  return cute_swizzle_print(*(const cute_swizzle *)x, buf, cap);
}

static size_t print_composed(const void *x, char *buf, size_t cap)
{
  return cute_composed_print(x, buf, cap);
}

static size_t print_tiler(const void *x, char *buf, size_t cap)
{
  return cute_tiler_print(x, buf, cap);
}

static void same_text(const printed *a, const printed *b, const char *what)
{
  fz_require(strcmp(a->text, b->text) == 0,
             "%s round trip: \"%s\" printed again as \"%s\"", what, a->text,
             b->text);
}

static void check_tuple(const char *text)
{
  cute_tuple t, u;
  cute_error e;
  printed a, b;
  if (!fz_parsed(cute_tuple_parse(&t, text, &e), &e, text))
    return;
  fz_require(cute_tuple_check(&t, &e) == CUTE_OK, "parsed tuple %s: %s",
             fz_ttext(&t), e.msg);
  fz_require(cute_tuple_depth(&t) <= CUTE_MAX_DEPTH, "depth of %s",
             fz_ttext(&t));
  a.len = cute_tuple_print(&t, a.text, sizeof a.text);
  check_caps(print_tuple, &t, &a, "tuple");
  if (!reparsable(&a, "tuple"))
    return;
  fz_require(cute_tuple_parse(&u, a.text, &e) == CUTE_OK,
             "tuple \"%s\" printed \"%s\", which does not parse: %s", text,
             a.text, e.msg);
  fz_require(cute_tuple_equal(&t, &u), "tuple \"%s\" != parse(print)",
             a.text);
  b.len = cute_tuple_print(&u, b.text, sizeof b.text);
  same_text(&a, &b, "tuple");
}

/* A parsed layout: size, rank, depth and (the first values) against the
 * reference; the rest of its evaluation is the other targets' business. */
static void check_values(const cute_layout *L)
{
  int64_t n = fz_size(L), i, v, cos;
  cute_error e;
  fz_require(cute_layout_rank(L) == cute_tuple_rank(&L->shape) &&
                 cute_layout_depth(L) == cute_tuple_depth(&L->shape),
             "rank/depth of %s", fz_text(L));
  if (cute_layout_has_basis(L) || n < 0)
    return;
  for (i = 0; i < n && i < 64; i++)
    fz_eval(L, i, &v);
  if (fz_ok(cute_layout_cosize(L, &cos, &e), &e, "cosize"))
    fz_require(fz_eval(L, n - 1, &v) && cos == v + 1, "cosize(%s) = %lld",
               fz_text(L), (long long)cos);
}

static void check_layout(const char *text)
{
  cute_layout L, M;
  cute_error e;
  printed a, b;
  if (!fz_parsed(cute_layout_parse(&L, text, &e), &e, text))
    return;
  check_values(&L);
  a.len = cute_layout_print(&L, a.text, sizeof a.text);
  check_caps(print_layout, &L, &a, "layout");
  if (!reparsable(&a, "layout"))
    return;
  fz_require(cute_layout_parse(&M, a.text, &e) == CUTE_OK,
             "layout \"%s\" printed \"%s\", which does not parse: %s", text,
             a.text, e.msg);
  fz_require(cute_layout_equal(&L, &M), "layout \"%s\" != parse(print)",
             a.text);
  b.len = cute_layout_print(&M, b.text, sizeof b.text);
  same_text(&a, &b, "layout");
}

static int same_swizzle(cute_swizzle x, cute_swizzle y)
{
  return x.b == y.b && x.m == y.m && x.s == y.s;
}

static void check_swizzle(const char *text)
{
  cute_swizzle s, t;
  cute_error e;
  printed a, b;
  if (!fz_parsed(cute_swizzle_parse(&s, text, &e), &e, text))
    return;
  a.len = cute_swizzle_print(s, a.text, sizeof a.text);
  check_caps(print_swizzle, &s, &a, "swizzle");
  reparsable(&a, "swizzle");
  fz_require(cute_swizzle_parse(&t, a.text, &e) == CUTE_OK &&
                 same_swizzle(s, t),
             "swizzle \"%s\" does not round trip", a.text);
  b.len = cute_swizzle_print(t, b.text, sizeof b.text);
  same_text(&a, &b, "swizzle");
}

static void check_composed(const char *text)
{
  cute_composed c, d;
  cute_error e;
  printed a, b;
  if (!fz_parsed(cute_composed_parse(&c, text, &e), &e, text))
    return;
  check_values(&c.layout);
  a.len = cute_composed_print(&c, a.text, sizeof a.text);
  check_caps(print_composed, &c, &a, "composed");
  if (!reparsable(&a, "composed"))
    return;
  fz_require(cute_composed_parse(&d, a.text, &e) == CUTE_OK,
             "composed \"%s\" printed \"%s\", which does not parse: %s",
             text, a.text, e.msg);
  fz_require(same_swizzle(c.sw, d.sw) && c.offset == d.offset &&
                 cute_layout_equal(&c.layout, &d.layout),
             "composed \"%s\" != parse(print)", a.text);
  b.len = cute_composed_print(&d, b.text, sizeof b.text);
  same_text(&a, &b, "composed");
}

static void check_tiler(const char *text)
{
  cute_tiler t, u;
  cute_error e;
  printed a, b;
  int k;
  if (!fz_parsed(cute_tiler_parse(&t, text, &e), &e, text))
    return;
  fz_require(t.n >= 0 && t.n <= CUTE_MAX_TILER, "tiler of %d modes", t.n);
  a.len = cute_tiler_print(&t, a.text, sizeof a.text);
  check_caps(print_tiler, &t, &a, "tiler");
  if (!reparsable(&a, "tiler"))
    return;
  fz_require(cute_tiler_parse(&u, a.text, &e) == CUTE_OK,
             "tiler \"%s\" printed \"%s\", which does not parse: %s", text,
             a.text, e.msg);
  fz_require(u.n == t.n, "tiler \"%s\" != parse(print)", a.text);
  for (k = 0; k < t.n; k++)
    fz_require(cute_layout_equal(&t.mode[k], &u.mode[k]),
               "tiler \"%s\" mode %d != parse(print)", a.text, k);
  b.len = cute_tiler_print(&u, b.text, sizeof b.text);
  same_text(&a, &b, "tiler");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static char text[FZ_MAX_INPUT + 1];
  if (size > FZ_MAX_INPUT)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  check_tuple(text);
  check_layout(text);
  check_swizzle(text);
  check_composed(text);
  check_tiler(text);
  return 0;
}
