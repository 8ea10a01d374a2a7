/*
 * cache.c -- the content-addressed kernel cache.
 *
 * A key is the SHA-256 of everything that determines the binary (source,
 * the user headers it includes, options, kernel names, NVRTC version,
 * architecture; compile.c builds it).  A program whose includes cannot all
 * be found (includes.c) is kept in memory only, never on disk.
 * Entries live in memory for the process and, in disk mode, under
 *     <dir>/kernels/<first two hex digits>/<key>.bin   header + image
 *                                          <key>.cu    the source
 *                                          <key>.log   NVRTC's log
 * Each file is written to a temporary name and renamed into place, so a
 * reader sees a whole file or none; the .bin goes last and its header gives
 * the image size, so a torn or foreign file reads as a miss (and is then
 * rewritten), never as a wrong kernel.
 *
 * The .bin header (text, then the image bytes):
 *     cutelua-kernel 1\n kind cubin|ptx\n arch sm_90\n names N\n
 *     <name> <lowered>\n ... size <bytes>\n <image>
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

cute_cuda_stats cucu_stats;

typedef struct mem_entry {
  struct mem_entry *next;
  cute_cuda_binary bin;
} mem_entry;

static struct {
  int configured;
  cute_cuda_cache_mode mode;
  char dir[1024];
  mem_entry *mem;
  unsigned tmp_counter;
} C;

/* --------------------------------------------------------- configuration -- */
static void default_dir(char *out, size_t cap)
{
  const char *d = getenv("CUTELUA_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  if (d && *d) snprintf(out, cap, "%s", d);
  else if (x && *x) snprintf(out, cap, "%s/cutelua", x);
  else snprintf(out, cap, "%s/.cache/cutelua", home && *home ? home : "/tmp");
}

static void ensure_configured(void)
{
  const char *m;
  if (C.configured) return;
  C.configured = 1;
  m = getenv("CUTELUA_CACHE");
  C.mode = CUTE_CUDA_CACHE_DISK;
  if (m && strcmp(m, "off") == 0) C.mode = CUTE_CUDA_CACHE_OFF;
  if (m && strcmp(m, "memory") == 0) C.mode = CUTE_CUDA_CACHE_MEMORY;
  default_dir(C.dir, sizeof C.dir);
}

void cute_cuda_cache_configure(cute_cuda_cache_mode mode, const char *dir)
{
  ensure_configured();
  C.mode = mode;
  if (dir) snprintf(C.dir, sizeof C.dir, "%s", dir);
  else default_dir(C.dir, sizeof C.dir);
}

cute_cuda_cache_mode cute_cuda_cache_mode_get(void)
{
  ensure_configured();
  return C.mode;
}

const char *cute_cuda_cache_dir(void)
{
  ensure_configured();
  return C.dir;
}

void cute_cuda_stats_get(cute_cuda_stats *s) { *s = cucu_stats; }
void cute_cuda_stats_reset(void) { memset(&cucu_stats, 0, sizeof cucu_stats); }

/* ---------------------------------------------------------------- memory -- */
static int binary_copy(cute_cuda_binary *d, const cute_cuda_binary *s)
{
  int i, ok;
  *d = *s;
  d->image = malloc(s->size + 1);
  d->log = cucu_strdup(s->log ? s->log : "");
  d->lowered = calloc((size_t)(s->nnames > 0 ? s->nnames : 1),
                      sizeof(char *));
  ok = d->image && d->log && d->lowered;
  if (d->image) {
    memcpy(d->image, s->image, s->size);
    d->image[s->size] = 0;
  }
  for (i = 0; ok && i < s->nnames; i++)
    ok = (d->lowered[i] = cucu_strdup(s->lowered[i])) != NULL;
  if (!ok) {
    if (!d->lowered) d->nnames = 0;
    cute_cuda_binary_free(d);
  }
  return ok;
}

void cute_cuda_cache_forget_memory(void)
{
  while (C.mem) {
    mem_entry *e = C.mem;
    C.mem = e->next;
    cute_cuda_binary_free(&e->bin);
    free(e);
  }
}

/* The entries live as long as this copy of the code, not longer: lua_close
 * unloads cute/cuda/core.so from a plain lua5.4, and entries left behind
 * would be lost (a leak per load; valgrind and LSan report it).  In a
 * program linked statically this runs at exit. */
#if defined(__GNUC__)
static void cache_unload(void) __attribute__((destructor));
static void cache_unload(void) { cute_cuda_cache_forget_memory(); }
#endif

/* ----------------------------------------------------------------- files -- */
static int mkdirs(const char *path)
{
  char buf[1200];
  size_t i, n = strlen(path);
  if (n >= sizeof buf) return -1;
  memcpy(buf, path, n + 1);
  for (i = 1; i <= n; i++)
    if (buf[i] == '/' || buf[i] == 0) {
      char c = buf[i];
      buf[i] = 0;
      if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
      buf[i] = c;
    }
  return 0;
}

/* Writes a then b to path through a temporary file and rename(2). */
static int write_atomic(const char *path, const void *a, size_t na,
                        const void *b, size_t nb)
{
  char tmp[1300];
  FILE *f;
  int ok;
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(),
           C.tmp_counter++);
  if ((f = fopen(tmp, "wb")) == NULL) return -1;
  ok = fwrite(a, 1, na, f) == na && (nb == 0 || fwrite(b, 1, nb, f) == nb);
  ok = (fclose(f) == 0) && ok;
  if (ok && rename(tmp, path) == 0) return 0;
  remove(tmp);
  return -1;
}

/* A disk-cache write at `path` failed (errno set): counted, and the first
 * reason kept, so that a cache reported as "disk" but unwritable (a
 * CUTELUA_CACHE_DIR that is a file, or read-only) does not go unnoticed.
 * (The path's precision keeps the reason in most of disk_error's 256 bytes
 * and gcc's -Wformat-truncation quiet.) */
static void disk_failed(const char *path)
{
  const char *why = strerror(errno);
  if (cucu_stats.disk_errors++ == 0)
    snprintf(cucu_stats.disk_error, sizeof cucu_stats.disk_error,
             "cannot write the kernel cache at %.180s: %s", path, why);
}

static void entry_path(char *out, size_t cap, const char *key, const char *ext)
{
  snprintf(out, cap, "%s/kernels/%.2s/%s%s", C.dir, key, key, ext);
}

/* ------------------------------------------------------------ .bin files -- */
/* Reads one header line into line[]; returns the position after it. */
static const char *next_line(const char *p, const char *end, char *line,
                             size_t cap)
{
  size_t n = 0;
  while (p < end && *p != '\n' && n + 1 < cap) line[n++] = *p++;
  line[n] = 0;
  return (p < end && *p == '\n') ? p + 1 : NULL;
}

static int parse_bin(const char *data, size_t size, cute_cuda_binary *b)
{
  const char *p = data, *end = data + size;
  char line[1200], kind[16], a[600], l[600];
  unsigned long long n;
  int i, names;
  if (!(p = next_line(p, end, line, sizeof line)) ||
      strcmp(line, "cutelua-kernel 1") != 0 ||
      !(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "kind %15s", kind) != 1 ||
      !(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "arch %15s", b->arch) != 1 ||
      !(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "names %d", &names) != 1 || names < 0 || names > 64)
    return 0;
  b->is_cubin = strcmp(kind, "cubin") == 0;
  b->lowered = calloc((size_t)names + 1, sizeof(char *));
  if (b->lowered == NULL) return 0;
  for (i = 0; i < names; i++) {
    if (!(p = next_line(p, end, line, sizeof line)) ||
        sscanf(line, "%599s %599s", a, l) != 2 ||
        (b->lowered[i] = cucu_strdup(l)) == NULL)
      return 0;
    b->nnames = i + 1;
  }
  if (!(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "size %llu", &n) != 1 || (size_t)(end - p) != n)
    return 0;
  if ((b->image = malloc(n + 1)) == NULL) return 0;
  memcpy(b->image, p, n);
  b->image[n] = 0;
  b->size = n;
  return 1;
}

static int disk_get(const char *key, cute_cuda_binary *out)
{
  char path[1300];
  size_t n = 0;
  char *data;
  int ok;
  entry_path(path, sizeof path, key, ".bin");
  if ((data = cucu_read_file(path, &n)) == NULL) return 0;
  memset(out, 0, sizeof *out);
  ok = parse_bin(data, n, out);
  free(data);
  if (ok) {
    size_t ln = 0;
    entry_path(path, sizeof path, key, ".log");
    out->log = cucu_read_file(path, &ln);
    if (out->log == NULL) out->log = cucu_strdup("");
    memcpy(out->key, key, 65);
    ok = out->log != NULL;
  }
  if (!ok) cute_cuda_binary_free(out);
  return ok;
}

static void disk_put(const cute_cuda_binary *b, const char *source)
{
  char path[1300];
  cute_cuda_text h = {0};
  int i;
  snprintf(path, sizeof path, "%s/kernels/%.2s", C.dir, b->key);
  if (mkdirs(path) != 0) {
    disk_failed(path);
    return;
  }
  entry_path(path, sizeof path, b->key, ".cu");
  if (write_atomic(path, source, strlen(source), NULL, 0) != 0) {
    disk_failed(path);
    return;
  }
  entry_path(path, sizeof path, b->key, ".log");
  write_atomic(path, b->log, strlen(b->log), NULL, 0);
  cute_cuda_text_printf(&h, "cutelua-kernel 1\nkind %s\narch %s\nnames %d\n",
                        b->is_cubin ? "cubin" : "ptx", b->arch, b->nnames);
  for (i = 0; i < b->nnames; i++)
    cute_cuda_text_printf(&h, "%d %s\n", i, b->lowered[i]);
  cute_cuda_text_printf(&h, "size %llu\n", (unsigned long long)b->size);
  entry_path(path, sizeof path, b->key, ".bin");
  if (!h.oom && write_atomic(path, h.s, h.len, b->image, b->size) == 0)
    cucu_stats.disk_writes++;
  else if (!h.oom)
    disk_failed(path);
  cute_cuda_text_free(&h);
}

/* ------------------------------------------------------------ interface -- */
static void mem_put(const cute_cuda_binary *b)
{
  mem_entry *e = malloc(sizeof *e);
  if (e == NULL) return;
  if (!binary_copy(&e->bin, b)) {
    free(e);
    return;
  }
  e->next = C.mem;
  C.mem = e;
}

int cucu_cache_get(const char *key, int disk, cute_cuda_binary *out)
{
  mem_entry *e;
  ensure_configured();
  if (C.mode == CUTE_CUDA_CACHE_OFF) return 0;
  for (e = C.mem; e; e = e->next)
    if (strcmp(e->bin.key, key) == 0 && binary_copy(out, &e->bin)) {
      out->from_cache = 1;
      out->compile_ms = 0;
      cucu_stats.memory_hits++;
      return 1;
    }
  if (disk && C.mode == CUTE_CUDA_CACHE_DISK && disk_get(key, out)) {
    out->from_cache = 2;
    cucu_stats.disk_hits++;
    mem_put(out);
    return 1;
  }
  return 0;
}

void cucu_cache_put(const cute_cuda_binary *b, int disk, const char *source)
{
  ensure_configured();
  if (C.mode == CUTE_CUDA_CACHE_OFF) return;
  mem_put(b);
  if (disk && C.mode == CUTE_CUDA_CACHE_DISK) disk_put(b, source);
}

/* The memo file is named by the hash of the library's identity. */
static void memo_path(char *out, size_t cap, const char *identity)
{
  cucu_sha256 h;
  char hex[65];
  cucu_sha256_init(&h);
  cucu_sha256_update(&h, identity, strlen(identity));
  cucu_sha256_hex(&h, hex);
  snprintf(out, cap, "%s/nvrtc/%.32s", C.dir, hex);
}

char *cucu_cache_memo_get(const char *identity)
{
  char path[1300], *v;
  size_t n = 0;
  ensure_configured();
  if (C.mode != CUTE_CUDA_CACHE_DISK) return NULL;
  memo_path(path, sizeof path, identity);
  v = cucu_read_file(path, &n);
  if (v && (n == 0 || n > 31 || strchr(v, '\n'))) {
    free(v);
    v = NULL;
  }
  return v;
}

void cucu_cache_memo_put(const char *identity, const char *version)
{
  char path[1300];
  ensure_configured();
  if (C.mode != CUTE_CUDA_CACHE_DISK) return;
  snprintf(path, sizeof path, "%s/nvrtc", C.dir);
  if (mkdirs(path) != 0) {
    disk_failed(path);
    return;
  }
  memo_path(path, sizeof path, identity);
  if (write_atomic(path, version, strlen(version), NULL, 0) != 0)
    disk_failed(path);
}
