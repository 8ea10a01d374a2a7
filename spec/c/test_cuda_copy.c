/*
 * test_cuda_copy.c -- the COPY planner of cuda/copy.c without a GPU.
 *
 * For every row of the paper's Table 2 and for the cases the planner
 * treats specially (vector widths by type and alignment, tiled transposes
 * with and without ragged edges and batch modes, shapes with no common
 * refinement, negative strides):
 *   - the plan's kind and vector width are the expected ones;
 *   - the kernel runs on the host under a small CUDA emulation (each block's
 *     threads are real threads, __syncthreads a barrier) and its output
 *     equals the reference dst[Ld(i)] = src[Ls(i)] computed by the algebra;
 *   - NVRTC compiles it to PTX for compute_90 (16-byte vector loads where
 *     the plan says v*elem = 16 bytes).  Skipped when NVRTC is absent.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda.h"
#include "test_cuda_kit.h"
#include "testlib.h"

#include <string.h>

typedef struct copy_case {
  const char *src, *dst;
  int64_t soff, doff;
  cute_cuda_dtype dtype;
  cute_cuda_copy_kind kind;
  int vector;
  const char *what;
} copy_case;

static const copy_case cases[] = {
  /* Table 2 of the paper, f32. */
  {"8:1", "8:1", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE, 4, "1-D arrays"},
  {"(8,2,3):(1,16,32)", "(8,2,3):(1,16,32)", 0, 0, CUTE_F32,
   CUTE_COPY_ELEMENTWISE, 4, "N-D arrays"},
  {"(2,3,2):(42,1,128)", "12:1", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE, 1,
   "gather"},
  {"12:1", "(2,3,2):(42,1,128)", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE, 1,
   "scatter"},
  {"7:0", "7:1", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE, 1, "broadcast"},
  {"7:0", "7:0", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE, 1, "constant"},
  {"(8,3):(1,8)", "(8,3):(3,1)", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE, 1,
   "transpose"},
  {"(8,(3,5)):(1,(57,8))", "(8,15):(1,8)", 0, 0, CUTE_F32,
   CUTE_COPY_ELEMENTWISE, 1, "tensor transpose"},
  /* Vector widths: 16 bytes of each type; alignment limits them. */
  {"4096:1", "4096:1", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE, 4, "f32 x4"},
  {"(64,16):(1,64)", "1024:1", 8, 24, CUTE_F16, CUTE_COPY_ELEMENTWISE, 8,
   "f16 x8, offsets 8 and 24"},
  {"1024:1", "1024:1", 3, 0, CUTE_F16, CUTE_COPY_ELEMENTWISE, 1,
   "f16, misaligned source offset"},
  {"1000:1", "1000:1", 2, 6, CUTE_F16, CUTE_COPY_ELEMENTWISE, 2,
   "f16, offsets allow 2"},
  {"(6,40):(1,6)", "240:1", 0, 0, CUTE_F64, CUTE_COPY_ELEMENTWISE, 2,
   "f64 x2 over merged modes"},
  {"(16,4,8):(1,16,64)", "(16,32):(1,16)", 0, 0, CUTE_U8,
   CUTE_COPY_ELEMENTWISE, 16, "u8 x16, refined"},
  {"(12,10):(1,16)", "(12,10):(1,12)", 0, 0, CUTE_F32, CUTE_COPY_ELEMENTWISE,
   4, "padded rows: vector 4 divides 12 and 16"},
  /* Tiled transposes. */
  {"(64,48):(1,64)", "(64,48):(48,1)", 0, 0, CUTE_F32, CUTE_COPY_TRANSPOSE, 1,
   "ragged tiles"},
  {"(64,32,3):(1,64,2048)", "(64,32,3):(32,1,2048)", 0, 0, CUTE_F32,
   CUTE_COPY_TRANSPOSE, 1, "batched tiles"},
  {"(32,64):(64,1)", "(32,64):(1,32)", 5, 7, CUTE_F64, CUTE_COPY_TRANSPOSE, 1,
   "f64, offsets"},
  {"((4,8),64):((1,4),32)", "((4,8),64):((64,256),1)", 0, 0, CUTE_I16,
   CUTE_COPY_TRANSPOSE, 1, "hierarchical modes"},
  /* Generic: no common refinement; negative strides. */
  {"(6,4):(1,6)", "(4,6):(1,4)", 0, 0, CUTE_F32, CUTE_COPY_GENERIC, 1,
   "no common refinement"},
  {"8:-1", "8:1", 7, 0, CUTE_I32, CUTE_COPY_ELEMENTWISE, 1, "reversal"},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* The emulation: enough of CUDA for the planner's kernels. */
static const char shim[] =
    "#include <cstdio>\n#include <cstring>\n#include <pthread.h>\n"
    "#include <thread>\n#include <vector>\n"
    "struct dim3 { unsigned x = 0, y = 0, z = 0; };\n"
    "static thread_local dim3 threadIdx;\nstatic dim3 blockIdx;\n"
    "static pthread_barrier_t cute_bar;\n"
    "#define __syncthreads() pthread_barrier_wait(&cute_bar)\n"
    "#define __global__\n#define __launch_bounds__(n)\n"
    "#define __restrict__\n#define __shared__ static\n"
    "#define CUTE_DI static inline\n"
    "struct alignas(16) uint4 { unsigned x, y, z, w; };\n"
    "template <class K, class S, class D>\n"
    "void launch(K k, unsigned g, unsigned bx, unsigned by, S s, D d) {\n"
    "  for (unsigned b = 0; b < g; b++) {\n"
    "    blockIdx.x = b;\n"
    "    pthread_barrier_init(&cute_bar, 0, bx * by);\n"
    "    std::vector<std::thread> ts;\n"
    "    for (unsigned t = 0; t < bx * by; t++)\n"
    "      ts.emplace_back([=] { threadIdx.x = t % bx; threadIdx.y = t / bx;"
    " k(s, d); });\n"
    "    for (auto &t : ts) t.join();\n"
    "    pthread_barrier_destroy(&cute_bar);\n  }\n}\n";

static int64_t span_of(const cute_layout *L, int64_t off, int64_t *lo)
{
  int64_t n = size_of(L), i, hi = off, v;
  *lo = off;
  for (i = 0; i < n; i++) {
    v = off + eval_i(L, i);
    if (v > hi) hi = v;
    if (v < *lo) *lo = v;
  }
  return hi;
}

/* Element k of the source holds pattern(k) (the host program computes the
 * same); dst starts poisoned. */
static uint64_t pattern(int64_t k, int esize)
{
  uint64_t v = (uint64_t)(k + 1) * 0x9e3779b97f4a7c15ull;
  return esize == 8 ? v : v & ((1ull << (8 * esize)) - 1);
}

/* Host program section for case i: run the kernel, print dst. */
static void emit_case(cute_cuda_text *o, int i, const cute_cuda_copy_plan *p,
                      const cute_layout *S, const cute_layout *D)
{
  const copy_case *c = &cases[i];
  int es = cute_cuda_dtype_size(c->dtype);
  int64_t slo, dlo, shi = span_of(S, c->soff, &slo), dhi = span_of(D, c->doff, &dlo);
  const char *body = p->source.s;
  /* extern "C" would clash between cases: each lives in a namespace. */
  cute_cuda_text_printf(o, "namespace c%d {\n", i);
  cute_cuda_text_puts(o, "#undef CUTE_DI\n#define CUTE_DI static inline\n");
  for (; body && *body; body++) {
    if (strncmp(body, "extern \"C\" ", 11) == 0) body += 11;
    cute_cuda_text_printf(o, "%c", *body);
  }
  cute_cuda_text_printf(o, "}\nstatic void run%d() {\n"
                           "  typedef unsigned %s T;\n"
                           "  alignas(16) static T s[%lld], d[%lld];\n",
                        i, es == 8 ? "long long" : es == 4 ? "" : es == 2 ? "short" : "char",
                        (long long)(shi + 1), (long long)(dhi + 1));
  cute_cuda_text_printf(o, "  for (long long k = 0; k <= %lldll; k++)\n"
                           "    s[k] = (T)((unsigned long long)(k + 1) * "
                           "0x9e3779b97f4a7c15ull);\n", (long long)shi);
  cute_cuda_text_printf(o, "  memset(d, 0xab, sizeof d);\n"
                           "  launch(c%d::cute_copy, %u, %u, %u, "
                           "(const c%d::E *)(s + %lld), (c%d::E *)(d + %lld));\n"
                           "  for (int k = 0; k < %lld; k++) printf(\"%%llx\\n\", "
                           "(unsigned long long)d[k]);\n}\n",
                        i, p->grid[0], p->block[0], p->block[1], i,
                        (long long)c->soff, i, (long long)c->doff,
                        (long long)(dhi + 1));
}

static void expect_case(cute_cuda_text *o, int i, const cute_layout *S,
                        const cute_layout *D)
{
  const copy_case *c = &cases[i];
  int es = cute_cuda_dtype_size(c->dtype);
  int64_t dlo, dhi = span_of(D, c->doff, &dlo), n = size_of(S), k;
  uint64_t *d = malloc(sizeof(uint64_t) * (size_t)(dhi + 1));
  for (k = 0; k <= dhi; k++) d[k] = 0xababababababababull;
  for (k = 0; k <= dhi; k++)
    if (es < 8) d[k] &= (1ull << (8 * es)) - 1;
  for (k = 0; k < n; k++)
    d[c->doff + eval_i(D, k)] = pattern(c->soff + eval_i(S, k), es);
  for (k = 0; k <= dhi; k++)
    cute_cuda_text_printf(o, "%llx\n", (unsigned long long)d[k]);
  free(d);
}

static void compile_ptx(int i, const cute_cuda_copy_plan *p, int have_nvrtc)
{
  const char *names[] = {"cute_copy"};
  cute_cuda_program prog = {0};
  cute_cuda_binary b;
  cute_cuda_error err = {0};
  int vbytes = p->vector * cute_cuda_dtype_size(cases[i].dtype);
  if (!have_nvrtc) return;
  prog.source = p->source.s;
  prog.names = names;
  prog.nnames = 1;
  prog.arch = "compute_90";
  CHECK(cute_cuda_compile(&prog, &b, &err) == CUTE_CUDA_OK, "%s: %s",
        cases[i].what, err.msg ? err.msg : "");
  if (b.image && vbytes == 16)
    CHECK(strstr(b.image, ".v4.u32") != NULL, "%s: 16-byte accesses in PTX",
          cases[i].what);
  cute_cuda_binary_free(&b);
  cute_cuda_error_clear(&err);
}

static void test_errors(void)
{
  cute_cuda_copy_plan p;
  cute_cuda_error err = {0};
  cute_layout A = L("(4,8):(1,4)"), B = L("30:1"), I = L("(4,8):(1@0,1@1)");
  CHECK(cute_cuda_copy_plan_make(&p, &A, 0, &B, 0, CUTE_F32, NULL, &err) ==
            CUTE_CUDA_EINVAL && strstr(err.msg, "size(src) == size(dst)") &&
            strstr(err.msg, "(4,8):(1,4)"), "size mismatch: %s", err.msg);
  CHECK(cute_cuda_copy_plan_make(&p, &I, 0, &A, 0, CUTE_F32, NULL, &err) ==
            CUTE_CUDA_ELAYOUT, "coordinate layouts refused");
  cute_cuda_error_clear(&err);
}

int main(void)
{
  cute_cuda_text prog = {0}, want = {0};
  cute_cuda_error err = {0};
  int i, skipped, have_nvrtc;
  char *got;
  have_nvrtc = cute_cuda_nvrtc_load(&err) == CUTE_CUDA_OK;
  if (!have_nvrtc) printf("SKIP (PTX part): %s\n", err.msg);
  cute_cuda_error_clear(&err);
  {
    char dir[600];
    mkdir(CUTE_TEST_DIR, 0755);
    snprintf(dir, sizeof dir, "%s/cache", CUTE_TEST_DIR);
    cute_cuda_cache_configure(CUTE_CUDA_CACHE_MEMORY, dir, NULL);
  }
  cute_cuda_text_puts(&prog, shim);
  for (i = 0; i < NCASES; i++) {
    cute_layout S = L(cases[i].src), D = L(cases[i].dst);
    cute_cuda_copy_plan p;
    if (cute_cuda_copy_plan_make(&p, &S, cases[i].soff, &D, cases[i].doff,
                                 cases[i].dtype, NULL, &err) != CUTE_CUDA_OK) {
      CHECK(0, "%s: plan failed: %s", cases[i].what, err.msg);
      cute_cuda_error_clear(&err);
      continue;
    }
    CHECK(p.kind == cases[i].kind && p.vector == cases[i].vector,
          "%s: got %s", cases[i].what, p.summary);
    emit_case(&prog, i, &p, &S, &D);
    expect_case(&want, i, &S, &D);
    compile_ptx(i, &p, have_nvrtc);
    cute_cuda_copy_plan_free(&p);
  }
  cute_cuda_text_puts(&prog, "int main() {\n");
  for (i = 0; i < NCASES; i++) cute_cuda_text_printf(&prog, "  run%d();\n", i);
  cute_cuda_text_puts(&prog, "  return 0;\n}\n");
  got = kit_host_run("copy", prog.s, &skipped);
  if (skipped)
    printf("SKIP (host emulation): no C++ compiler\n");
  else
    CHECK(got && strcmp(got, want.s) == 0,
          "emulated kernels disagree with the reference (see %s/copy.*)",
          CUTE_TEST_DIR);
  free(got);
  test_errors();
  cute_cuda_text_free(&prog);
  cute_cuda_text_free(&want);
  return test_finish();
}
