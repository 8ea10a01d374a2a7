/*
 * ctime.c -- the C time of the calls bench/lua/compose.lua times through
 * Lua, so that it can print the Lua API's overhead beside them (a
 * benchmark, never a test).
 *
 * Each argument is one call, "op|operand|operand...", operands in the
 * algebra's text forms; operands are parsed once, outside the timed loop,
 * and the call is repeated for `seconds` of CPU time.  Prints one line per
 * argument: its ns/op, or "-" for a call it cannot make.
 *
 *   build/bench/lua-ctime 0.2 "composition|(4,8):(1,4)|2:1" \
 *     "local_tile|(512,64):(1,512)|<128:1,8:1>|(1,_)"
 *
 * op: layout TEXT (parse), composition A B, call A INDEX, eval A COORD,
 * print A, complement A COTARGET, right_inverse A, logical_divide A T,
 * logical_product A T, blocked_product A B, local_tile A T COORD; a tiler
 * T is "<...>" or a layout.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c99 */
#include "cute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_OPERANDS 3

/* One call: its operands parsed as the op reads them. */
typedef struct call {
  const char *text[MAX_OPERANDS];
  cute_layout A, B;
  cute_tiler T;
  cute_tuple crd;
  int64_t n;
} call;

typedef cute_status (*unary_fn)(cute_layout *, const cute_layout *,
                                cute_error *);
typedef cute_status (*binary_fn)(cute_layout *, const cute_layout *,
                                 const cute_layout *, cute_error *);
typedef cute_status (*tiler_fn)(cute_layout *, const cute_layout *,
                                const cute_tiler *, cute_error *);

/* The calls that are not a layout-valued function of A and one operand. */
enum other { NONE, PARSE, CALL, EVAL, PRINT, COMPLEMENT, LOCAL_TILE };

/* An op: its name, how it reads its operands after A ('L' a layout into
 * B, 'T' a tiler, 'C' a coordinate tuple, 'N' an integer; A itself is
 * parsed unless the op is "layout"), and the algebra function of a
 * layout-valued op, else which other call it is (chosen when the op is
 * read, not by its name in the timed loop: that cost ~20 ns a call). */
typedef struct op {
  const char *name, *operands;
  unary_fn unary;
  binary_fn binary;
  tiler_fn tiler;
  enum other other;
} op;

static const op ops[] = {
  {"layout", "", NULL, NULL, NULL, PARSE},
  {"composition", "L", NULL, cute_composition, NULL, NONE},
  {"call", "N", NULL, NULL, NULL, CALL},
  {"eval", "C", NULL, NULL, NULL, EVAL},
  {"print", "", NULL, NULL, NULL, PRINT},
  {"complement", "N", NULL, NULL, NULL, COMPLEMENT},
  {"right_inverse", "", cute_right_inverse, NULL, NULL, NONE},
  {"logical_divide", "T", NULL, NULL, cute_logical_divide, NONE},
  {"logical_product", "T", NULL, NULL, cute_logical_product, NONE},
  {"blocked_product", "L", NULL, cute_blocked_product, NULL, NONE},
  {"local_tile", "TC", NULL, NULL, NULL, LOCAL_TILE},
};

static volatile int64_t sink;

/* One call of o on c; nonzero when it fails.  Every result feeds the
 * volatile sink, so the compiler cannot drop the work. */
static int run(const op *o, const call *c)
{
  cute_layout r;
  cute_tuple t;
  char buf[CUTE_MAX_TEXT];
  int64_t v = 0;
  cute_status st = CUTE_EINVAL;
  r.stride.v[0] = t.v[0] = 0;
  if (o->unary) st = o->unary(&r, &c->A, NULL);
  else if (o->binary) st = o->binary(&r, &c->A, &c->B, NULL);
  else if (o->tiler) st = o->tiler(&r, &c->A, &c->T, NULL);
  else switch (o->other) {
  case PARSE: st = cute_layout_parse(&r, c->text[0], NULL); break;
  case CALL: st = cute_layout_eval_index(&c->A, c->n, &v, NULL); break;
  case EVAL: st = cute_layout_eval(&c->A, &c->crd, &t, NULL); break;
  case COMPLEMENT: st = cute_complement(&r, &c->A, c->n, NULL); break;
  case LOCAL_TILE:
    st = cute_local_tile(&r, &t, &c->A, &c->T, &c->crd, NULL, NULL);
    break;
  case PRINT:
    st = (v = (int64_t)cute_layout_print(&c->A, buf, sizeof buf)) > 0
         ? CUTE_OK : CUTE_EINVAL;
    break;
  case NONE: break;
  }
  sink += v + r.stride.v[0] + t.v[0];
  return st != CUTE_OK;
}

/* Parses operand k (0-based after A) of c as kind; nonzero on failure. */
static int parse_operand(call *c, int k, char kind)
{
  const char *s = c->text[k + 1];
  char *end;
  if (s == NULL) return 1;
  switch (kind) {
  case 'L': return cute_layout_parse(&c->B, s, NULL) != CUTE_OK;
  case 'T':                      /* "<...>", or a layout: the tiler "L" */
    if (s[0] == '<') return cute_tiler_parse(&c->T, s, NULL) != CUTE_OK;
    c->T.n = 1;
    c->T.ntok = 1;
    c->T.tok[0] = 'L';
    return cute_layout_parse(&c->T.mode[0], s, NULL) != CUTE_OK;
  case 'C': return cute_tuple_parse(&c->crd, s, NULL) != CUTE_OK;
  case 'N': c->n = strtoll(s, &end, 10); return *end != '\0';
  default: return 1;
  }
}

/* Splits spec "op|a|b|c" in place; returns the op, or NULL. */
static const op *read_call(char *spec, call *c)
{
  char *name = spec, *bar;
  size_t i;
  int k;
  memset(c->text, 0, sizeof c->text);
  for (k = 0; k < MAX_OPERANDS && (bar = strchr(spec, '|')) != NULL; k++) {
    *bar = '\0';
    c->text[k] = spec = bar + 1;
  }
  for (i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    const op *o = &ops[i];
    if (strcmp(name, o->name) != 0) continue;
    if (strcmp(name, "layout") != 0 &&
        (c->text[0] == NULL ||
         cute_layout_parse(&c->A, c->text[0], NULL) != CUTE_OK))
      return NULL;
    for (k = 0; o->operands[k]; k++)
      if (parse_operand(c, k, o->operands[k])) return NULL;
    return run(o, c) ? NULL : o;   /* the error path is not the bench */
  }
  return NULL;
}

/* CPU time, as os.clock measures the Lua side. */
static double now_s(void)
{
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double measure(const op *o, const call *c, double budget)
{
  long n = 0, i;
  double t0 = now_s(), t;
  do {
    for (i = 0; i < 1000; i++) run(o, c);
    n += 1000;
  } while ((t = now_s() - t0) < budget);
  return t * 1e9 / (double)n;
}

int main(int argc, char **argv)
{
  static call c;   /* a tiler is 31 KB */
  double budget = argc > 1 ? atof(argv[1]) : 0.5;
  int i;
  for (i = 2; i < argc; i++) {
    const op *o = read_call(argv[i], &c);
    if (o) printf("%.1f\n", measure(o, &c, budget));
    else printf("-\n");
  }
  return 0;
}
