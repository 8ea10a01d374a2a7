/*
 * host.c -- a C program that embeds cutelua: it opens a sandboxed state
 * (memory limit, instruction budget, no io/os), runs a script that defines
 * layouts, and reads them back as C arrays.
 *
 *     host              runs the built-in script below
 *     host tile.lua     runs tile.lua instead; it should set the global A
 *                       and return a layout
 *
 * Build it against an installed cutelua either way:
 *     cc host.c $(pkg-config --cflags --libs cutelua) -o host
 *     cmake -S examples/host -B build-host && cmake --build build-host
 */
#include <stdio.h>

#include <cutelua.h>

static const char *const builtin =
    "local cute = require 'cute'\n"
    "A = cute.layout '(4,8):(1,4)'        -- a 4x8 column-major matrix\n"
    "return cute.zipped_divide(A, {2, 4})  -- its 2x4 tiles, tile-major\n";

static void print_layout(const char *name, const cutelua_layout *L) {
  int i;
  printf("%s = %s\n  profile %s\n  shape  ", name, L->text, L->profile);
  for (i = 0; i < L->nleaf; i++)
    printf(" %lld", (long long)L->shape[i]);
  printf("\n  stride ");
  for (i = 0; i < L->nleaf; i++)
    printf(" %lld", (long long)L->stride[i]);
  printf("\n");
}

/* The first line of the last error: the message without its traceback. */
static void print_error(const char *what, cutelua_state *S) {
  const char *msg = cutelua_last_error(S);
  int n = 0;
  while (msg[n] != '\0' && msg[n] != '\n')
    n++;
  printf("%s: %.*s\n", what, n, msg);
}

int main(int argc, char **argv) {
  cutelua_options opt;
  cutelua_layout A, tiles;
  cutelua_state *S;
  cutelua_status st;
  cutelua_options_init(&opt);
  opt.memory_limit = (size_t)16 << 20;  /* 16 MiB of Lua heap */
  opt.instruction_limit = 10000000;     /* per run call       */
  S = cutelua_open(&opt);
  if (S == NULL) {
    fprintf(stderr, "host: cannot open a cutelua state\n");
    return 1;
  }
  st = argc > 1 ? cutelua_run_file(S, argv[1])
                : cutelua_run_string(S, builtin, "=builtin");
  if (st != CUTELUA_OK || cutelua_global_layout(S, "A", &A) != CUTELUA_OK ||
      cutelua_result_layout(S, 1, &tiles) != CUTELUA_OK) {
    fprintf(stderr, "host: %s\n", cutelua_last_error(S));
    cutelua_close(S);
    return 1;
  }
  print_layout("A", &A);
  print_layout("tiles", &tiles);

  /* The limits at work: the state survives both and stays usable. */
  if (cutelua_run_string(S, "while true do end", "=runaway") != CUTELUA_OK)
    print_error("runaway script", S);
  if (cutelua_run_string(S, "return ('x'):rep(1 << 30)", "=greedy") !=
      CUTELUA_OK)
    print_error("greedy script", S);
  printf("io in the sandbox: %s\n",
         cutelua_run_string(S, "assert(io == nil)", "=sandbox") == CUTELUA_OK
             ? "closed" : "open");
  cutelua_close(S);
  return 0;
}
