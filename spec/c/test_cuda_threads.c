/*
 * test_cuda_threads.c -- two threads using the bridge at once, from a
 * fresh process each time: the one-time loads of NVRTC and the driver
 * (raced by both threads), the NVRTC version in the key, the cache (one
 * program both compile, one each, memory forgotten and settings read
 * while the other compiles), the counters, and where a driver is present
 * (a GPU, or the fake one of spec/c/cuda_fake_driver.c through
 * CUDA_HOME) memory, modules, launches and events.
 *
 * Each round forks a child that starts both threads behind a barrier, so
 * every round races the first loads; a crash or a wrong result fails the
 * round.  Built a second time with ThreadSanitizer where the compiler has
 * it (test_cuda_threads_tsan), which reports the races a round survives.
 * Without NVRTC the compile part is skipped; the loads still race.
 */
#define _POSIX_C_SOURCE 200809L

#include "cute_cuda.h"
#include "testlib.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 5
#define THREADS 2

static pthread_barrier_t start;
static char cache_dir[600];

typedef struct job {
  int id, have_nvrtc, have_driver;
  int failures;
  char why[512];
} job;

static void fail(job *j, const char *what, cute_cuda_error *err)
{
  if (j->failures++ == 0)
    snprintf(j->why, sizeof j->why, "thread %d: %s: %s", j->id, what,
             err && err->msg ? err->msg : "");
  if (err) cute_cuda_error_clear(err);
}

static void compile_one(job *j, const char *src, const char *name)
{
  cute_cuda_program p = {0};
  cute_cuda_binary b;
  cute_cuda_error err = {0};
  const char *names[1];
  names[0] = name;
  p.source = src;
  p.names = names;
  p.nnames = 1;
  p.arch = "compute_90";
  if (cute_cuda_compile(&p, &b, &err) != CUTE_CUDA_OK) {
    fail(j, "compile", &err);
    return;
  }
  if (b.nnames != 1 || b.size == 0 || strstr(b.image, name) == NULL)
    fail(j, "compile: a wrong binary", NULL);
  cute_cuda_binary_free(&b);
}

static void compile_part(job *j)
{
  char src[256], name[32];
  cute_cuda_stats st;
  char dir[CUTE_CUDA_CACHE_DIR_MAX + 1];
  int i;
  for (i = 0; i < 3; i++) {
    compile_one(j, "extern \"C\" __global__ void shared_k(float *p)"
                   " { p[threadIdx.x] *= 2; }\n", "shared_k");
    snprintf(name, sizeof name, "own_%d_%d", j->id, i);
    snprintf(src, sizeof src, "extern \"C\" __global__ void %s(float *p)"
             " { p[threadIdx.x] += %d; }\n", name, j->id * 10 + i);
    compile_one(j, src, name);
    cute_cuda_stats_get(&st);
    if (strcmp(cute_cuda_cache_dir(dir), cache_dir) != 0)
      fail(j, "cache dir changed", NULL);
    if (j->id == 0) cute_cuda_cache_forget_memory();
    else cute_cuda_cache_configure(CUTE_CUDA_CACHE_DISK, cache_dir, NULL);
  }
  if (cute_cuda_nvrtc_version() == NULL) fail(j, "no NVRTC version", NULL);
}

static void driver_part(job *j)
{
  cute_cuda_program p = {0};
  cute_cuda_binary b;
  cute_cuda_error err = {0};
  cute_cuda_launch l;
  cute_cuda_ptr d = 0;
  const char *names[] = {"scale"};
  float host[32] = {0};
  void *fn = NULL, *e0 = NULL, *e1 = NULL;
  float ms = 0;
  cute_cuda_device_info info;
  if (cute_cuda_device(&info, &err) != CUTE_CUDA_OK) {
    fail(j, "device", &err);
    return;
  }
  if (cute_cuda_alloc(&d, sizeof host, &err) ||
      cute_cuda_upload(d, host, sizeof host, &err))
    fail(j, "alloc/upload", &err);
  if (j->have_nvrtc && d) {
    p.source = "extern \"C\" __global__ void scale(float *p)"
               " { p[threadIdx.x] = 2 * p[threadIdx.x] + 1; }\n";
    p.names = names;
    p.nnames = 1;
    if (cute_cuda_compile(&p, &b, &err) != CUTE_CUDA_OK) {
      fail(j, "compile for the device", &err);
    } else {
      if (cute_cuda_function(&fn, &b, 0, &err)) fail(j, "function", &err);
      cute_cuda_launch_init(&l, fn);
      l.block[0] = 32;
      if (fn && (cute_cuda_launch_arg(&l, 0, &d, 8, &err) ||
                 cute_cuda_event_create(&e0, &err) ||
                 cute_cuda_event_create(&e1, &err) ||
                 cute_cuda_event_record(e0, NULL, &err) ||
                 cute_cuda_launch_run(&l, &err) ||
                 cute_cuda_event_record(e1, NULL, &err) ||
                 cute_cuda_event_elapsed(&ms, e0, e1, &err)))
        fail(j, "launch", &err);
      cute_cuda_event_destroy(e0);
      cute_cuda_event_destroy(e1);
      cute_cuda_binary_free(&b);
    }
  }
  if (d && cute_cuda_download(host, d, sizeof host, &err))
    fail(j, "download", &err);
  cute_cuda_free(d);
}

static void *run(void *arg)
{
  job *j = arg;
  cute_cuda_error err = {0};
  pthread_barrier_wait(&start);
  /* both threads race the one-time loads here */
  j->have_nvrtc = cute_cuda_nvrtc_load(&err) == CUTE_CUDA_OK;
  cute_cuda_error_clear(&err);
  j->have_driver = cute_cuda_driver_load(&err) == CUTE_CUDA_OK;
  cute_cuda_error_clear(&err);
  if (j->have_nvrtc) compile_part(j);
  if (j->have_driver) driver_part(j);
  return NULL;
}

/* One fresh process: both threads from a cold start.  Exit status: the
 * failures; the first reason is printed. */
static int round_in_child(void)
{
  pthread_t t[THREADS];
  job jobs[THREADS];
  int i, failures = 0;
  memset(jobs, 0, sizeof jobs);
  cute_cuda_cache_configure(CUTE_CUDA_CACHE_DISK, cache_dir, NULL);
  pthread_barrier_init(&start, NULL, THREADS);
  for (i = 0; i < THREADS; i++) {
    jobs[i].id = i;
    pthread_create(&t[i], NULL, run, &jobs[i]);
  }
  for (i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  for (i = 0; i < THREADS; i++) {
    failures += jobs[i].failures;
    if (jobs[i].failures) fprintf(stderr, "%s\n", jobs[i].why);
  }
  if (jobs[0].have_nvrtc != jobs[1].have_nvrtc ||
      jobs[0].have_driver != jobs[1].have_driver) {
    fprintf(stderr, "the threads disagree on what was loaded\n");
    failures++;
  }
  printf("round: nvrtc %s, driver %s\n", jobs[0].have_nvrtc ? "yes" : "no",
         jobs[0].have_driver ? "yes" : "no");
  pthread_barrier_destroy(&start);
  return failures > 100 ? 100 : failures;
}

int main(void)
{
  int r, status;
  char cmd[700];
  mkdir(CUTE_TEST_DIR, 0755);
  snprintf(cache_dir, sizeof cache_dir, "%s/threads-%ld", CUTE_TEST_DIR,
           (long)getpid());
  for (r = 0; r < ROUNDS; r++) {
    pid_t pid;
    fflush(stdout);
    pid = fork();
    if (pid == 0) _exit(round_in_child());
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid, "round %d: fork", r);
    if (pid <= 0) continue;
    CHECK(WIFEXITED(status), "round %d: the child died (signal %d)", r,
          WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "round %d: %d failures", r, WEXITSTATUS(status));
  }
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
  CHECK(system(cmd) == 0, "rm %s", cache_dir);
  return test_finish();
}
