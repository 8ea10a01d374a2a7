/*
 * text_parse.c -- parsers for the CuTe text that text_print.c writes.
 *
 * Grammar (whitespace -- space, tab, CR, LF -- allowed between any tokens):
 *     tuple    ::= leaf | '(' [ tuple { ',' tuple } ] ')'
 *     leaf     ::= '_' | 'F' uint | term { ( '+' | '-' ) term }
 *     term     ::= count { '@' index }
 *     count    ::= int [ '/' uint ]
 *     layout   ::= tuple [ ':' tuple ]       bare shape = compact col-major
 *     swizzle  ::= 'Sw' '<' int ',' int ',' int '>'
 *     composed ::= swizzle 'o' int 'o' layout
 *     tiler    ::= '<' [ layout { ',' layout } ] '>'
 * `count@i@j` is a basis descriptor (docs/grammar.md): indices are
 * innermost first, as the printer writes them, so "1@1@0" is E<0,1>
 * (path (0,1)) and "1@0@1" is path (1,0).  A fraction a/b is accepted
 * only when b divides a ("4/2@0" is 2@0): a non-integral stride must
 * never reach the algebra.  `F5` is the binary (F2) stride f_5 (cute.h,
 * CUTE_BASIS_F2), spelled as pycute prints its F2 scalars.
 *
 * Tuples are parsed without recursion: the builder of tuple.c keeps the
 * nesting and checks the limits, and the parser only counts open groups,
 * so "((((..." 10000 deep fails at the first '(' beyond CUTE_MAX_DEPTH
 * instead of exhausting the C stack.  The cursor never moves past the
 * terminating NUL: every test of the current byte fails on it.
 *
 * Every error names the rule being parsed (tuple, layout, swizzle, composed,
 * tiler) with the text as its operand, and the 1-based column of the
 * offending token:
 *     layout("(4,8x"): parse error at column 5: expected ',' or ')' but
 *     found 'x'
 */
#include "cute_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

typedef struct parser {
  const char *op;     /* the rule being parsed, named in errors       */
  const char *text;   /* whole input, NUL-terminated, <= CUTE_MAX_TEXT */
  const char *p;      /* cursor                                        */
  size_t len;         /* strlen(text)                                  */
  int underscore;     /* is the slice marker `_` a valid leaf here?    */
  cute_error *err;    /* the caller's, or `scratch` when it gave none   */
  cute_error scratch;
} parser;

/* ---------------------------------------------------------------- errors -- */

size_t cute_text_quote(char *buf, size_t cap, const char *op,
                       const char *text, size_t len, size_t pos)
{
  enum { BEFORE = 60, WIDTH = 120 };
  size_t from = pos > BEFORE ? pos - BEFORE : 0, i, n;
  size_t to = from + WIDTH < len ? from + WIDTH : len;
  n = (size_t)snprintf(buf, cap, "%s(\"%s", op, from > 0 ? "..." : "");
  if (n >= cap) return cap - 1; /* op alone filled it */
  for (i = from; i < to && n + 8 < cap; i++) {
    if (text[i] == '\n') buf[n++] = '\\';
    buf[n++] = text[i] == '\n' ? 'n' : text[i];
  }
  n += (size_t)snprintf(buf + n, cap - n, "%s\")", to < len ? "..." : "");
  return n < cap ? n : cap - 1;
}

/* Fills the error with "op("text"): parse error at column C: reason". */
static cute_status fail_reason(parser *P, cute_status code, const char *at,
                               const char *reason)
{
  char head[CUTE_TEXT_QUOTED];
  size_t pos = (size_t)(at - P->text);
  cute_text_quote(head, sizeof head, P->op, P->text, P->len, pos);
  cute_fail(P->err, code, "%s: parse error at column %d: %s", head,
            (int)pos + 1, reason);
  P->err->column = (int)pos + 1;
  return code;
}

static cute_status fail_at(parser *P, cute_status code, const char *at,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static cute_status fail_at(parser *P, cute_status code, const char *at,
                           const char *fmt, ...)
{
  char reason[CUTE_ERRMSG_SIZE / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  return fail_reason(P, code, at, reason);
}

/* A status from another module (builder, layout_make...) gets the column
 * of the text it came from; its own message is kept as the reason. */
static cute_status locate(parser *P, cute_status st, const char *at)
{
  char reason[CUTE_ERRMSG_SIZE];
  if (st == CUTE_OK)
    return st;
  memcpy(reason, P->err->msg, sizeof reason);
  reason[sizeof reason - 1] = '\0';
  return fail_reason(P, st, at, reason);
}

/* "'x'", "end of text" or "byte 0x07": what the parser found instead. */
static const char *found(const char *at, char *out, size_t cap)
{
  unsigned char c = (unsigned char)*at;
  if (c == '\0')
    return "end of text";
  if (c >= 0x20 && c < 0x7f)
    snprintf(out, cap, "'%c'", c);
  else
    snprintf(out, cap, "byte 0x%02x", c);
  return out;
}

static cute_status expected(parser *P, const char *what)
{
  char buf[16];
  return fail_at(P, CUTE_ESYNTAX, P->p, "expected %s but found %s", what,
                 found(P->p, buf, sizeof buf));
}

/* ---------------------------------------------------------------- tokens -- */

static void skip_ws(parser *P)
{
  while (*P->p == ' ' || *P->p == '\t' || *P->p == '\n' || *P->p == '\r')
    P->p++;
}

static int is_digit(char c)
{
  return c >= '0' && c <= '9';
}

/* Skips whitespace and consumes `c` if it is next. */
static int accept(parser *P, char c)
{
  skip_ws(P);
  if (*P->p != c)
    return 0;
  P->p++;
  return 1;
}

static cute_status expect(parser *P, char c, const char *what)
{
  return accept(P, c) ? CUTE_OK : expected(P, what);
}

/* digit { digit }, at most INT64_MAX; `at` (the number's first byte, sign
 * included) is the column an overflow reports. */
static cute_status read_digits(parser *P, const char *at, int64_t *out)
{
  int64_t v = 0;
  if (!is_digit(*P->p))
    return expected(P, "an integer");
  while (is_digit(*P->p)) {
    if (cute_mul(v, 10, &v) || cute_add(v, *P->p - '0', &v))
      return fail_at(P, CUTE_EOVERFLOW, at,
                     "integer does not fit in 64 bits");
    P->p++;
  }
  *out = v;
  return CUTE_OK;
}

static cute_status read_uint(parser *P, int64_t *out)
{
  skip_ws(P);
  return read_digits(P, P->p, out);
}

/* int ::= [ '-' ] uint, the sign glued to the digits.  -2^63 is refused
 * with the other overflows: it is the slice marker's representation. */
static cute_status read_int(parser *P, int64_t *out)
{
  const char *at;
  cute_status st;
  skip_ws(P);
  at = P->p;
  P->p += at[0] == '-' && is_digit(at[1]);
  /* On failure *out is left as it was: negating it could overflow. */
  if ((st = read_digits(P, at, out)) == CUTE_OK && *at == '-')
    *out = -*out;
  return st;
}

/* An int that must fit a C int (swizzle parameters). */
static cute_status read_small(parser *P, int *out)
{
  const char *at;
  int64_t v = 0; /* set by read_int on success: gcc -O3 cannot see it */
  cute_status st;
  skip_ws(P);
  at = P->p;
  if ((st = read_int(P, &v)) != CUTE_OK)
    return st;
  if (v < INT_MIN || v > INT_MAX)
    return fail_at(P, CUTE_EOVERFLOW, at, "integer does not fit in int");
  *out = (int)v;
  return CUTE_OK;
}

/* ---------------------------------------------------------------- leaves -- */

/* { '@' index }: indices come innermost first and are stored outermost
 * first, so "@1@0" -> path (0,1). */
static cute_status read_basis(parser *P, cute_basis *e)
{
  int64_t idx[CUTE_MAX_BASIS_DEPTH];
  int n = 0, k;
  while (accept(P, '@')) {
    const char *at;
    cute_status st;
    skip_ws(P);
    at = P->p;
    if (n == CUTE_MAX_BASIS_DEPTH)
      return fail_at(P, CUTE_ELIMIT, at,
                     "basis path longer than CUTE_MAX_BASIS_DEPTH (%d)",
                     CUTE_MAX_BASIS_DEPTH);
    if ((st = read_uint(P, &idx[n])) != CUTE_OK)
      return st;
    if (idx[n] > CUTE_MAX_BASIS_INDEX)
      return fail_at(P, CUTE_ELIMIT, at,
                     "basis index %lld exceeds CUTE_MAX_BASIS_INDEX (%d)",
                     (long long)idx[n], CUTE_MAX_BASIS_INDEX);
    n++;
  }
  *e = (cute_basis)n;
  for (k = 0; k < n; k++)
    *e |= (cute_basis)idx[n - 1 - k] << (8 * (k + 1));
  return CUTE_OK;
}

/* count ::= int [ '/' uint ], followed by the basis.  The fraction is
 * checked after the basis so the message can say what it counts. */
static cute_status read_leaf(parser *P, int64_t *v, cute_basis *e)
{
  const char *at = P->p;
  int64_t den = 1;
  cute_status st;
  if (*P->p == '_') {
    if (!P->underscore)
      return fail_at(P, CUTE_ESYNTAX, at,
                     "the slice marker '_' is only allowed in coordinates");
    P->p++;
    *v = CUTE_UNDERSCORE;
    *e = 0;
    return CUTE_OK;
  }
  if (accept(P, 'F')) {
    *e = CUTE_BASIS_F2;
    return read_digits(P, P->p, v);
  }
  if ((st = read_int(P, v)) != CUTE_OK)
    return st;
  if (accept(P, '/') && (st = read_uint(P, &den)) != CUTE_OK)
    return st;
  if ((st = read_basis(P, e)) != CUTE_OK)
    return st;
  if (den == 0)
    return fail_at(P, CUTE_EINVAL, at,
                   "fraction %lld/0 has a zero denominator", (long long)*v);
  if (*v % den != 0)
    return fail_at(P, CUTE_EINVAL, at,
                   "fractional %scount %lld/%lld is not an integer",
                   *e ? "basis " : "", (long long)*v, (long long)den);
  *v /= den;
  return CUTE_OK;
}

/* sum ::= leaf { ('+' | '-') leaf }, every term a scaled basis: the
 * stride 1@0+1@1 (CuTe's E<0>+E<1>), 2@0-1@1.  The terms are added and
 * packed in normal form (stride.c), so "1@1+1@0" reads as 1@0+1@1 and
 * "1@0+1@0" as 2@0. */
static cute_status read_sum(parser *P, const char *at, int64_t *v,
                            cute_basis *e)
{
  cute_stride s, term;
  const char *from;
  int sign;
  skip_ws(P);
  if (*P->p != '+' && *P->p != '-') return CUTE_OK;
  s.n = 0;
  cute_stride_of(&term, *v, *e);
  for (;;) {
    if (term.e[0] == 0 || CUTE_BASIS_IS_SUM(term.e[0]) ||
        (term.e[0] & CUTE_BASIS_F2))
      return fail_at(P, CUTE_ECODOMAIN, at, "a sum of strides adds scaled "
                     "basis elements a@i only");
    if (cute_stride_axpy(&s, 1, &term, P->err))
      return locate(P, P->err->code, at);
    skip_ws(P);
    if (*P->p != '+' && *P->p != '-') break;
    sign = *P->p++ == '-' ? -1 : 1;
    skip_ws(P);
    from = P->p;
    if (!is_digit(*from) && !(sign > 0 && *from == '-' && is_digit(from[1])))
      return expected(P, "a scaled basis term");
    if (read_leaf(P, &term.a[0], &term.e[0]) != CUTE_OK)
      return P->err->code;
    term.a[0] *= sign; /* |a| < 2^63: never overflows */
  }
  return locate(P, cute_stride_pack(v, e, &s, P->err), at);
}

/* ---------------------------------------------------------------- tuples -- */

static int starts_leaf(const char *p)
{
  return is_digit(p[0]) || p[0] == '_' || (p[0] == '-' && is_digit(p[1])) ||
         (p[0] == 'F' && is_digit(p[1]));
}

/* One element: a leaf, or '(' which opens a group (depth + 1). */
static cute_status tuple_element(parser *P, cute_tuple *t, int *depth)
{
  const char *at;
  cute_status st;
  int64_t v;
  cute_basis e = 0;
  skip_ws(P);
  at = P->p;
  if (accept(P, '(')) {
    if ((st = locate(P, cute_tuple_open_at(t, *depth, P->err), at)) ==
        CUTE_OK)
      ++*depth;
    return st;
  }
  if (!starts_leaf(at))
    return expected(P, "an integer, '_' or '('");
  if ((st = read_leaf(P, &v, &e)) != CUTE_OK ||
      (st = read_sum(P, at, &v, &e)) != CUTE_OK)
    return st;
  return locate(P, cute_tuple_leaf_at(t, *depth, v, e, P->err), at);
}

/* After '(' or ',' comes an element, except that "()" closes at once;
 * after an element comes ',' or ')' until depth is back to 0. */
static cute_status read_tuple(parser *P, cute_tuple *t)
{
  int depth = 0, want_element = 1;
  cute_status st;
  cute_tuple_clear(t);
  for (;;) {
    if (want_element) {
      int opened = depth;
      if ((st = tuple_element(P, t, &depth)) != CUTE_OK)
        return st;
      skip_ws(P);
      want_element = depth > opened && *P->p != ')';
      continue;
    }
    if (depth == 0)
      return CUTE_OK;
    skip_ws(P);
    if (*P->p == ')') {
      if ((st = locate(P, cute_tuple_close_at(t, depth, P->err), P->p)) !=
          CUTE_OK)
        return st;
      P->p++;
      depth--;
    } else if (accept(P, ',')) {
      want_element = 1;
    } else {
      return expected(P, "',' or ')'");
    }
  }
}

/* --------------------------------------------------------------- layouts -- */

static cute_status read_layout(parser *P, cute_layout *L)
{
  cute_tuple shape, stride;
  const char *at_shape, *at_stride;
  cute_status st;
  skip_ws(P);
  at_shape = P->p;
  if ((st = read_tuple(P, &shape)) != CUTE_OK)
    return st;
  if (!accept(P, ':'))
    return locate(P, cute_layout_left(L, &shape, P->err), at_shape);
  skip_ws(P);
  at_stride = P->p;
  if ((st = read_tuple(P, &stride)) != CUTE_OK)
    return st;
  if (!cute_congruent(&shape, &stride)) {
    char s[CUTE_ERRMSG_SIZE / 4], d[CUTE_ERRMSG_SIZE / 4];
    cute_tuple_print(&shape, s, sizeof s);
    cute_tuple_print(&stride, d, sizeof d);
    return fail_at(P, CUTE_ERANK, at_stride,
                   "stride %s is not congruent with shape %s", d, s);
  }
  /* read_tuple built both by the checked builder: well formed */
  return locate(P, cute_layout_make_congruent(L, &shape, &stride, P->err),
                at_shape);
}

static cute_status read_swizzle(parser *P, cute_swizzle *sw)
{
  const char *at;
  int b = 0, m = 0, s = 0;
  cute_status st;
  skip_ws(P);
  at = P->p;
  if (at[0] != 'S' || at[1] != 'w')
    return expected(P, "'Sw<'");
  P->p += 2;
  if ((st = expect(P, '<', "'<'")) != CUTE_OK ||
      (st = read_small(P, &b)) != CUTE_OK ||
      (st = expect(P, ',', "','")) != CUTE_OK ||
      (st = read_small(P, &m)) != CUTE_OK ||
      (st = expect(P, ',', "','")) != CUTE_OK ||
      (st = read_small(P, &s)) != CUTE_OK ||
      (st = expect(P, '>', "'>'")) != CUTE_OK)
    return st;
  return locate(P, cute_swizzle_make(sw, b, m, s, P->err), at);
}

static cute_status read_composed(parser *P, cute_composed *C)
{
  cute_status st;
  if ((st = read_swizzle(P, &C->sw)) != CUTE_OK ||
      (st = expect(P, 'o', "'o'")) != CUTE_OK ||
      (st = read_int(P, &C->offset)) != CUTE_OK ||
      (st = expect(P, 'o', "'o'")) != CUTE_OK)
    return st;
  return read_layout(P, &C->layout);
}

static cute_status read_tiler(parser *P, cute_tiler *T)
{
  cute_status st;
  T->n = 0;
  T->ntok = 0;   /* the flat list <mode[0],...,mode[n-1]> */
  if ((st = expect(P, '<', "'<'")) != CUTE_OK)
    return st;
  if (accept(P, '>'))
    return CUTE_OK; /* <> */
  do {
    skip_ws(P);
    if (T->n == CUTE_MAX_TILER)
      return fail_at(P, CUTE_ELIMIT, P->p,
                     "tiler has more than CUTE_MAX_TILER (%d) modes",
                     CUTE_MAX_TILER);
    if ((st = read_layout(P, &T->mode[T->n])) != CUTE_OK)
      return st;
    T->n++;
  } while (accept(P, ','));
  return expect(P, '>', "',' or '>'");
}

/* ---------------------------------------------------------- entry points -- */

cute_status cute_text_length(const char *op, const char *text, size_t *len,
                             cute_error *err)
{
  *len = 0;
  if (text == NULL)
    return cute_fail(err, CUTE_EINVAL, "%s(NULL): text is NULL", op);
  while (*len <= CUTE_MAX_TEXT && text[*len])
    ++*len;
  if (*len > CUTE_MAX_TEXT)
    return cute_fail(err, CUTE_ELIMIT,
                     "%s(\"%.40s...\"): text longer than CUTE_MAX_TEXT (%d) "
                     "characters", op, text, CUTE_MAX_TEXT);
  return CUTE_OK;
}

static cute_status begin(parser *P, const char *op, const char *text,
                         int underscore, cute_error *err)
{
  P->op = op;
  P->text = P->p = text;
  P->underscore = underscore;
  P->err = err ? err : &P->scratch;
  return cute_text_length(op, text, &P->len, P->err);
}

/* After the rule, nothing but whitespace may follow. */
static cute_status end(parser *P, cute_status st)
{
  if (st != CUTE_OK)
    return st;
  skip_ws(P);
  if (*P->p != '\0') {
    char buf[16];
    return fail_at(P, CUTE_ESYNTAX, P->p, "unexpected trailing text %s",
                   found(P->p, buf, sizeof buf));
  }
  return CUTE_OK;
}

/* "(4,(2,_))", "8", "1@1@0", "(1/2@0)" -> error.  On error *t is undefined. */
cute_status cute_tuple_parse(cute_tuple *t, const char *text, cute_error *err)
{
  parser P;
  cute_status st = begin(&P, "tuple", text, 1, err);
  return st != CUTE_OK ? st : end(&P, read_tuple(&P, t));
}

/* "(4,8):(1,4)"; "(4,8)" -> (4,8):(1,4); "(4,8):(1)" -> CUTE_ERANK. */
cute_status cute_layout_parse(cute_layout *L, const char *text,
                              cute_error *err)
{
  parser P;
  cute_status st = begin(&P, "layout", text, 0, err);
  return st != CUTE_OK ? st : end(&P, read_layout(&P, L));
}

/* "Sw<3,4,3>", checked by cute_swizzle_make (|S| >= B). */
cute_status cute_swizzle_parse(cute_swizzle *sw, const char *text,
                               cute_error *err)
{
  parser P;
  cute_status st = begin(&P, "swizzle", text, 0, err);
  return st != CUTE_OK ? st : end(&P, read_swizzle(&P, sw));
}

/* "Sw<3,4,3> o 0 o (8,64):(64,1)". */
cute_status cute_composed_parse(cute_composed *C, const char *text,
                                cute_error *err)
{
  parser P;
  cute_status st = begin(&P, "composed", text, 0, err);
  return st != CUTE_OK ? st : end(&P, read_composed(&P, C));
}

/* "<4:1,8:2>"; a bare shape mode is compact: "<4,8:2>" = <4:1,8:2>. */
cute_status cute_tiler_parse(cute_tiler *T, const char *text, cute_error *err)
{
  parser P;
  cute_status st = begin(&P, "tiler", text, 0, err);
  return st != CUTE_OK ? st : end(&P, read_tiler(&P, T));
}
