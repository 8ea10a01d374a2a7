/*
 * cache.c -- the content-addressed kernel cache.
 *
 * A key is the SHA-256 of everything that determines the binary (source,
 * named headers, every file under the caller's include directories,
 * options, kernel names, NVRTC version, architecture; compile.c and
 * includes.c build it).  A program whose include directories are too big
 * to hash is kept in memory only, never on disk.
 * Entries live in memory for the process and, in disk mode, under
 *     <dir>/kernels/<first two hex digits>/<key>.bin   header + image
 *                                          <key>.cu    the source
 *                                          <key>.log   NVRTC's log
 * Each file is written to a temporary name and renamed into place, so a
 * reader sees a whole file or none.  A .bin is served only when it is what
 * the request asked for: its header names the request's key, architecture,
 * kind and kernel count, and its checksum (SHA-256 of the header above it
 * and of the image) matches; anything else -- torn, edited, foreign, from
 * another version -- reads as a miss and is rewritten.
 *
 * The .bin header (text, then the image bytes):
 *     cutelua-kernel 2\n key <64 hex>\n kind cubin|ptx\n arch sm_90\n
 *     names N\n <i> <lowered>\n ... size <bytes>\n sha256 <64 hex>\n <image>
 *
 * Threads: the settings, the in-memory entries and the counters are shared
 * by every thread of the process and guarded by one mutex; file work runs
 * outside it on a copy of the directory taken under it.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda_internal.h"

#include <errno.h>
#include <pthread.h>
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

/* The directory's room: CUTE_CUDA_CACHE_DIR_MAX characters and a NUL. */
typedef char cache_dir[CUTE_CUDA_CACHE_DIR_MAX + 1];

static struct {
  int configured;
  cute_cuda_cache_mode mode;
  cache_dir dir;
  char refused[160];   /* why $CUTELUA_CACHE_DIR was refused, or ""     */
  mem_entry *mem;
  unsigned tmp_counter;
} C;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* --------------------------------------------------------- configuration -- */
/* A directory longer than the room is refused, never cut: a cut path is
 * another directory, and the cache would be written there. */
static int fits(const char *what, const char *dir, char *why, size_t cap)
{
  size_t n = strlen(dir);
  if (n <= CUTE_CUDA_CACHE_DIR_MAX) return 1;
  snprintf(why, cap, "cute.cuda: %s is %lu characters long, more "
           "than the %d allowed", what, (unsigned long)n,
           CUTE_CUDA_CACHE_DIR_MAX);
  return 0;
}

/* The default directory into out; 0 (and a message in C.refused) when
 * $CUTELUA_CACHE_DIR is too long.  Derived defaults that do not fit
 * ($XDG_CACHE_HOME or $HOME too long) fall back to /tmp/cutelua. */
static int default_dir(cache_dir out)
{
  const char *d = getenv("CUTELUA_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  char buf[2 * CUTE_CUDA_CACHE_DIR_MAX];
  if (d && *d) {
    if (!fits("$CUTELUA_CACHE_DIR", d, C.refused, sizeof C.refused)) return 0;
    strcpy(out, d);
    return 1;
  }
  if (x && *x) snprintf(buf, sizeof buf, "%.1023s/cutelua", x);
  else snprintf(buf, sizeof buf, "%.1023s/.cache/cutelua",
                home && *home ? home : "/tmp");
  strcpy(out, strlen(buf) <= CUTE_CUDA_CACHE_DIR_MAX ? buf : "/tmp/cutelua");
  return 1;
}

/* Call with the lock held. */
static void ensure_configured(void)
{
  const char *m;
  if (C.configured) return;
  C.configured = 1;
  m = getenv("CUTELUA_CACHE");
  C.mode = CUTE_CUDA_CACHE_DISK;
  if (m && strcmp(m, "off") == 0) C.mode = CUTE_CUDA_CACHE_OFF;
  if (m && strcmp(m, "memory") == 0) C.mode = CUTE_CUDA_CACHE_MEMORY;
  default_dir(C.dir);
}

cute_cuda_status cute_cuda_cache_configure(cute_cuda_cache_mode mode,
                                           const char *dir,
                                           cute_cuda_error *err)
{
  char why[160];
  if (dir && !fits("the cache directory", dir, why, sizeof why))
    return cucu_fail(err, CUTE_CUDA_EINVAL, "%s", why);
  pthread_mutex_lock(&lock);
  ensure_configured();
  C.mode = mode;
  C.refused[0] = 0;
  if (dir) strcpy(C.dir, dir);
  else default_dir(C.dir);
  pthread_mutex_unlock(&lock);
  return CUTE_CUDA_OK;
}

/* A copy of the settings, taken under the lock. */
static cute_cuda_cache_mode settings(cache_dir dir)
{
  cute_cuda_cache_mode m;
  pthread_mutex_lock(&lock);
  ensure_configured();
  m = C.mode;
  if (dir) memcpy(dir, C.dir, sizeof C.dir);
  pthread_mutex_unlock(&lock);
  return m;
}

cute_cuda_cache_mode cute_cuda_cache_mode_get(void) { return settings(NULL); }

const char *cute_cuda_cache_dir(char out[CUTE_CUDA_CACHE_DIR_MAX + 1])
{
  settings(out);
  return out;
}

cute_cuda_status cucu_cache_ready(cute_cuda_error *err)
{
  char why[sizeof C.refused];
  pthread_mutex_lock(&lock);
  ensure_configured();
  memcpy(why, C.refused, sizeof why);
  pthread_mutex_unlock(&lock);
  if (why[0] == 0) return CUTE_CUDA_OK;
  return cucu_fail(err, CUTE_CUDA_EINVAL, "%s (set it to a shorter path, or "
                   "configure the cache with another directory)", why);
}

void cute_cuda_stats_get(cute_cuda_stats *s)
{
  pthread_mutex_lock(&lock);
  *s = cucu_stats;
  pthread_mutex_unlock(&lock);
}

void cute_cuda_stats_reset(void)
{
  pthread_mutex_lock(&lock);
  memset(&cucu_stats, 0, sizeof cucu_stats);
  pthread_mutex_unlock(&lock);
}

void cucu_stats_add(long *counter, long n, double ms)
{
  pthread_mutex_lock(&lock);
  if (counter) *counter += n;
  cucu_stats.nvrtc_ms += ms;
  pthread_mutex_unlock(&lock);
}

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
  mem_entry *e;
  pthread_mutex_lock(&lock);
  e = C.mem;
  C.mem = NULL;
  pthread_mutex_unlock(&lock);
  while (e) {
    mem_entry *next = e->next;
    cute_cuda_binary_free(&e->bin);
    free(e);
    e = next;
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
  unsigned n;
  int ok;
  pthread_mutex_lock(&lock);
  n = C.tmp_counter++;
  pthread_mutex_unlock(&lock);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), n);
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
  char why[64];
  snprintf(why, sizeof why, "%s", strerror(errno));
  pthread_mutex_lock(&lock);
  if (cucu_stats.disk_errors++ == 0)
    snprintf(cucu_stats.disk_error, sizeof cucu_stats.disk_error,
             "cannot write the kernel cache at %.150s: %.60s", path, why);
  pthread_mutex_unlock(&lock);
}

static void entry_path(char *out, size_t cap, const char *dir,
                       const char *key, const char *ext)
{
  snprintf(out, cap, "%s/kernels/%.2s/%s%s", dir, key, key, ext);
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

/* The header of binary b as the .bin holds it, up to its checksum line. */
static void bin_header(cute_cuda_text *h, const cute_cuda_binary *b)
{
  int i;
  cute_cuda_text_printf(h, "cutelua-kernel 2\nkey %s\nkind %s\narch %s\n"
                        "names %d\n", b->key, b->is_cubin ? "cubin" : "ptx",
                        b->arch, b->nnames);
  for (i = 0; i < b->nnames; i++)
    cute_cuda_text_printf(h, "%d %s\n", i, b->lowered[i]);
  cute_cuda_text_printf(h, "size %llu\n", (unsigned long long)b->size);
}

/* SHA-256 of header and image, hex. */
static void checksum(const char *head, size_t nhead, const char *image,
                     size_t nimage, char hex[65])
{
  cucu_sha256 h;
  cucu_sha256_init(&h);
  cucu_sha256_update(&h, head, nhead);
  cucu_sha256_update(&h, image, nimage);
  cucu_sha256_hex(&h, hex);
}

/* Fills b from a .bin when it is the entry `want` asks for (key, arch,
 * kind, kernel count) and its checksum holds. */
static int parse_bin(const char *data, size_t size,
                     const cute_cuda_binary *want, cute_cuda_binary *b)
{
  const char *p = data, *end = data + size, *sum_line;
  char line[1200], kind[16], key[80], a[600], l[600], sum[80], hex[65];
  unsigned long long n;
  int i, names;
  if (!(p = next_line(p, end, line, sizeof line)) ||
      strcmp(line, "cutelua-kernel 2") != 0 ||
      !(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "key %79s", key) != 1 || strcmp(key, want->key) != 0 ||
      !(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "kind %15s", kind) != 1 ||
      !(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "arch %15s", b->arch) != 1 ||
      strcmp(b->arch, want->arch) != 0 ||
      !(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "names %d", &names) != 1 || names != want->nnames)
    return 0;
  b->is_cubin = strcmp(kind, "cubin") == 0;
  if (b->is_cubin != want->is_cubin ||
      (!b->is_cubin && strcmp(kind, "ptx") != 0))
    return 0;
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
      sscanf(line, "size %llu", &n) != 1)
    return 0;
  sum_line = p;
  if (!(p = next_line(p, end, line, sizeof line)) ||
      sscanf(line, "sha256 %79s", sum) != 1 || (size_t)(end - p) != n)
    return 0;
  checksum(data, (size_t)(sum_line - data), p, n, hex);
  if (strcmp(hex, sum) != 0) return 0;
  if ((b->image = malloc(n + 1)) == NULL) return 0;
  memcpy(b->image, p, n);
  b->image[n] = 0;
  b->size = n;
  return 1;
}

static int disk_get(const char *dir, const cute_cuda_binary *want,
                    cute_cuda_binary *out)
{
  char path[1300];
  size_t n = 0;
  char *data;
  int ok;
  entry_path(path, sizeof path, dir, want->key, ".bin");
  if ((data = cucu_read_file(path, &n)) == NULL) return 0;
  memset(out, 0, sizeof *out);
  ok = parse_bin(data, n, want, out);
  free(data);
  if (ok) {
    size_t ln = 0;
    entry_path(path, sizeof path, dir, want->key, ".log");
    out->log = cucu_read_file(path, &ln);
    if (out->log == NULL) out->log = cucu_strdup("");
    memcpy(out->key, want->key, 65);
    ok = out->log != NULL;
  }
  if (!ok) cute_cuda_binary_free(out);
  return ok;
}

static void disk_put(const char *dir, const cute_cuda_binary *b,
                     const char *source)
{
  char path[1300], hex[65];
  cute_cuda_text h = {0};
  snprintf(path, sizeof path, "%s/kernels/%.2s", dir, b->key);
  if (mkdirs(path) != 0) {
    disk_failed(path);
    return;
  }
  entry_path(path, sizeof path, dir, b->key, ".cu");
  if (write_atomic(path, source, strlen(source), NULL, 0) != 0) {
    disk_failed(path);
    return;
  }
  entry_path(path, sizeof path, dir, b->key, ".log");
  write_atomic(path, b->log, strlen(b->log), NULL, 0);
  bin_header(&h, b);
  if (!h.oom) {
    checksum(h.s, h.len, b->image, b->size, hex);
    cute_cuda_text_printf(&h, "sha256 %s\n", hex);
  }
  entry_path(path, sizeof path, dir, b->key, ".bin");
  if (!h.oom && write_atomic(path, h.s, h.len, b->image, b->size) == 0)
    cucu_stats_add(&cucu_stats.disk_writes, 1, 0);
  else if (!h.oom)
    disk_failed(path);
  cute_cuda_text_free(&h);
}

/* ------------------------------------------------------------ interface -- */
/* Takes e into the list, unless an entry of its key is there already (two
 * threads compiled the same program). */
static void mem_put(const cute_cuda_binary *b)
{
  mem_entry *e = malloc(sizeof *e), *o;
  if (e == NULL) return;
  if (!binary_copy(&e->bin, b)) {
    free(e);
    return;
  }
  pthread_mutex_lock(&lock);
  for (o = C.mem; o && strcmp(o->bin.key, b->key) != 0; o = o->next) {}
  if (o == NULL) {
    e->next = C.mem;
    C.mem = e;
  }
  pthread_mutex_unlock(&lock);
  if (o) {
    cute_cuda_binary_free(&e->bin);
    free(e);
  }
}

static int mem_get(const cute_cuda_binary *want, cute_cuda_binary *out)
{
  mem_entry *e;
  int hit = 0;
  pthread_mutex_lock(&lock);
  for (e = C.mem; e && !hit; e = e->next)
    hit = strcmp(e->bin.key, want->key) == 0 &&
          strcmp(e->bin.arch, want->arch) == 0 &&
          e->bin.nnames == want->nnames && binary_copy(out, &e->bin);
  if (hit) cucu_stats.memory_hits++;
  pthread_mutex_unlock(&lock);
  return hit;
}

int cucu_cache_get(const cute_cuda_binary *want, int disk,
                   cute_cuda_binary *out)
{
  cache_dir dir;
  cute_cuda_cache_mode mode = settings(dir);
  if (mode == CUTE_CUDA_CACHE_OFF) return 0;
  if (mem_get(want, out)) {
    out->from_cache = 1;
    out->compile_ms = 0;
    return 1;
  }
  if (disk && mode == CUTE_CUDA_CACHE_DISK && disk_get(dir, want, out)) {
    out->from_cache = 2;
    cucu_stats_add(&cucu_stats.disk_hits, 1, 0);
    mem_put(out);
    return 1;
  }
  return 0;
}

void cucu_cache_put(const cute_cuda_binary *b, int disk, const char *source)
{
  cache_dir dir;
  cute_cuda_cache_mode mode = settings(dir);
  if (mode == CUTE_CUDA_CACHE_OFF) return;
  mem_put(b);
  if (disk && mode == CUTE_CUDA_CACHE_DISK) disk_put(dir, b, source);
}

/* The memo file is named by the hash of the library's identity. */
static void memo_path(char *out, size_t cap, const char *dir,
                      const char *identity)
{
  cucu_sha256 h;
  char hex[65];
  cucu_sha256_init(&h);
  cucu_sha256_update(&h, identity, strlen(identity));
  cucu_sha256_hex(&h, hex);
  snprintf(out, cap, "%s/nvrtc/%.32s", dir, hex);
}

char *cucu_cache_memo_get(const char *identity)
{
  char path[1300], *v;
  cache_dir dir;
  size_t n = 0;
  if (settings(dir) != CUTE_CUDA_CACHE_DISK) return NULL;
  memo_path(path, sizeof path, dir, identity);
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
  cache_dir dir;
  if (settings(dir) != CUTE_CUDA_CACHE_DISK) return;
  snprintf(path, sizeof path, "%s/nvrtc", dir);
  if (mkdirs(path) != 0) {
    disk_failed(path);
    return;
  }
  memo_path(path, sizeof path, dir, identity);
  if (write_atomic(path, version, strlen(version), NULL, 0) != 0)
    disk_failed(path);
}
