/*
 * cute_cpp.cpp -- cutelua's C API against NVIDIA CuTe C++ on the same
 * cases, timed interleaved in one process (a benchmark, never a test).
 *
 * Built only when CMake is given a CUTLASS checkout (its headers are
 * included, nothing of them is copied here):
 *   cmake -S . -B build -DCUTLASS_DIR=/path/to/cutlass && cmake --build build
 *   build/bench/cute-cpp        one row per case
 *   build/bench/cute-cpp -v     also both libraries' results
 *
 * CuTe gets run-time integers (int, as in make_shape(m, n)), with static
 * strides only where its dynamic form does not compile (complement and
 * products of rank > 1 sort the strides at compile time).  Each CuTe
 * operation is inlined into its timing loop, so the inputs are read from
 * memory that an empty asm statement clobbers on every iteration (the
 * compiler can neither fold them nor hoist the work out of the loop), and
 * every leaf of the result is passed to an empty asm statement (none can be
 * dropped).  cutelua's side calls the library, whose operands are parsed
 * once; its result is written to memory by the call.
 *
 * Before timing, each case's two results are compared after dropping
 * size-1 modes (CuTe C++ keeps those that run-time integers cannot prove
 * to be 1; cutelua drops them, as CuTe does with static integers): the
 * comparison is then of the same function, and a difference is fatal.
 * The inverses have no run-time form in CuTe C++ (static strides and
 * shapes only, computed by the compiler): their results are compared with
 * CuTe's static ones, and only cutelua is timed, against an absolute target.
 */
#include "cute.h"
#include "bench_clock.h"

#include <cute/layout.hpp>

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using cute::_1;
using cute::Int;
using cute::make_layout;
using cute::make_shape;
using cute::make_stride;
using cute::make_tile;

#define BENCH_RUNS 9           /* rounds; the median is reported         */
#define BENCH_RUN_NS 5e6       /* one run of one timer                   */
#define BENCH_MAX_INPUTS 24    /* integers of one case's operands        */
/* CuTe's run-time integer: int, as CuTe's users write make_shape(m, n);
 * -DBENCH_CUTE_INT=int64_t gives it cutelua's width. */
#ifndef BENCH_CUTE_INT
#define BENCH_CUTE_INT int
#endif
typedef BENCH_CUTE_INT bench_int;

/* ------------------------------------------------------ the CuTe side -- */
/* Every leaf of a CuTe layout, static or not, is materialised. */
template <class Layout> static inline void bench_consume(Layout const &l) {
  auto use = [](auto x) {
    int64_t y = x;
    asm volatile("" : : "r"(y));
  };
  cute::for_each_leaf(l.shape(), use);
  cute::for_each_leaf(l.stride(), use);
}

/* ns per call of F(v) with v a copy of in[0..n). */
template <auto F> static double cute_pass(const bench_int *in, int n, long iters) {
  bench_int v[BENCH_MAX_INPUTS];
  std::memcpy(v, in, (size_t)n * sizeof v[0]);
  double t0 = bench_now_ns();
  for (long i = 0; i < iters; i++) {
    asm volatile("" : : "r"(v) : "memory"); /* v[] may have changed */
    bench_consume(F(v));
  }
  return (bench_now_ns() - t0) / (double)iters;
}

/* CuTe's printed result, static integers' `_` dropped (cutelua's text). */
template <auto F> static std::string cute_text(const bench_int *in) {
  std::ostringstream os;
  os << F(in);
  std::string s = os.str(), t;
  for (char ch : s)
    if (ch != '_') t += ch;
  return t;
}

/* The operations in CuTe, one a case; v[] holds the case's integers in the
 * order bench_inputs() lists them (comments number them). */
static auto layout2(const bench_int *v) { /* (v0,v1):(v2,v3) */
  return make_layout(make_shape(v[0], v[1]), make_stride(v[2], v[3]));
}
static auto comp_2x2(const bench_int *v) {
  return composition(layout2(v), layout2(v + 4));
}
static auto comp_1x2(const bench_int *v) { /* v0:v1 o (v2,v3):(v4,v5) */
  return composition(make_layout(v[0], v[1]), layout2(v + 2));
}
static auto comp_nested(const bench_int *v) { /* ((2,2),(4,2)) o ((2,4),4) */
  auto A = make_layout(make_shape(make_shape(v[0], v[1]), make_shape(v[2], v[3])),
                       make_stride(make_stride(v[4], v[5]), make_stride(v[6], v[7])));
  auto B = make_layout(make_shape(make_shape(v[8], v[9]), v[10]),
                       make_stride(make_stride(v[11], v[12]), v[13]));
  return composition(A, B);
}
static auto comp_tv(const bench_int *v) { /* (8,8) o ((4,8),2) */
  auto B = make_layout(make_shape(make_shape(v[4], v[5]), v[6]),
                       make_stride(make_stride(v[7], v[8]), v[9]));
  return composition(layout2(v), B);
}
static auto comp_tiler_nested(const bench_int *v) { /* (12,(4,8)) o <v6:v7,v8:v9> */
  auto A = make_layout(make_shape(v[0], make_shape(v[1], v[2])),
                       make_stride(v[3], make_stride(v[4], v[5])));
  return composition(A, make_tile(make_layout(v[6], v[7]), make_layout(v[8], v[9])));
}
static auto comp_tiler(const bench_int *v) { /* (v0,v1):(v2,v3) o <v4:v5,v6:v7> */
  return composition(layout2(v), make_tile(make_layout(v[4], v[5]), make_layout(v[6], v[7])));
}
static auto compl_1(const bench_int *v) { /* complement(v0:v1, v2) */
  return complement(make_layout(v[0], v[1]), v[2]);
}
template <int D0, int D1> static auto compl_2(const bench_int *v) { /* v2, v3 static */
  return complement(make_layout(make_shape(v[0], v[1]), make_stride(Int<D0>{}, Int<D1>{})), v[4]);
}
static auto divide(const bench_int *v) { /* (v0,v1):(v2,v3) / <v4:v5,v6:v7> */
  return logical_divide(layout2(v), make_tile(make_layout(v[4], v[5]), make_layout(v[6], v[7])));
}
template <int D0, int D1> static auto product(const bench_int *v) { /* v2, v3 static */
  auto A = make_layout(make_shape(v[0], v[1]), make_stride(Int<D0>{}, Int<D1>{}));
  return logical_product(A, layout2(v + 4));
}
/* Inverses: static only (the compiler computes them; never timed). */
template <class L> static auto rinv(const bench_int *) { return right_inverse(L{}); }
template <class L> static auto linv(const bench_int *) { return left_inverse(L{}); }
using cute::Layout;
using cute::Shape;
using cute::Stride;
using L_4x8 = Layout<Shape<Int<4>, Int<8>>, Stride<_1, Int<4>>>;
using L_375 = Layout<Shape<Int<3>, Int<7>, Int<5>>, Stride<Int<5>, Int<15>, _1>>;
using L_4x8_gap = Layout<Shape<Int<4>, Int<8>>, Stride<_1, Int<5>>>;
using L_nested = Layout<Shape<Shape<Int<2>, Int<2>>, Shape<Int<4>, Int<2>>>,
                        Stride<Stride<_1, Int<8>>, Stride<Int<2>, Int<16>>>>;

/* --------------------------------------------------- the cutelua side -- */
/* A case's operands, parsed once (b is a layout B and the tiler T = B, or
 * a by-mode tiler T). */
struct bench_operands {
  cute_layout A, B;
  cute_tiler T;
  int64_t cotarget;
};
typedef cute_status (*cutelua_fn)(const bench_operands &o, cute_layout *out,
                                  cute_error *err);

/* An operation and its target: ratio to CuTe, or ns where CuTe has no
 * run-time form. */
struct bench_op {
  const char *name;
  double max_ratio, max_ns;
};
static const bench_op OP_COMPOSITION = {"composition", 2, 0};
static const bench_op OP_COMPLEMENT = {"complement", 2, 0};
static const bench_op OP_DIVIDE = {"logical_divide", 3, 0};
static const bench_op OP_PRODUCT = {"logical_product", 3, 0};
static const bench_op OP_RINV = {"right_inverse", 0, 30};
static const bench_op OP_LINV = {"left_inverse", 0, 30};

struct bench_case {
  const bench_op *op;
  const char *a, *b;  /* cutelua's operands: b a layout or a tiler "<..>" */
  int64_t cotarget;   /* complement's                                    */
  const char *note;   /* how CuTe's side departs from all-dynamic        */
  double (*cute_time)(const bench_int *in, int n, long iters); /* NULL: static */
  std::string (*cute_result)(const bench_int *in);
  cutelua_fn cutelua;
  double (*cutelua_time)(const bench_operands &o, long iters);
};

/* A case's inputs and timings. */
struct bench_run {
  bench_operands o;
  bench_int in[BENCH_MAX_INPUTS];
  int nin; /* its integers, for CuTe */
  long cute_iters, cutelua_iters;
  double cute_runs[BENCH_RUNS], cutelua_runs[BENCH_RUNS];
};

static cute_status op_composition(const bench_operands &o, cute_layout *out, cute_error *err) {
  return cute_composition(out, &o.A, &o.B, err);
}
static cute_status op_composition_tiler(const bench_operands &o, cute_layout *out, cute_error *err) {
  return cute_composition_tiler(out, &o.A, &o.T, err);
}
static cute_status op_complement(const bench_operands &o, cute_layout *out, cute_error *err) {
  return cute_complement(out, &o.A, o.cotarget, err);
}
static cute_status op_logical_divide(const bench_operands &o, cute_layout *out, cute_error *err) {
  return cute_logical_divide(out, &o.A, &o.T, err);
}
static cute_status op_logical_product(const bench_operands &o, cute_layout *out, cute_error *err) {
  return cute_logical_product(out, &o.A, &o.T, err);
}
static cute_status op_right_inverse(const bench_operands &o, cute_layout *out, cute_error *err) {
  return cute_right_inverse(out, &o.A, err);
}
static cute_status op_left_inverse(const bench_operands &o, cute_layout *out, cute_error *err) {
  return cute_left_inverse(out, &o.A, err);
}

static volatile int64_t bench_sink;

/* ns per call of the library; its wrapper above is inlined here. */
template <cutelua_fn F> static double cutelua_pass(const bench_operands &o, long iters) {
  cute_layout out;
  cute_error err;
  int64_t sink = 0;
  double t0 = bench_now_ns();
  for (long i = 0; i < iters; i++) {
    sink += F(o, &out, &err);
    sink += out.stride.v[0];
  }
  t0 = bench_now_ns() - t0;
  bench_sink = sink;
  return t0 / (double)iters;
}

/* ------------------------------------------------------------- cases -- */
#define CUTE(f) cute_pass<f>, cute_text<f>
#define STATIC(f) nullptr, cute_text<f>
#define CUTELUA(f) f, cutelua_pass<f>

static bench_case bench_cases[] = {
  /* the cases of the speed targets */
  {&OP_COMPOSITION, "(64,32):(1,64)", "(4,8):(2,128)", 0, "",
   CUTE(comp_2x2), CUTELUA(op_composition)},
  {&OP_COMPOSITION, "(6,2):(8,2)", "(4,3):(3,1)", 0, "",
   CUTE(comp_2x2), CUTELUA(op_composition)},
  {&OP_COMPOSITION, "((2,2),(4,2)):((1,8),(2,16))", "((2,4),4):((16,1),4)", 0, "",
   CUTE(comp_nested), CUTELUA(op_composition)},
  {&OP_COMPOSITION, "(12,(4,8)):(59,(13,1))", "<3:4,8:2>", 0, "",
   CUTE(comp_tiler_nested), CUTELUA(op_composition_tiler)},
  {&OP_COMPLEMENT, "4:2", nullptr, 24, "", CUTE(compl_1), CUTELUA(op_complement)},
  {&OP_COMPLEMENT, "(4,8):(1,8)", nullptr, 256, "static strides",
   CUTE((compl_2<1, 8>)), CUTELUA(op_complement)},
  {&OP_DIVIDE, "(128,128):(1,128)", "<16:1,4:1>", 0, "",
   CUTE(divide), CUTELUA(op_logical_divide)},
  {&OP_PRODUCT, "(3,4):(4,1)", "(2,5):(1,2)", 0, "A's strides static",
   CUTE((product<4, 1>)), CUTELUA(op_logical_product)},
  /* more of bench/algebra.c's cases */
  {&OP_COMPOSITION, "20:2", "(5,4):(4,1)", 0, "", CUTE(comp_1x2), CUTELUA(op_composition)},
  {&OP_COMPOSITION, "(10,2):(16,4)", "(5,4):(1,5)", 0, "",
   CUTE(comp_2x2), CUTELUA(op_composition)},
  {&OP_COMPOSITION, "(8,8):(8,1)", "((4,8),2):((16,1),8)", 0, "",
   CUTE(comp_tv), CUTELUA(op_composition)},
  {&OP_COMPOSITION, "(128,64):(64,1)", "<32:1,16:1>", 0, "",
   CUTE(comp_tiler), CUTELUA(op_composition_tiler)},
  {&OP_COMPLEMENT, "(4,8):(1,16)", nullptr, 1024, "static strides",
   CUTE((compl_2<1, 16>)), CUTELUA(op_complement)},
  {&OP_COMPLEMENT, "(2,2):(1,6)", nullptr, 48, "static strides",
   CUTE((compl_2<1, 6>)), CUTELUA(op_complement)},
  {&OP_DIVIDE, "(8,16):(20,1)", "<4:1,8:2>", 0, "", CUTE(divide), CUTELUA(op_logical_divide)},
  {&OP_DIVIDE, "(128,64):(64,1)", "<32:1,16:1>", 0, "", CUTE(divide), CUTELUA(op_logical_divide)},
  {&OP_PRODUCT, "(4,8):(20,2)", "(3,2):(2,1)", 0, "A's strides static",
   CUTE((product<20, 2>)), CUTELUA(op_logical_product)},
  {&OP_PRODUCT, "(4,8):(1,4)", "(2,2):(1,2)", 0, "A's strides static",
   CUTE((product<1, 4>)), CUTELUA(op_logical_product)},
  {&OP_RINV, "(4,8):(1,4)", nullptr, 0, "", STATIC(rinv<L_4x8>), CUTELUA(op_right_inverse)},
  {&OP_RINV, "(3,7,5):(5,15,1)", nullptr, 0, "", STATIC(rinv<L_375>), CUTELUA(op_right_inverse)},
  {&OP_RINV, "((2,2),(4,2)):((1,8),(2,16))", nullptr, 0, "",
   STATIC(rinv<L_nested>), CUTELUA(op_right_inverse)},
  {&OP_LINV, "(4,8):(1,5)", nullptr, 0, "", STATIC(linv<L_4x8_gap>), CUTELUA(op_left_inverse)},
  {&OP_LINV, "((2,2),(4,2)):((1,8),(2,16))", nullptr, 0, "",
   STATIC(linv<L_nested>), CUTELUA(op_left_inverse)},
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* --------------------------------------------------------- the check -- */
/* A layout's text without its size-1 modes: each shape leaf 1 goes with its
 * stride, then a group left with one element is that element, and a layout
 * left with none is 1:0.  Reads CuTe's text (and cutelua's, the same).  */
struct bench_node {
  std::string leaf; /* empty for a group */
  std::vector<bench_node> kids;
};

static bench_node node_parse(const char *&p) {
  bench_node n;
  if (*p != '(') {
    while (*p && *p != ',' && *p != ')' && *p != ':') n.leaf += *p++;
    return n;
  }
  do {
    p++;
    n.kids.push_back(node_parse(p));
  } while (*p == ',');
  p++; /* ')' */
  return n;
}

/* Appends shape s and stride d squeezed to *so, *dout; false if all 1. */
static bool node_squeeze(const bench_node &s, const bench_node &d,
                         std::string *so, std::string *dout) {
  if (s.kids.empty()) {
    if (s.leaf == "1") return false;
    *so += s.leaf;
    *dout += d.leaf;
    return true;
  }
  std::vector<std::string> ks, kd;
  for (size_t i = 0; i < s.kids.size() && i < d.kids.size(); i++) {
    std::string a, b;
    if (node_squeeze(s.kids[i], d.kids[i], &a, &b)) {
      ks.push_back(a);
      kd.push_back(b);
    }
  }
  if (ks.empty()) return false;
  if (ks.size() == 1) {
    *so += ks[0];
    *dout += kd[0];
    return true;
  }
  for (size_t i = 0; i < ks.size(); i++) {
    *so += (i ? "," : "(") + ks[i];
    *dout += (i ? "," : "(") + kd[i];
  }
  *so += ")";
  *dout += ")";
  return true;
}

static std::string squeeze(const std::string &text) {
  const char *p = text.c_str();
  bench_node s = node_parse(p);
  if (*p++ != ':') return "?" + text; /* never equal to a layout */
  bench_node d = node_parse(p);
  std::string so, dout;
  if (!node_squeeze(s, d, &so, &dout)) return "1:0";
  return so + ":" + dout;
}

/* ---------------------------------------------------------- the runs -- */
static bench_run bench_runs[COUNT(bench_cases)];

static bool push_leaves(bench_run *r, const cute_tuple &t) {
  for (int i = 0; i < t.nleaf; i++) {
    if (r->nin == BENCH_MAX_INPUTS) return false;
    r->in[r->nin++] = (bench_int)t.v[i];
  }
  return true;
}

/* The case's integers in the order the CuTe functions read them: A's shape
 * and stride leaves, then each tiler layout's in turn, then the cotarget. */
static bool bench_inputs(bench_run *r, bool tiler) {
  const bench_operands &o = r->o;
  bool ok = push_leaves(r, o.A.shape) && push_leaves(r, o.A.stride);
  for (int k = 0; tiler && k < o.T.n; k++)
    ok = ok && push_leaves(r, o.T.mode[k].shape) && push_leaves(r, o.T.mode[k].stride);
  if (o.cotarget == 0) return ok;
  if (!ok || r->nin == BENCH_MAX_INPUTS) return false;
  r->in[r->nin++] = (bench_int)o.cotarget;
  return true;
}

static const char *operands(const bench_case &c, char *buf, size_t cap) {
  if (c.b) snprintf(buf, cap, "%s, %s", c.a, c.b);
  else if (c.cotarget) snprintf(buf, cap, "%s, %lld", c.a, (long long)c.cotarget);
  else snprintf(buf, cap, "%s", c.a);
  return buf;
}

/* Parses the operands, runs both libraries once and compares the results;
 * a failure or a difference is fatal (it would time something else). */
static bool prepare(const bench_case &c, bench_run *r, bool verbose) {
  cute_error err;
  cute_layout out;
  char text[512], ops[128];
  cute_status s = cute_layout_parse(&r->o.A, c.a, &err);
  r->o.cotarget = c.cotarget;
  if (s == CUTE_OK && c.b && c.b[0] == '<') s = cute_tiler_parse(&r->o.T, c.b, &err);
  if (s == CUTE_OK && c.b && c.b[0] != '<') {
    s = cute_layout_parse(&r->o.B, c.b, &err);
    r->o.T.n = 1; /* the tiler B, for products */
    r->o.T.ntok = 1;
    r->o.T.tok[0] = 'L';
    r->o.T.mode[0] = r->o.B;
  }
  if (s == CUTE_OK && !bench_inputs(r, c.b != nullptr)) {
    fprintf(stderr, "cute-cpp: %s(%s): more than %d integers\n", c.op->name,
            operands(c, ops, sizeof ops), BENCH_MAX_INPUTS);
    return false;
  }
  if (s == CUTE_OK) s = c.cutelua(r->o, &out, &err);
  if (s != CUTE_OK) {
    fprintf(stderr, "cute-cpp: %s(%s): %s\n", c.op->name,
            operands(c, ops, sizeof ops), err.msg);
    return false;
  }
  cute_layout_print(&out, text, sizeof text);
  std::string theirs = c.cute_result(r->in);
  bool same = squeeze(text) == squeeze(theirs);
  if (verbose || !same)
    printf("  %-16s %-50s cutelua %s  CuTe %s%s\n", c.op->name,
           operands(c, ops, sizeof ops), text, theirs.c_str(),
           same ? "" : "  DIFFERENT");
  return same;
}

/* Iterations for one run of about BENCH_RUN_NS. */
static long calibrate(double ns_per_call) {
  return (long)(BENCH_RUN_NS / (ns_per_call > 0.1 ? ns_per_call : 0.1)) + 1;
}

/* One round: every case, CuTe first in even rounds and cutelua first in odd
 * ones, so neither always runs on the other's warm caches. */
static void bench_round(int round) {
  for (size_t k = 0; k < COUNT(bench_cases); k++) {
    const bench_case &c = bench_cases[k];
    bench_run &r = bench_runs[k];
    if (round % 2) r.cutelua_runs[round] = c.cutelua_time(r.o, r.cutelua_iters);
    if (c.cute_time) r.cute_runs[round] = c.cute_time(r.in, r.nin, r.cute_iters);
    if (round % 2 == 0) r.cutelua_runs[round] = c.cutelua_time(r.o, r.cutelua_iters);
  }
}

static void print_row(const bench_case &c, bench_run &r) {
  char ops[128];
  double mine = bench_median(r.cutelua_runs, BENCH_RUNS);
  printf("%-16s %-50s", c.op->name, operands(c, ops, sizeof ops));
  if (c.cute_time) {
    double theirs = bench_median(r.cute_runs, BENCH_RUNS), ratio = mine / theirs;
    printf(" %8.1f %10.1f %6.1fx %5.0fx %s  %s\n", theirs, mine, ratio,
           c.op->max_ratio, ratio <= c.op->max_ratio ? "PASS" : "MISS", c.note);
  } else {
    printf(" %8s %10.1f %7s %3.0f ns %s  CuTe: static only\n", "-", mine, "",
           c.op->max_ns, mine <= c.op->max_ns ? "PASS" : "MISS");
  }
}

int main(int argc, char **argv) {
  bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0, ok = true;
  size_t k;
  for (k = 0; k < COUNT(bench_cases); k++)
    ok = prepare(bench_cases[k], &bench_runs[k], verbose) && ok;
  if (!ok) return 1;
  printf("results: the same layout from both libraries in all %zu cases "
         "(size-1 modes aside)\n", COUNT(bench_cases));

  for (k = 0; k < COUNT(bench_cases); k++) {
    const bench_case &c = bench_cases[k];
    bench_run &r = bench_runs[k];
    if (c.cute_time) r.cute_iters = calibrate(c.cute_time(r.in, r.nin, 1000));
    r.cutelua_iters = calibrate(c.cutelua_time(r.o, 1000));
  }
  for (int round = 0; round < BENCH_RUNS; round++) bench_round(round);

  printf("%-16s %-50s %8s %10s %7s %6s\n", "operation", "operands", "CuTe ns",
         "cutelua ns", "ratio", "target");
  for (k = 0; k < COUNT(bench_cases); k++) print_row(bench_cases[k], bench_runs[k]);
  return 0;
}
