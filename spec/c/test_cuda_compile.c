/*
 * test_cuda_compile.c -- the NVRTC path and the kernel cache, without a
 * GPU: generated layouts and tensors compile to PTX for compute_90; a warm
 * compile calls NVRTC zero times (memory, then disk); entries keep source
 * and log beside the binary; a torn entry is a miss; compile errors carry
 * the log and the numbered source; no driver gives the documented message.
 * Skips (passing) with a message when NVRTC is not installed.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reaches into the bridge for the hash (not public API). */
#include "../../cuda/cute_cuda_internal.h"

static void test_sha256(void)
{
  static const struct { const char *in, *hex; } v[] = {
    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
  };
  size_t i;
  for (i = 0; i < sizeof v / sizeof v[0]; i++) {
    cucu_sha256 h;
    char hex[65];
    cucu_sha256_init(&h);
    cucu_sha256_update(&h, v[i].in, strlen(v[i].in));
    cucu_sha256_hex(&h, hex);
    CHECK(strcmp(hex, v[i].hex) == 0, "sha256(%s) = %s", v[i].in, hex);
  }
}

static void test_no_driver(void)
{
  cute_cuda_error err = {0};
  cute_cuda_status s = cute_cuda_driver_load(&err);
  if (s == CUTE_CUDA_OK) {
    printf("note: a driver is present; the no-driver message is not checked\n");
    return;
  }
  if (s == CUTE_CUDA_ENOLIB) {
    const char *want = "cute.cuda: libcuda.so.1 not found (no NVIDIA driver): ";
    CHECK(strncmp(err.msg, want, strlen(want)) == 0, "message: %s", err.msg);
  }
  /* Asking again repeats the remembered failure. */
  CHECK(cute_cuda_driver_load(&err) == s, "failure must be remembered");
  cute_cuda_error_clear(&err);
}

static int exists(const char *dir, const char *key, const char *ext)
{
  char path[1400];
  snprintf(path, sizeof path, "%s/kernels/%.2s/%s%s", dir, key, key, ext);
  return access(path, R_OK) == 0;
}

static const char *program_source(cute_cuda_text *src)
{
  cute_layout A = L("((2,4),(3,5)):((1,2),(8,24))"), T = L("(64,32):(32,1)");
  cute_composed S;
  cute_composed_parse(&S, "Sw<3,4,3> o 0 o (8,64):(64,1)", NULL);
  cute_cuda_text_puts(src, cute_cuda_prelude);
  cute_cuda_emit_layout(src, "A", &A, NULL);
  cute_cuda_emit_composed(src, "S", &S, NULL);
  cute_cuda_emit_tensor(src, "X", CUTE_F32, &T, NULL);
  cute_cuda_text_puts(src,
      "extern \"C\" __global__ void k(X_t x, float *out) {\n"
      "  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < X_size) out[A(i % A_size) + S(i % S_size)] = x(i % 64u, i / 64u);\n"
      "}\n"
      "template <int N> __global__ void t(float *p) { p[threadIdx.x] = N; }\n");
  return src->s;
}

static void test_compile_and_cache(const char *dir)
{
  cute_cuda_text src = {0};
  const char *names[] = {"k", "t<4>"};
  cute_cuda_program p = {0};
  cute_cuda_binary b1, b2, b3;
  cute_cuda_error err = {0};
  cute_cuda_stats st;

  p.source = program_source(&src);
  p.names = names;
  p.nnames = 2;
  p.arch = "compute_90";
  cute_cuda_cache_configure(CUTE_CUDA_CACHE_DISK, dir, NULL);
  cute_cuda_stats_reset();

  CHECK(cute_cuda_compile(&p, &b1, &err) == CUTE_CUDA_OK, "compile: %s",
        err.msg ? err.msg : "");
  cute_cuda_stats_get(&st);
  CHECK(st.nvrtc_calls == 1 && b1.from_cache == 0, "cold: one NVRTC call");
  CHECK(!b1.is_cubin && b1.image && strstr(b1.image, ".entry k(") != NULL,
        "PTX with entry k");
  CHECK(b1.nnames == 2 && strcmp(b1.lowered[0], "k") == 0 &&
            strcmp(b1.lowered[1], "t<4>") != 0 &&
            strstr(b1.image, b1.lowered[1]) != NULL,
        "lowered names (template mangled): %s", b1.nnames == 2 ? b1.lowered[1] : "");
  CHECK(exists(dir, b1.key, ".bin") && exists(dir, b1.key, ".cu") &&
            exists(dir, b1.key, ".log"), "entry files beside each other");
  printf("cold compile: %.1f ms (NVRTC %s loaded in %.1f ms)\n", b1.compile_ms,
         cute_cuda_nvrtc_version(), cute_cuda_nvrtc_load_ms());

  /* Warm: memory, then (forgetting memory) disk; no NVRTC call. */
  CHECK(cute_cuda_compile(&p, &b2, &err) == CUTE_CUDA_OK && b2.from_cache == 1,
        "memory hit");
  cute_cuda_binary_free(&b2);
  cute_cuda_cache_forget_memory();
  CHECK(cute_cuda_compile(&p, &b2, &err) == CUTE_CUDA_OK && b2.from_cache == 2,
        "disk hit");
  cute_cuda_stats_get(&st);
  CHECK(st.nvrtc_calls == 1 && st.memory_hits == 1 && st.disk_hits == 1,
        "warm compiles call NVRTC zero times (calls %ld)", st.nvrtc_calls);
  CHECK(b2.size == b1.size && memcmp(b2.image, b1.image, b1.size) == 0 &&
            strcmp(b2.lowered[1], b1.lowered[1]) == 0 && !strcmp(b2.key, b1.key),
        "disk entry equals the compiled binary");

  /* A different option is a different key. */
  {
    const char *opt[] = {"-DCUTE_TEST_VARIANT=1"};
    p.options = opt;
    p.noptions = 1;
    CHECK(cute_cuda_compile(&p, &b3, &err) == CUTE_CUDA_OK &&
              strcmp(b3.key, b1.key) != 0 && b3.from_cache == 0,
          "options are part of the key");
    cute_cuda_binary_free(&b3);
    p.noptions = 0;
  }

  /* A torn entry (size mismatch) is a miss, then rewritten. */
  {
    char path[1400];
    FILE *f;
    snprintf(path, sizeof path, "%s/kernels/%.2s/%s.bin", dir, b1.key, b1.key);
    f = fopen(path, "r+b");
    if (f) {
      fseek(f, -10, SEEK_END);
      fputs("torn", f);
      fclose(f);
      truncate(path, (off_t)b1.size / 2);
    }
    cute_cuda_cache_forget_memory();
    cute_cuda_stats_reset();
    CHECK(cute_cuda_compile(&p, &b3, &err) == CUTE_CUDA_OK &&
              b3.from_cache == 0, "torn entry must be recompiled");
    cute_cuda_binary_free(&b3);
    cute_cuda_cache_forget_memory();
    CHECK(cute_cuda_compile(&p, &b3, &err) == CUTE_CUDA_OK &&
              b3.from_cache == 2, "rewritten entry hits");
    cute_cuda_binary_free(&b3);
  }

  /* Off: every compile calls NVRTC; memory: no files. */
  cute_cuda_cache_configure(CUTE_CUDA_CACHE_OFF, dir, NULL);
  cute_cuda_stats_reset();
  CHECK(cute_cuda_compile(&p, &b3, &err) == CUTE_CUDA_OK && b3.from_cache == 0,
        "cache off compiles");
  cute_cuda_stats_get(&st);
  CHECK(st.nvrtc_calls == 1, "cache off: NVRTC called");
  cute_cuda_binary_free(&b3);

  cute_cuda_binary_free(&b1);
  cute_cuda_binary_free(&b2);
  cute_cuda_text_free(&src);
  cute_cuda_error_clear(&err);
}

static void test_compile_error(void)
{
  const char *names[] = {"bad"};
  cute_cuda_program p = {0};
  cute_cuda_binary b;
  cute_cuda_error err = {0};
  p.source = "extern \"C\" __global__ void bad(float *p) {\n"
             "  p[0] = undefined_thing;\n"
             "}\n";
  p.names = names;
  p.nnames = 1;
  p.arch = "compute_90";
  CHECK(cute_cuda_compile(&p, &b, &err) == CUTE_CUDA_ECOMPILE, "must fail");
  CHECK(err.msg && strstr(err.msg, "NVRTC compile error (compute_90)") &&
            strstr(err.msg, "undefined_thing") &&
            strstr(err.msg, "   2 |   p[0] = undefined_thing;"),
        "log and numbered source in the message:\n%s", err.msg ? err.msg : "");
  cute_cuda_error_clear(&err);
  names[0] = "missing";
  p.source = "extern \"C\" __global__ void present() {}\n";
  CHECK(cute_cuda_compile(&p, &b, &err) == CUTE_CUDA_ECOMPILE &&
            strstr(err.msg, "missing"), "unknown kernel name: %s",
        err.msg ? err.msg : "");
  cute_cuda_error_clear(&err);
}

int main(void)
{
  char dir[600], cmd[1400];
  cute_cuda_error err = {0};
  test_sha256();
  test_no_driver();
  if (cute_cuda_nvrtc_load(&err) != CUTE_CUDA_OK) {
    printf("SKIP: NVRTC not available: %s\n", err.msg);
    cute_cuda_error_clear(&err);
    return test_finish();
  }
  mkdir(CUTE_TEST_DIR, 0755);
  snprintf(dir, sizeof dir, "%s/cache-%ld", CUTE_TEST_DIR, (long)getpid());
  test_compile_and_cache(dir);
  test_compile_error();
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) printf("note: could not remove %s\n", dir);
  return test_finish();
}
