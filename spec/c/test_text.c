/*
 * test_text.c -- the CuTe text forms (algebra/text_print.c, text_parse.c).
 *
 * Printers: exact CuTe C++ text without `_` of static integers, snprintf
 * contract.  Parsers: everything the printers print, whitespace anywhere,
 * basis descriptors (docs/grammar.md), and a table of malformed inputs with the
 * exact status and column.  Round trip over 10000 seeded random layouts
 * with random scaled-basis strides.
 *
 * Choices recorded here:
 *   - basis indices are written innermost first (CuTe prints E<0,1> as
 *     1@1@0), so "1@0@1" is the path (1,0);
 *   - a fraction a/b must reduce to an integer; otherwise, and for b = 0,
 *     the parser fails with CUTE_EINVAL at the fraction's column;
 *   - -2^63 is refused (CUTE_EOVERFLOW): it represents the slice marker `_`;
 *   - `_` is a leaf of tuples (coordinates) only, not of layouts.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static char buf[8192];

static const char *ptuple(const cute_tuple *t)
{
  cute_tuple_print(t, buf, sizeof buf);
  return buf;
}

/* ------------------------------------------------------------ printers -- */

static void check_print_builder(void)
{
  cute_tuple t;
  cute_error err;
  cute_basis e01 = 2u | (0u << 8) | (1u << 16); /* E<0,1>: path (0,1) */

  cute_tuple_clear(&t);
  CHECK(strcmp(ptuple(&t), "") == 0, "empty builder prints nothing");
  cute_tuple_int(&t, 8);
  CHECK(strcmp(ptuple(&t), "8") == 0, "integer: %s", buf);

  cute_tuple_clear(&t);
  cute_tuple_open(&t, &err);
  cute_tuple_leaf(&t, 8, 0, &err);
  cute_tuple_close(&t, &err);
  CHECK(strcmp(ptuple(&t), "(8)") == 0, "rank-1 tuple: %s", buf);

  cute_tuple_clear(&t);
  cute_tuple_open(&t, &err);
  cute_tuple_close(&t, &err);
  CHECK(strcmp(ptuple(&t), "()") == 0, "empty tuple: %s", buf);

  cute_tuple_clear(&t);
  cute_tuple_open(&t, &err);
  cute_tuple_leaf(&t, 1, e01, &err);
  cute_tuple_leaf(&t, 2, CUTE_BASIS1(1), &err);
  cute_tuple_leaf(&t, 0, CUTE_BASIS1(0), &err);
  cute_tuple_leaf(&t, -3, 0, &err);
  cute_tuple_leaf(&t, CUTE_UNDERSCORE, 0, &err);
  cute_tuple_leaf(&t, INT64_MAX, 0, &err);
  cute_tuple_close(&t, &err);
  CHECK(strcmp(ptuple(&t), "(1@1@0,2@1,0@0,-3,_,9223372036854775807)") == 0,
        "leaves: %s", buf);
}

static void check_print_forms(void)
{
  cute_layout id;
  cute_error err;
  cute_composed C;
  cute_tiler tiler;
  cute_tuple s = T("(4,(2,2))");

  CHECK(cute_layout_identity(&id, &s, &err) == CUTE_OK, "%s", err.msg);
  CHECK_LAYOUT(id, "(4,(2,2)):(1@0,(1@0@1,1@1@1))");

  CHECK(cute_swizzle_print((cute_swizzle){3, 4, 3}, buf, sizeof buf) == 9 &&
        strcmp(buf, "Sw<3,4,3>") == 0, "swizzle: %s", buf);
  CHECK(cute_swizzle_print((cute_swizzle){2, 0, -3}, buf, sizeof buf) == 10 &&
        strcmp(buf, "Sw<2,0,-3>") == 0, "negative shift: %s", buf);

  C.sw = (cute_swizzle){3, 4, 3};
  C.offset = 0;
  C.layout = L("(8,64):(64,1)");
  cute_composed_print(&C, buf, sizeof buf);
  CHECK(strcmp(buf, "Sw<3,4,3> o 0 o (8,64):(64,1)") == 0, "composed: %s",
        buf);

  tiler.n = 2;
  tiler.ntok = 0;
  tiler.mode[0] = L("4:1");
  tiler.mode[1] = L("8:2");
  cute_tiler_print(&tiler, buf, sizeof buf);
  CHECK(strcmp(buf, "<4:1,8:2>") == 0, "tiler: %s", buf);
  tiler.n = 0;
  cute_tiler_print(&tiler, buf, sizeof buf);
  CHECK(strcmp(buf, "<>") == 0, "empty tiler: %s", buf);
}

/* snprintf contract: full length returned, NUL within cap, nothing past
 * cap written, for every cap from 0 to beyond the length. */
static void check_print_truncation(const cute_layout *l)
{
  char full[1024], small[1100];
  size_t n = cute_layout_print(l, full, sizeof full), cap;
  CHECK(cute_layout_print(l, NULL, 0) == n, "cap 0 with NULL buffer");
  for (cap = 1; cap <= n + 2; cap++) {
    size_t keep = cap - 1 < n ? cap - 1 : n;
    memset(small, '#', sizeof small);
    CHECK(cute_layout_print(l, small, cap) == n, "length at cap %zu", cap);
    CHECK(memcmp(small, full, keep) == 0 && small[keep] == '\0' &&
          small[cap] == '#', "truncation of %s at cap %zu", full, cap);
  }
}

/* ------------------------------------------------------------- parsers -- */

/* text parses as a layout whose print is `printed`. */
static void check_layout_text(const char *text, const char *printed)
{
  cute_layout l;
  cute_error err;
  cute_status st = cute_layout_parse(&l, text, &err);
  CHECK(st == CUTE_OK, "parse \"%s\": %s", text, st ? err.msg : "");
  if (st == CUTE_OK)
    CHECK(strcmp(S(&l), printed) == 0, "\"%s\" -> %s, expected %s", text,
          S(&l), printed);
}

static void check_tuple_text(const char *text, const char *printed)
{
  cute_tuple t;
  cute_error err;
  cute_status st = cute_tuple_parse(&t, text, &err);
  CHECK(st == CUTE_OK, "parse \"%s\": %s", text, st ? err.msg : "");
  if (st == CUTE_OK)
    CHECK(strcmp(ptuple(&t), printed) == 0, "\"%s\" -> %s, expected %s",
          text, buf, printed);
}

static void check_parse_forms(void)
{
  static const char *same[] = {
    "(4,8):(1,4)", "8:1", "((2,2),(4,2)):((1,8),(2,16))", "():()",
    "(4,8):(1@0,1@1)", "(4,(2,2)):(1@0,(1@0@1,1@1@1))", "(8):(2)",
    "(3,5):(-1,0)", "((4)):((0@2))", "8:9223372036854775807", NULL};
  int i;
  for (i = 0; same[i]; i++)
    check_layout_text(same[i], same[i]);
  /* a bare shape is compact column-major */
  check_layout_text("(4,8)", "(4,8):(1,4)");
  check_layout_text("8", "8:1");
  check_layout_text("(4,(2,2))", "(4,(2,2)):(1,(4,8))");
  check_layout_text("()", "():()");
  /* whitespace: space, tab, CR, LF between any tokens */
  check_layout_text(" ( 4 ,\t8 )\n:\r\n( 1 @ 0 , 1@ 1 ) ", "(4,8):(1@0,1@1)");
  check_layout_text("\t8\t:\t1\t", "8:1");
  check_layout_text("(4,8):(-1,4/2)", "(4,8):(-1,2)");

  check_tuple_text("(4,(2,2))", "(4,(2,2))");
  check_tuple_text("(8)", "(8)");
  check_tuple_text("()", "()");
  check_tuple_text("(())", "(())");
  check_tuple_text("(2, _)", "(2,_)");
  check_tuple_text("(_,-1,(2,_))", "(_,-1,(2,_))");
  check_tuple_text("-9223372036854775807", "-9223372036854775807");
  check_tuple_text("1@254", "1@254");
  check_tuple_text("5@1@2@3", "5@1@2@3");
}

/* Basis descriptors (docs/grammar.md) and the basis path convention. */
static void check_descriptors(void)
{
  cute_tuple t;
  cute_error err;
  check_tuple_text("(1@0, 1@1)", "(1@0,1@1)");
  check_tuple_text("(16@0, 1@1)", "(16@0,1@1)");
  check_tuple_text("((1@0, 8@1), 1@2)", "((1@0,8@1),1@2)");
  check_tuple_text("(1@0@1)", "(1@0@1)");
  check_tuple_text("(4/2@0, -6/3@1)", "(2@0,-2@1)");
  check_tuple_text("( 1 / 1 @ 0 )", "(1@0)");

  CHECK(cute_tuple_parse(&t, "1@1@0", &err) == CUTE_OK, "%s", err.msg);
  CHECK(t.nleaf == 1 && t.v[0] == 1 && CUTE_BASIS_LEN(t.e[0]) == 2 &&
        CUTE_BASIS_AT(t.e[0], 0) == 0 && CUTE_BASIS_AT(t.e[0], 1) == 1,
        "1@1@0 is E<0,1>, path (0,1)");
  CHECK(cute_tuple_parse(&t, "(1@0@1)", &err) == CUTE_OK, "%s", err.msg);
  CHECK(CUTE_BASIS_LEN(t.e[0]) == 2 && CUTE_BASIS_AT(t.e[0], 0) == 1 &&
        CUTE_BASIS_AT(t.e[0], 1) == 0, "1@0@1 is path (1,0)");
  CHECK(cute_tuple_parse(&t, "2@1", &err) == CUTE_OK &&
        t.e[0] == CUTE_BASIS1(1) && t.v[0] == 2, "2@1 is 2*e1");
}

static void check_swizzle_composed_tiler(void)
{
  cute_swizzle sw;
  cute_composed C;
  cute_tiler tiler;
  cute_error err;

  CHECK(cute_swizzle_parse(&sw, " Sw < 3 , 4 , 3 > ", &err) == CUTE_OK &&
        sw.b == 3 && sw.m == 4 && sw.s == 3, "swizzle parse");
  CHECK(cute_composed_parse(&C, "Sw<3,4,3> o 0 o (8,64):(64,1)", &err) ==
        CUTE_OK, "%s", err.msg);
  cute_composed_print(&C, buf, sizeof buf);
  CHECK(strcmp(buf, "Sw<3,4,3> o 0 o (8,64):(64,1)") == 0, "composed %s", buf);
  CHECK(cute_composed_parse(&C, "Sw<2,0,-3>o-16o(8,8)", &err) == CUTE_OK,
        "%s", err.msg);
  cute_composed_print(&C, buf, sizeof buf);
  CHECK(strcmp(buf, "Sw<2,0,-3> o -16 o (8,8):(1,8)") == 0, "composed %s",
        buf);

  CHECK(cute_tiler_parse(&tiler, "<4:1,8:2>", &err) == CUTE_OK, "%s",
        err.msg);
  cute_tiler_print(&tiler, buf, sizeof buf);
  CHECK(tiler.n == 2 && strcmp(buf, "<4:1,8:2>") == 0, "tiler %s", buf);
  CHECK(cute_tiler_parse(&tiler, " < 4 , (2,2) , 8:2 > ", &err) == CUTE_OK,
        "%s", err.msg);
  cute_tiler_print(&tiler, buf, sizeof buf);
  CHECK(strcmp(buf, "<4:1,(2,2):(1,2),8:2>") == 0, "bare tiler modes %s",
        buf);
  CHECK(cute_tiler_parse(&tiler, "<>", &err) == CUTE_OK && tiler.n == 0,
        "<>");
}

/* --------------------------------------------------------- malformed -- */

typedef struct bad_case {
  char kind;             /* T tuple, L layout, S swizzle, C composed, R tiler */
  const char *text;
  cute_status code;
  int column;
} bad_case;

static cute_status parse_kind(char kind, const char *text, cute_error *err)
{
  cute_tuple t;
  cute_layout l;
  cute_swizzle sw;
  cute_composed C;
  cute_tiler tiler;
  switch (kind) {
  case 'T': return cute_tuple_parse(&t, text, err);
  case 'L': return cute_layout_parse(&l, text, err);
  case 'S': return cute_swizzle_parse(&sw, text, err);
  case 'C': return cute_composed_parse(&C, text, err);
  default: return cute_tiler_parse(&tiler, text, err);
  }
}

static void check_malformed(void)
{
  static const bad_case cases[] = {
    {'L', "(4,8", CUTE_ESYNTAX, 5},
    {'L', "(4,,8)", CUTE_ESYNTAX, 4},
    {'L', "(4,8):(1)", CUTE_ERANK, 7},
    {'L', "(4,8): ((1,2),4)", CUTE_ERANK, 8},
    {'L', "4:", CUTE_ESYNTAX, 3},
    {'L', ":4", CUTE_ESYNTAX, 1},
    {'L', "(4,8):(1,4) x", CUTE_ESYNTAX, 13},
    {'L', "(4,8):(1,4):(1,4)", CUTE_ESYNTAX, 12},
    {'L', "(4,8x", CUTE_ESYNTAX, 5},
    {'L', "(4 8)", CUTE_ESYNTAX, 4},
    {'L', "(4,)", CUTE_ESYNTAX, 4},
    {'L', "", CUTE_ESYNTAX, 1},
    {'L', "   ", CUTE_ESYNTAX, 4},
    {'L', "- 4", CUTE_ESYNTAX, 1},
    {'L', "+4", CUTE_ESYNTAX, 1},
    {'L', "(4,8):(1,_)", CUTE_ESYNTAX, 10},
    {'L', "(4,8)\x01", CUTE_ESYNTAX, 6},
    {'L', "(0,4)", CUTE_EINVAL, 1},
    {'L', "(4,8):(1,3/2)", CUTE_EINVAL, 10},
    {'L', "(1@0,8):(1,8)", CUTE_EINVAL, 1},
    {'T', "(1/0@0)", CUTE_EINVAL, 2},
    {'T', "(1/2@0, 4@1)", CUTE_EINVAL, 2},
    {'T', "(1@0, -7/2@1)", CUTE_EINVAL, 7},
    {'T', "1/x", CUTE_ESYNTAX, 3},
    {'T', "1@", CUTE_ESYNTAX, 3},
    {'T', "1@-1", CUTE_ESYNTAX, 3},
    {'T', "_@0", CUTE_ESYNTAX, 2},
    {'T', "1@0@1@2@3", CUTE_ELIMIT, 9},
    {'T', "1@255", CUTE_ELIMIT, 3},
    {'T', "9999999999999999999999", CUTE_EOVERFLOW, 1},
    {'T', "(1,-9223372036854775808)", CUTE_EOVERFLOW, 4},
    {'T', "1@99999999999999999999", CUTE_EOVERFLOW, 3},
    {'T', "((((((((((1))))))))))", CUTE_ELIMIT, 9},
    {'T', "(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,"
          "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)", CUTE_ELIMIT, 66},
    {'S', "Sw<3,4>", CUTE_ESYNTAX, 7},
    {'S', "Sw<3,4,3", CUTE_ESYNTAX, 9},
    {'S', "Sx<3,4,3>", CUTE_ESYNTAX, 1},
    {'S', "S", CUTE_ESYNTAX, 1},
    {'S', "Sw<3,4,2>", CUTE_EINVAL, 1},
    {'S', "Sw<3,4,99999999999>", CUTE_EOVERFLOW, 8},
    {'C', "Sw<3,4,3> o 0", CUTE_ESYNTAX, 14},
    {'C', "Sw<3,4,3> x 0 o 8:1", CUTE_ESYNTAX, 11},
    {'C', "Sw<3,4,3> o 0 o 8:1 o", CUTE_ESYNTAX, 21},
    {'R', "<4:1,8:2", CUTE_ESYNTAX, 9},
    {'R', "<4:1,,8:2>", CUTE_ESYNTAX, 6},
    {'R', "4:1", CUTE_ESYNTAX, 1},
    {'R', "<1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33>", CUTE_ELIMIT, 89},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cute_error err;
    cute_status st = parse_kind(cases[i].kind, cases[i].text, &err);
    CHECK(st == cases[i].code && err.code == st &&
          err.column == cases[i].column,
          "%c \"%s\": got %s col %d (%s), expected %s col %d",
          cases[i].kind, cases[i].text, cute_status_name(st), err.column,
          err.msg, cute_status_name(cases[i].code), cases[i].column);
    CHECK(parse_kind(cases[i].kind, cases[i].text, NULL) == cases[i].code,
          "\"%s\" with err NULL", cases[i].text);
  }
}

/* Exact messages of the common cases. */
static void check_messages(void)
{
  static const struct { const char *text, *msg; } cases[] = {
    {"(4,8x", "layout(\"(4,8x\"): parse error at column 5: expected ',' "
              "or ')' but found 'x'"},
    {"(4,8", "layout(\"(4,8\"): parse error at column 5: expected ',' or "
             "')' but found end of text"},
    {"(4,8):(1,4) x", "layout(\"(4,8):(1,4) x\"): parse error at column 13: "
                      "unexpected trailing text 'x'"},
    {"(4,8):(1)", "layout(\"(4,8):(1)\"): parse error at column 7: stride "
                  "(1) is not congruent with shape (4,8)"},
    {"(1/2@0,4@1):(1,1)", "layout(\"(1/2@0,4@1):(1,1)\"): parse error at "
                          "column 2: fractional basis count 1/2 is not an "
                          "integer"},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cute_layout l;
    cute_error err;
    cute_layout_parse(&l, cases[i].text, &err);
    CHECK(strcmp(err.msg, cases[i].msg) == 0, "message: %s", err.msg);
  }
}

/* Deep nesting fails at the first '(' past CUTE_MAX_DEPTH, whatever the
 * length, and texts are bounded by CUTE_MAX_TEXT. */
static void check_limits(void)
{
  static char text[CUTE_MAX_TEXT + 2];
  cute_layout l;
  cute_error err;
  cute_status st;

  memset(text, '(', CUTE_MAX_TEXT);
  text[CUTE_MAX_TEXT] = '\0';
  st = cute_layout_parse(&l, text, &err);
  CHECK(st == CUTE_ELIMIT && err.column == CUTE_MAX_DEPTH + 1,
        "4096 '(': col %d %s", err.column, err.msg);
  CHECK(strlen(err.msg) < CUTE_ERRMSG_SIZE && strstr(err.msg, "...\""),
        "long text quoted through a window: %s", err.msg);

  memset(text, ' ', CUTE_MAX_TEXT);
  text[0] = '8';
  CHECK(cute_layout_parse(&l, text, &err) == CUTE_OK, "exactly max text");
  text[CUTE_MAX_TEXT] = ' ';
  text[CUTE_MAX_TEXT + 1] = '\0';
  CHECK(cute_layout_parse(&l, text, &err) == CUTE_ELIMIT,
        "longer than CUTE_MAX_TEXT: %s", err.msg);
  CHECK(cute_layout_parse(&l, NULL, &err) == CUTE_EINVAL, "NULL text");
}

/* ---------------------------------------------------------- round trip -- */

/* Negates some stride leaves and gives others a random basis path (1..3
 * indices, mostly small, sometimes up to CUTE_MAX_BASIS_INDEX) with a
 * coefficient that may be 0, negative or large. */
static void add_random_bases(test_rng *r, cute_layout *l)
{
  int i, k;
  for (i = 0; i < l->stride.nleaf; i++) {
    int len;
    cute_basis e;
    if (rng_range(r, 0, 5) == 0)
      l->stride.v[i] = -l->stride.v[i];
    if (rng_range(r, 0, 2) != 0)
      continue;
    len = (int)rng_range(r, 1, CUTE_MAX_BASIS_DEPTH);
    e = (cute_basis)len;
    for (k = 0; k < len; k++) {
      int64_t idx = rng_range(r, 0, 9) == 0
                        ? rng_range(r, 0, CUTE_MAX_BASIS_INDEX)
                        : rng_range(r, 0, 3);
      e |= (cute_basis)idx << (8 * (k + 1));
    }
    l->stride.e[i] = e;
    l->stride.v[i] = rng_range(r, 0, 9) != 0
                         ? rng_range(r, -20, 20)
                         : (int64_t)(rng_next(r) >> 1) * (i % 2 ? -1 : 1);
  }
}

/* The printed text with random whitespace between tokens (never inside a
 * number or between a sign and its digits). */
static void spread_whitespace(test_rng *r, const char *s, char *out)
{
  static const char ws[] = " \t\n\r";
  size_t i, n = 0;
  for (i = 0; s[i]; i++) {
    int inside = i > 0 && s[i] >= '0' && s[i] <= '9' &&
                 ((s[i - 1] >= '0' && s[i - 1] <= '9') || s[i - 1] == '-');
    if (!inside && rng_range(r, 0, 3) == 0)
      out[n++] = ws[rng_range(r, 0, 3)];
    out[n++] = s[i];
  }
  out[n] = '\0';
}

static void check_round_trip(void)
{
  test_rng r;
  int i, bad = 0;
  rng_seed(&r, 0x7e47);
  for (i = 0; i < 10000 && bad < 5; i++) {
    cute_layout l = rng_layout(&r, 3, 12, 9, 4096), back;
    char text[1024], text2[1024], spaced[2048];
    cute_error err;
    if (i % 2)
      add_random_bases(&r, &l);
    cute_layout_print(&l, text, sizeof text);
    if (cute_layout_parse(&back, text, &err) != CUTE_OK ||
        !cute_layout_equal(&back, &l)) {
      CHECK(0, "parse(print(L)) != L for %s (%s)", text, err.msg);
      bad++;
      continue;
    }
    cute_layout_print(&back, text2, sizeof text2);
    if (strcmp(text, text2) != 0) {
      CHECK(0, "print(parse(%s)) = %s", text, text2);
      bad++;
    }
    spread_whitespace(&r, text, spaced);
    if (cute_layout_parse(&back, spaced, &err) != CUTE_OK ||
        !cute_layout_equal(&back, &l)) {
      CHECK(0, "whitespace variant \"%s\" of %s", spaced, text);
      bad++;
    }
    if (i % 100 == 0)
      check_print_truncation(&l);
  }
  CHECK(bad == 0, "%d random layouts round-tripped", i);
}

/* Mutated texts (bytes replaced, inserted, deleted) must fail cleanly with
 * a column inside the text, or parse to something that prints stably. */
static void check_mutations(void)
{
  static const char alphabet[] = "()(),,:@@/_-0123456789 Sw<>o\t\x7f";
  test_rng r;
  int i, bad = 0;
  rng_seed(&r, 0xbad7e47);
  for (i = 0; i < 20000 && bad < 5; i++) {
    cute_layout l = rng_layout(&r, 3, 8, 9, 1024), back;
    char text[1024], again[1024];
    cute_error err;
    size_t n = cute_layout_print(&l, text, sizeof text);
    int k, edits = (int)rng_range(&r, 1, 3);
    for (k = 0; k < edits && n > 1; k++) {
      size_t at = (size_t)rng_range(&r, 0, (int64_t)n - 1);
      char c = alphabet[rng_range(&r, 0, sizeof alphabet - 2)];
      switch (rng_range(&r, 0, 2)) {
      case 0: /* replace */
        text[at] = c;
        break;
      case 1: /* insert */
        memmove(text + at + 1, text + at, n - at + 1);
        text[at] = c;
        n++;
        break;
      default: /* delete */
        memmove(text + at, text + at + 1, n - at);
        n--;
      }
    }
    if (cute_layout_parse(&back, text, &err) != CUTE_OK) {
      if (err.column < 1 || (size_t)err.column > n + 1) {
        CHECK(0, "\"%s\": column %d outside the text", text, err.column);
        bad++;
      }
      continue;
    }
    cute_layout_print(&back, again, sizeof again);
    if (cute_layout_parse(&l, again, &err) != CUTE_OK ||
        !cute_layout_equal(&l, &back)) {
      CHECK(0, "\"%s\" parsed to %s, which does not round-trip", text,
            again);
      bad++;
    }
  }
  CHECK(bad == 0, "%d mutated texts", i);
}

int main(void)
{
  check_print_builder();
  check_print_forms();
  check_parse_forms();
  check_descriptors();
  check_swizzle_composed_tiler();
  check_malformed();
  check_messages();
  check_limits();
  check_round_trip();
  check_mutations();
  return test_finish();
}
