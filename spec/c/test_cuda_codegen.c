/*
 * test_cuda_codegen.c -- the CUDA C that codegen.c writes for a layout
 * computes the layout's function: the generated text is compiled for the
 * host by the C++ compiler (CUTE_DI = static inline), run over every index
 * and coordinate, and compared with the algebra's own evaluation.  No GPU
 * and no NVRTC needed.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda.h"
#include "test_cuda_kit.h"
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#define NRANDOM 60

typedef struct item {
  char name[16];
  cute_layout layout;
  cute_composed composed;
  int is_composed;
} item;

/* main() of the host program: for each layout print L(i) for every index,
 * then L(c0, c1, ...) for every index's top-level coordinate. */
static void emit_driver(cute_cuda_text *o, const item *it)
{
  const cute_layout *L = it->is_composed ? &it->composed.layout : &it->layout;
  int r = cute_tuple_rank(&L->shape), m;
  cute_cuda_text_printf(o, "  for (long long i = 0; i < %s_size; i++)\n"
                           "    printf(\"%%lld\\n\", (long long)%s(i));\n",
                        it->name, it->name);
  if (r < 2) return;
  cute_cuda_text_printf(o, "  for (long long i = 0; i < %s_size; i++) {\n"
                           "    long long k = i;\n", it->name);
  for (m = 0; m < r; m++) {
    cute_layout mode;
    int64_t sz;
    cute_layout_mode(&mode, L, m, NULL);
    cute_layout_size(&mode, &sz, NULL);
    cute_cuda_text_printf(o, "    unsigned c%d = (unsigned)(k %% %lld); k /= %lld;\n",
                          m, (long long)sz, (long long)sz);
  }
  cute_cuda_text_printf(o, "    printf(\"%%lld\\n\", (long long)%s(", it->name);
  for (m = 0; m < r; m++) cute_cuda_text_printf(o, "%sc%d", m ? ", " : "", m);
  cute_cuda_text_puts(o, "));\n  }\n");
}

/* The expected lines, from the algebra. */
static void expect(cute_cuda_text *o, const item *it)
{
  const cute_layout *L = it->is_composed ? &it->composed.layout : &it->layout;
  int64_t n = size_of(L), i, v;
  int pass, passes = cute_tuple_rank(&L->shape) >= 2 ? 2 : 1;
  for (pass = 0; pass < passes; pass++)
    for (i = 0; i < n; i++) {
      if (it->is_composed)
        cute_composed_eval_index(&it->composed, i, &v, NULL);
      else
        v = eval_i(L, i);
      cute_cuda_text_printf(o, "%lld\n", (long long)v);
    }
}

static int add_layout(item *items, int n, const char *text)
{
  item *it = &items[n];
  memset(it, 0, sizeof *it);
  snprintf(it->name, sizeof it->name, "L%d", n);
  if (strstr(text, " o ")) {
    cute_error e;
    it->is_composed = 1;
    if (cute_composed_parse(&it->composed, text, &e) != CUTE_OK) {
      fprintf(stderr, "bad composed %s: %s\n", text, e.msg);
      exit(2);
    }
  } else {
    it->layout = L(text);
  }
  return n + 1;
}

int main(void)
{
  static const char *fixed[] = {
    "(4,8):(1,4)", "(4,8):(8,1)", "8:1", "1:0", "(1,1):(0,0)", "7:0",
    "((2,2),(4,2)):((1,8),(2,16))", "(3,(2,3)):(5,(1,30))",
    "((3,2),((2,3),2)):((4,1),((2,15),100))", "(2,3,2):(42,1,128)",
    "(8,(3,5)):(1,(57,8))", "(4,3):(-1,4)", "(5,(1,4)):(1,(7,5))",
    "Sw<3,4,3> o 0 o (8,64):(64,1)", "Sw<5,0,5> o 0 o (32,32):(32,1)",
    "Sw<2,4,-3> o 3 o (16,32):(1,16)", "Sw<0,0,0> o 5 o 4:2",
  };
  item items[NRANDOM + 32];
  cute_cuda_text src = {0}, want = {0};
  cute_cuda_error err = {0};
  char *got;
  test_rng rng;
  int n = 0, i, ok = 1, skipped;
  size_t k;

  for (k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
    n = add_layout(items, n, fixed[k]);
  rng_seed(&rng, 20240611);
  for (i = 0; i < NRANDOM; i++) {
    items[n].is_composed = 0;
    snprintf(items[n].name, sizeof items[n].name, "L%d", n);
    items[n].layout = rng_layout(&rng, 3, 6, 7, 300);
    n++;
  }

  /* One program for all layouts: one compiler run keeps the test fast. */
  cute_cuda_text_puts(&src, "#include <cstdio>\n#define CUTE_DI static inline\n");
  cute_cuda_text_puts(&src, cute_cuda_prelude);
  for (i = 0; i < n && ok; i++)
    ok = (items[i].is_composed
              ? cute_cuda_emit_composed(&src, items[i].name, &items[i].composed, &err)
              : cute_cuda_emit_layout(&src, items[i].name, &items[i].layout, &err)) ==
         CUTE_CUDA_OK;
  CHECK(ok, "codegen failed: %s", err.msg ? err.msg : "");
  cute_cuda_text_puts(&src, "int main() {\n");
  for (i = 0; i < n; i++) emit_driver(&src, &items[i]);
  cute_cuda_text_puts(&src, "  return 0;\n}\n");
  for (i = 0; i < n; i++) expect(&want, &items[i]);

  /* The emitted text of a classic case, for readers of this test. */
  {
    cute_cuda_text one = {0};
    cute_layout A = L("(4,8):(1,4)"), B = L("(4,8):(8,1)");
    cute_cuda_emit_layout(&one, "A", &A, NULL);
    CHECK(strstr(one.s, "r += (int)i;") != NULL, "merged 32:1 expected:\n%s", one.s);
    cute_cuda_emit_layout(&one, "B", &B, NULL);
    CHECK(strstr(one.s, "(i % 4u) * 8;") && strstr(one.s, "i /= 4u;"),
          "literal divisors expected:\n%s", one.s);
    cute_cuda_text_free(&one);
  }
  /* Coordinate layouts give coordinates (cute/layout.h's coord); their
   * values are checked against the algebra by spec/lua/cuda_device_spec.lua,
   * which compiles with the device library. */
  {
    cute_layout I = L("(4,8):(1@0,1@1)"), J = L("(4,8):(1@0@1,1@1)");
    cute_cuda_text one = {0};
    CHECK(cute_cuda_emit_layout(&one, "I", &I, &err) == CUTE_CUDA_OK &&
              strstr(one.s, "cute::coord<2, int> r = {};") &&
              strstr(one.s, "r[1] += (int)c1;"),
          "a coordinate layout gives coordinates:\n%s", one.s);
    CHECK(cute_cuda_emit_layout(&one, "J", &J, &err) == CUTE_CUDA_ELAYOUT &&
              strstr(err.msg, "nested basis"), "nested bases are refused");
    CHECK(cute_cuda_emit_layout(&one, "9x", &items[0].layout, &err) ==
              CUTE_CUDA_EINVAL, "bad identifier must be refused");
    cute_cuda_text_free(&one);
  }

  got = kit_host_run("codegen", src.s, &skipped);
  if (skipped)
    printf("SKIP: no host C++ compiler to check generated code\n");
  else
    CHECK(got && strcmp(got, want.s) == 0,
          "generated code disagrees with the algebra (see %s/codegen.*)",
          CUTE_TEST_DIR);
  free(got);
  cute_cuda_text_free(&src);
  cute_cuda_text_free(&want);
  cute_cuda_error_clear(&err);
  return test_finish();
}
