/*
 * algebra.c -- speed of the layout algebra's hot operations (a benchmark,
 * never a test: timings depend on the machine and its load).
 *
 * For each operation it times passes over a fixed mix of typical layouts
 * (<= 8 leaves, some nested: paper examples, TV layouts, tiles with by-mode
 * tilers) and reports the median over 9 runs of the mean ns/op of the mix;
 * beside it, the slowest case timed alone (its own median).  Inputs are
 * parsed once, outside the timed loops; every result feeds a volatile sink
 * so the compiler cannot drop the work.
 *
 * The binary is linked with -Wl,--wrap=malloc (and calloc, realloc): every
 * heap allocation made by the algebra's code goes through the counters
 * below, and the count over all timed loops must be 0.
 *
 *   build/bench/algebra        prints the table
 *   build/bench/algebra -v     also one row per case
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c99 */
#include "cute.h"
#include "bench_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ malloc counter -- */
/* Reserved-looking names are the linker's: --wrap=f binds f to __wrap_f and
 * __real_f to the libc f. */
void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);

static unsigned long bench_allocs;

void *__wrap_malloc(size_t n) { bench_allocs++; return __real_malloc(n); }
void *__wrap_calloc(size_t k, size_t n) { bench_allocs++; return __real_calloc(k, n); }
void *__wrap_realloc(void *p, size_t n) { bench_allocs++; return __real_realloc(p, n); }

/* --------------------------------------------------------------- cases -- */
/* One input: `a` (a layout), `b` (a layout or a by-mode tiler "<...>", for
 * composition), `cotarget` (for complement; 0 = minimal complement).
 * `cute_ns`, where known, is CuTe C++'s time for the same case with
 * run-time integers (static strides where dynamic ones do not compile),
 * measured on the development machine in one process with cutelua's C
 * API (bench/RESULTS.md): -v prints it and the ratio beside the case. */
typedef struct bench_case {
  const char *a, *b;
  int64_t cotarget;
  double cute_ns;
  cute_layout A, B;
  cute_tiler T;
  int tiler;
} bench_case;

typedef cute_status (*bench_fn)(const bench_case *c, cute_layout *out,
                                cute_error *err);

static cute_status op_composition(const bench_case *c, cute_layout *out,
                                  cute_error *err) {
  return c->tiler ? cute_composition_tiler(out, &c->A, &c->T, err)
                  : cute_composition(out, &c->A, &c->B, err);
}
static cute_status op_complement(const bench_case *c, cute_layout *out,
                                 cute_error *err) {
  return cute_complement(out, &c->A, c->cotarget, err);
}
static cute_status op_coalesce(const bench_case *c, cute_layout *out,
                               cute_error *err) {
  return cute_coalesce(out, &c->A, err);
}
static cute_status op_right_inverse(const bench_case *c, cute_layout *out,
                                    cute_error *err) {
  return cute_right_inverse(out, &c->A, err);
}
static cute_status op_left_inverse(const bench_case *c, cute_layout *out,
                                   cute_error *err) {
  return cute_left_inverse(out, &c->A, err);
}

/* Divides and products by a tiler (a layout B is the one-layout tiler
 * "L").  bench/RESULTS.md's "before" timed them, before they were in C, as
 * the chain of public calls the Lua stdlib then made per mode (complement,
 * coalesce, concat, composition). */
static cute_status op_logical_divide(const bench_case *c, cute_layout *out,
                                     cute_error *err) {
  return cute_logical_divide(out, &c->A, &c->T, err);
}
static cute_status op_logical_product(const bench_case *c, cute_layout *out,
                                      cute_error *err) {
  return cute_logical_product(out, &c->A, &c->T, err);
}

/* The typical layouts: compact, nested tiles, a TV layout, a row-major
 * tile, gapped ones.  Each operation adds its special cases below (stride-0
 * modes, cotargets, by-mode tilers). */
#define BENCH_LAYOUTS(X)                                                      \
  X("(4,8):(1,4)") X("((2,2),(4,2)):((1,8),(2,16))")                          \
  X("(8,(4,2)):(16,(1,128))") X("((4,8),2):((16,1),8)") X("(128,64):(64,1)")  \
  X("(2,4):(16,1)") X("((2,4),(2,2)):((1,2),(16,8))") X("(3,(2,5)):(10,(1,30))")
#define BENCH_UNARY(s) {.a = s},

static bench_case coalesce_cases[] = {
  BENCH_LAYOUTS(BENCH_UNARY)
  {.a = "(4,1,(2,1),8):(1,0,(4,0),8)"},
};
static bench_case right_inverse_cases[] = {
  BENCH_LAYOUTS(BENCH_UNARY)
  {.a = "((2,2),(2,4)):((0,1),(0,2))"},
};
static bench_case left_inverse_cases[] = {
  BENCH_LAYOUTS(BENCH_UNARY)
  {.a = "(4,8):(1,5)"},
};
static bench_case complement_cases[] = {
  BENCH_LAYOUTS(BENCH_UNARY)
  {.a = "4:2", .cotarget = 24, .cute_ns = 1.8},
  {.a = "(4,8):(1,8)", .cotarget = 256, .cute_ns = 3.5},   /* static */
  {.a = "(4,8):(1,16)", .cotarget = 1024},
  {.a = "(2,2):(1,6)", .cotarget = 48},
};
#define BENCH_PAIR(x, y) {.a = x, .b = y},
#define BENCH_CUTE(x, y, ns) {.a = x, .b = y, .cute_ns = ns},
static bench_case composition_cases[] = {
  BENCH_CUTE("(6,2):(8,2)", "(4,3):(3,1)", 10.6) /* CuTe's algebra docs */
  BENCH_PAIR("20:2", "(5,4):(4,1)")
  BENCH_PAIR("(10,2):(16,4)", "(5,4):(1,5)")
  BENCH_PAIR("((2,2),(4,2)):((1,8),(2,16))", "(4,4):(1,4)")
  BENCH_PAIR("(8,(4,2)):(16,(1,128))", "(8,8):(1,8)")
  BENCH_PAIR("(8,8):(8,1)", "((4,8),2):((16,1),8)") /* TV o tile */
  BENCH_PAIR("(128,64):(64,1)", "<32:1,16:1>")      /* tile of a matrix */
  BENCH_PAIR("(128,64):(64,1)", "<(4,8):(1,16),(2,8):(1,2)>")
  BENCH_PAIR("(4,6,8):(1,4,24)", "<2:2,3:1,(2,2):(1,4)>")
  /* the cases CuTe C++ was timed on (bench/RESULTS.md) */
  BENCH_CUTE("(64,32):(1,64)", "(4,8):(2,128)", 10.6)
  BENCH_CUTE("((2,2),(4,2)):((1,8),(2,16))", "((2,4),4):((16,1),4)", 68.2)
  BENCH_CUTE("(12,(4,8)):(59,(13,1))", "<3:4,8:2>", 5.3)
};
static bench_case divide_cases[] = {
  BENCH_CUTE("(128,128):(1,128)", "<16:1,4:1>", 3.5)
  BENCH_PAIR("(8,16):(20,1)", "<4:1,8:2>")            /* paper 3.5.2      */
  BENCH_PAIR("(4,2,3):(2,1,8)", "4:2")
  BENCH_PAIR("(128,64):(64,1)", "<32:1,16:1>")
};
static bench_case product_cases[] = {
  BENCH_CUTE("(3,4):(4,1)", "(2,5):(1,2)", 7.2)     /* static strides */
  BENCH_PAIR("(4,8):(20,2)", "(3,2):(2,1)")           /* paper 3.5.1      */
  BENCH_PAIR("(2,3):(1,2)", "<2:1,4:1>")
  BENCH_PAIR("(4,8):(1,4)", "(2,2):(1,2)")
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct bench_op {
  const char *name;
  bench_fn fn;
  bench_case *cases;
  size_t n;
  double target_ns; /* 0: no target */
} bench_op;

static bench_op bench_ops[] = {
  {"composition", op_composition, composition_cases, COUNT(composition_cases), 150},
  {"complement", op_complement, complement_cases, COUNT(complement_cases), 100},
  {"coalesce", op_coalesce, coalesce_cases, COUNT(coalesce_cases), 50},
  {"right_inverse", op_right_inverse, right_inverse_cases, COUNT(right_inverse_cases), 0},
  {"left_inverse", op_left_inverse, left_inverse_cases, COUNT(left_inverse_cases), 0},
  {"logical_divide", op_logical_divide, divide_cases, COUNT(divide_cases), 0},
  {"logical_product", op_logical_product, product_cases, COUNT(product_cases), 0},
};

/* ---------------------------------------------------------- the timing -- */
/* A timer times one pass over cases [first, first+n) of one operation: the
 * whole mix (n = all cases, ~20 ms a run) or one case (~5 ms a run).  All
 * timers run in rounds (bench_clock.h says why). */
#define BENCH_RUNS 9
#define BENCH_MAX_CASES 16

typedef struct bench_timer {
  const bench_op *op;
  size_t first, n;
  long iters;
  double runs[BENCH_RUNS];
} bench_timer;

static volatile int64_t bench_sink;
static unsigned long bench_timed_allocs;

/* ns per call of `iters` repetitions of a pass over the timer's cases. */
static double time_pass(const bench_timer *t, long iters) {
  const bench_case *cases = &t->op->cases[t->first];
  bench_fn fn = t->op->fn;
  cute_layout out;
  cute_error err;
  unsigned long before = bench_allocs;
  double t0 = bench_now_ns();
  long i;
  size_t k;
  for (i = 0; i < iters; i++)
    for (k = 0; k < t->n; k++) {
      bench_sink += fn(&cases[k], &out, &err);
      bench_sink += out.stride.v[0];
    }
  t0 = bench_now_ns() - t0;
  bench_timed_allocs += bench_allocs - before;
  return t0 / ((double)iters * (double)t->n);
}

static void timer_init(bench_timer *t, const bench_op *op, size_t first,
                       size_t n, double run_ns) {
  t->op = op;
  t->first = first;
  t->n = n;
  t->iters = (long)(run_ns / (time_pass(t, 1000) * (double)n)) + 1;
}

static double timer_median(bench_timer *t) {
  return bench_median(t->runs, BENCH_RUNS);
}

/* Parse every input and run each case once untimed: a benchmark of an
 * operation that fails would measure the error path, so that is fatal. */
static int prepare(const bench_op *op, int verbose) {
  size_t k;
  char text[256];
  if (op->n > BENCH_MAX_CASES) {
    fprintf(stderr, "bench: %s has more than %d cases\n", op->name, BENCH_MAX_CASES);
    return 0;
  }
  for (k = 0; k < op->n; k++) {
    bench_case *c = &op->cases[k];
    cute_layout out;
    cute_error err;
    cute_status s = cute_layout_parse(&c->A, c->a, &err);
    if (s == CUTE_OK && c->b) {
      c->tiler = c->b[0] == '<';
      s = c->tiler ? cute_tiler_parse(&c->T, c->b, &err)
                   : cute_layout_parse(&c->B, c->b, &err);
      if (s == CUTE_OK && !c->tiler) {   /* B as a whole-layout tiler */
        c->T.n = 1;
        c->T.ntok = 1;
        c->T.tok[0] = 'L';
        c->T.mode[0] = c->B;
      }
    }
    if (s == CUTE_OK) s = op->fn(c, &out, &err);
    if (s != CUTE_OK) {
      fprintf(stderr, "bench: %s case %s %s: %s\n", op->name, c->a,
              c->b ? c->b : "", err.msg);
      return 0;
    }
    if (verbose) {
      cute_layout_print(&out, text, sizeof text);
      printf("  %-16s %-30s %-28s -> %s\n", op->name, c->a,
             c->b ? c->b : "", text);
    }
  }
  return 1;
}

static void print_row(const bench_op *op, double mix, double worst) {
  printf("%-16s %6zu %12.1f %10.1f ", op->name, op->n, mix, worst);
  if (op->target_ns > 0)
    printf("%8.0f %6s\n", op->target_ns, mix <= op->target_ns ? "PASS" : "MISS");
  else
    printf("%8s\n", "-");
}

int main(int argc, char **argv) {
  static bench_timer timers[COUNT(bench_ops) * (1 + BENCH_MAX_CASES)];
  int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
  size_t i, k, nt = 0;
  int r, ok = 1;
  void *volatile probe = malloc(16); /* proves the counter is wired in */
  free(probe);
  if (bench_allocs != 1) {
    fprintf(stderr, "bench: malloc is not wrapped (link with --wrap)\n");
    return 1;
  }
  for (i = 0; i < COUNT(bench_ops); i++) ok &= prepare(&bench_ops[i], verbose);
  if (!ok) return 1;

  /* Per operation: the mix, then each case alone. */
  for (i = 0; i < COUNT(bench_ops); i++) {
    timer_init(&timers[nt++], &bench_ops[i], 0, bench_ops[i].n, 20e6);
    for (k = 0; k < bench_ops[i].n; k++)
      timer_init(&timers[nt++], &bench_ops[i], k, 1, 5e6);
  }
  for (r = 0; r < BENCH_RUNS; r++)
    for (k = 0; k < nt; k++) timers[k].runs[r] = time_pass(&timers[k], timers[k].iters);

  printf("%-16s %6s %12s %10s %8s\n", "operation", "cases", "median ns/op",
         "worst case", "target");
  for (k = 0; k < nt;) {
    const bench_op *op = timers[k].op;
    double mix = timer_median(&timers[k++]), worst = 0;
    for (; k < nt && timers[k].op == op; k++) {
      const bench_case *c = &op->cases[timers[k].first];
      double one = timer_median(&timers[k]);
      if (one > worst) worst = one;
      if (verbose && c->cute_ns > 0)
        printf("  %-16s %-30s %-28s %8.1f ns  (CuTe C++ %.1f ns: %.1fx)\n",
               op->name, c->a, c->b ? c->b : "", one, c->cute_ns,
               one / c->cute_ns);
      else if (verbose)
        printf("  %-16s %-30s %-28s %8.1f ns\n", op->name, c->a, c->b ? c->b : "", one);
    }
    print_row(op, mix, worst);
  }
  printf("heap allocations in timed loops: %lu (expected 0) %s\n",
         bench_timed_allocs, bench_timed_allocs == 0 ? "PASS" : "MISS");
  return bench_timed_allocs != 0; /* a rule of algebra/, not a speed */
}
