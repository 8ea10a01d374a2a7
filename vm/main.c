/*
 * main.c -- the cutelua program: a lua(1) work-alike whose state has `cute`
 * preloaded (and as the global `cute`), with the stdlib compiled in.
 *
 *     cutelua script.lua a b      arg = {[0]="script.lua", "a", "b"}
 *     cutelua -e 'print(cute.layout "(4,8):(1,4)")'
 *     cutelua -l cute.tiler -i    a REPL after requiring cute.tiler
 *     echo 'print(1)' | cutelua -
 *
 * The options and their order of effect are lua(1)'s, so scripts and habits
 * carry over unchanged.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lualib.h>

#include "cutelua_internal.h"
#include "prog.h"

/* ----------------------------------------------------- Ctrl-C, errors -- */
/* Ctrl-C while a call runs must stop it wherever it is, coroutines
 * included, and leave the REPL standing.  A signal handler may call
 * lua_sethook only, and only on the thread it knows (running_L, the main
 * one).  The main thread runs with no hook: in Lua 5.4 any count hook
 * traps every instruction, which would double the cost of a call.  The
 * handler sets `interrupts` and hooks the main thread at its next call,
 * return, line and instruction.  A coroutine has its own hook, inherited
 * from the thread that creates it, and the handler cannot reach it: so
 * coroutine.create and coroutine.wrap make every new one poll (every
 * POLL_STEP instructions).  Once set, the hook fires at every instruction
 * of the thread that sees it and raises "interrupted!" again, so a pcall
 * or a coroutine.resume that catches the error stops at its next
 * instruction too. */
#define POLL_STEP 1000

static lua_State *running_L = NULL;  /* the state prog_docall is running */
static volatile sig_atomic_t interrupts = 0;   /* Ctrl-Cs during the call */
static volatile sig_atomic_t idle_sigint = 0;  /* Ctrl-C at the prompt   */

static void interrupt_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  if (interrupts == 0) {  /* a poll, or a thread hooked for a past one */
    if (lua_gethookmask(L) != LUA_MASKCOUNT ||
        lua_gethookcount(L) != POLL_STEP) {
      int main_thread = lua_pushthread(L);
      lua_pop(L, 1);
      lua_sethook(L, main_thread ? NULL : interrupt_hook,
                  main_thread ? 0 : LUA_MASKCOUNT, POLL_STEP);
    }
    return;
  }
  lua_sethook(L, interrupt_hook, LUA_MASKCOUNT, 1);
  luaL_error(L, "interrupted!");
}

/* coroutine.create and coroutine.wrap: Lua's own (upvalue 1), called with
 * the poll hook on a creating thread that has none, so that the new thread
 * inherits it; a thread that polls already, or is hooked for an interrupt,
 * passes its own hook on.  The creator drops the poll at once; checked
 * after that, `interrupts` re-hooks it if Ctrl-C came meanwhile (the
 * handler's lua_sethook may have been overwritten).  Only a memory error
 * in Lua's function leaves the poll on, until the running call ends. */
static int polled_new_thread(lua_State *L) {
  int bare = lua_gethook(L) == NULL;
  luaL_checktype(L, 1, LUA_TFUNCTION);  /* names the caller's function */
  lua_settop(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  if (bare)
    lua_sethook(L, interrupt_hook, LUA_MASKCOUNT, POLL_STEP);
  lua_call(L, 1, 1);
  if (bare) {
    lua_sethook(L, NULL, 0, 0);
    if (interrupts != 0)
      lua_sethook(L, interrupt_hook, LUA_MASKCOUNT, 1);
  }
  return 1;
}

static void poll_new_threads(lua_State *L) {
  static const char *const makers[] = {"create", "wrap"};
  size_t i;
  lua_getglobal(L, LUA_COLIBNAME);
  for (i = 0; i < sizeof makers / sizeof makers[0]; i++) {
    lua_getfield(L, -1, makers[i]);
    lua_pushcclosure(L, polled_new_thread, 1);
    lua_setfield(L, -2, makers[i]);
  }
  lua_pop(L, 1);
}

static void set_sigint(void (*handler)(int), struct sigaction *old) {
  struct sigaction sa;
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, old);
}

/* The first Ctrl-C of a call interrupts it.  Lua cannot stop a C function
 * (a long string.find) or a __gc finalizer (its hooks are off): a second
 * Ctrl-C says so, and only a third ends the program, as an unhandled
 * SIGINT.  With nothing running (the REPL's prompt) it is only noted. */
static void on_sigint(int sig) {
  static const char note[] = "\n" PROG_NAME ": still running (a C function "
    "or a __gc finalizer cannot be interrupted); Ctrl-C again to quit\n";
  lua_State *L = running_L;
  ssize_t written;
  (void)sig;
  if (L == NULL) {
    idle_sigint = 1;
    return;
  }
  if (interrupts++ == 0) {
    lua_sethook(L, interrupt_hook,
                LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
    return;
  }
  written = write(STDERR_FILENO, note, sizeof note - 1);
  (void)written;  /* a handler can do nothing about a failed write */
  set_sigint(SIG_DFL, NULL);
}

void prog_keep_sigint(void) {
  set_sigint(on_sigint, NULL);
}

int prog_idle_sigint(void) {
  int seen = idle_sigint;
  idle_sigint = 0;
  return seen;
}

int prog_docall(lua_State *L, int narg, int nres) {
  struct sigaction old;
  int status, base = lua_gettop(L) - narg;
  lua_pushcfunction(L, cutelua_msghandler);
  lua_insert(L, base);
  interrupts = 0;
  running_L = L;
  set_sigint(on_sigint, &old);
  status = lua_pcall(L, narg, nres, base);
  running_L = NULL;
  sigaction(SIGINT, &old, NULL);
  interrupts = 0;  /* one that came as the call ended is forgotten */
  lua_sethook(L, NULL, 0, 0);
  lua_remove(L, base);
  return status;
}

static void message(const char *msg) {
  fprintf(stderr, "%s: %s\n", PROG_NAME, msg);
  fflush(stderr);
}

int prog_report(lua_State *L, int status) {
  if (status != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    message(msg != NULL ? msg : "(error object is not a string)");
    lua_pop(L, 1);
  }
  return status;
}

/* ------------------------------------------------------------ warnings -- */
/* lua_newstate installs no warning function; this is lauxlib's: "@on" and
 * "@off" switch it, pieces of one message arrive with tocont set. */
typedef struct warner { int on, midline; } warner;

static void warnf(void *ud, const char *msg, int tocont) {
  warner *w = ud;
  if (!w->midline && *msg == '@') {
    if (strcmp(msg, "@on") == 0)
      w->on = 1;
    else if (strcmp(msg, "@off") == 0)
      w->on = 0;
    return;
  }
  if (w->on) {
    if (!w->midline)
      fputs("Lua warning: ", stderr);
    fputs(msg, stderr);
    if (!tocont)
      fputc('\n', stderr);
    fflush(stderr);
  }
  w->midline = tocont;
}

/* --------------------------------------------------------- arguments -- */
enum { HAS_ERROR = 1, HAS_I = 2, HAS_V = 4, HAS_E = 8, HAS_BIG_E = 16,
       HAS_SHOW = 32, HAS_HELP = 64 };

static void print_usage(FILE *f) {
  fprintf(f,
          "usage: %s [options] [script [args]]\n"
          "Available options are:\n"
          "  -e stat   execute string 'stat'\n"
          "  -i        enter interactive mode after executing 'script'\n"
          "  -l mod    require library 'mod' into global 'mod'\n"
          "  -l g=mod  require library 'mod' into global 'g'\n"
          "  -v        show version information\n"
          "  -E        ignore environment variables\n"
          "  -W        turn warnings on\n"
          "  -h, --help  show this help\n"
          "  --show L [-o out.svg|.html|.tex|.txt]\n"
          "            draw layout text or a catalog atom name L (a table on\n"
          "            the terminal without -o)\n"
          "  --        stop handling options\n"
          "  -         stop handling options and execute stdin\n"
          "The global 'cute' is the layout module; help(cute.composition),\n"
          "help \"logical_divide\" or help(value) print the API reference's\n"
          "entry.  LUA_INIT_5_4 or LUA_INIT run first, and the REPL keeps its\n"
          "history in $CUTELUA_HISTORY (default ~/.cutelua_history).  Error\n"
          "tracebacks leave out the stdlib's frames unless\n"
          "CUTELUA_TRACEBACK=full.\n",
          PROG_NAME);
  fflush(f);
}

static void usage(const char *badopt) {
  if (badopt[1] == 'e' || badopt[1] == 'l' || strcmp(badopt, "-o") == 0 ||
      strcmp(badopt, "--show") == 0)
    fprintf(stderr, "%s: '%s' needs argument\n", PROG_NAME, badopt);
  else
    fprintf(stderr, "%s: unrecognized option '%s'\n", PROG_NAME, badopt);
  print_usage(stderr);
}

/* Scans the options; *first gets the index of the script (argc if none).
 * Returns the HAS_ flags, HAS_ERROR with *first at the bad option. */
static int scan_args(char **argv, int *first) {
  int flags = 0, i;
  for (i = 1; argv[i] != NULL; i++) {
    const char *a = argv[i];
    *first = i;
    if (a[0] != '-')
      return flags;
    switch (a[1]) {
    case '-':
      if (strcmp(a, "--show") == 0) {
        if (argv[++i] == NULL)
          return HAS_ERROR;
        if (argv[i + 1] != NULL && strcmp(argv[i + 1], "-o") == 0 &&
            argv[(i += 2)] == NULL) {
          *first = i - 1;  /* the -o lacks its path */
          return HAS_ERROR;
        }
        flags |= HAS_SHOW;
        break;
      }
      if (strcmp(a, "--help") == 0)
        return flags | HAS_HELP;
      if (a[2] != '\0')
        return HAS_ERROR;
      *first = argv[i + 1] != NULL ? i + 1 : 0;
      return flags;
    case '\0':
      return flags;
    case 'E': case 'W': case 'i': case 'v':
      if (a[2] != '\0')
        return HAS_ERROR;
      flags |= a[1] == 'E' ? HAS_BIG_E : a[1] == 'i' ? HAS_I | HAS_V
             : a[1] == 'v' ? HAS_V : 0;
      break;
    case 'h':
      if (a[2] != '\0')
        return HAS_ERROR;
      return flags | HAS_HELP;
    case 'e': case 'l':
      if (a[1] == 'e')
        flags |= HAS_E;
      if (a[2] == '\0' && (argv[++i] == NULL || argv[i][0] == '-'))
        return HAS_ERROR;
      break;
    default:
      return HAS_ERROR;
    }
  }
  *first = 0;
  return flags;
}

/* arg[0] is the script, options before it get negative indices, the
 * script's own arguments 1, 2, ...; with no script arg[0] is the program. */
static void make_arg_table(lua_State *L, char **argv, int argc, int script) {
  int i;
  lua_createtable(L, argc - script, script + 1);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - script);
  }
  lua_setglobal(L, "arg");
}

static int run_chunk(lua_State *L, int status) {
  if (status == LUA_OK)
    status = prog_docall(L, 0, 0);
  return prog_report(L, status);
}

static int run_file(lua_State *L, const char *name) {
  return run_chunk(L, luaL_loadfile(L, name));
}

static int run_string(lua_State *L, const char *s, const char *name) {
  return run_chunk(L, luaL_loadbuffer(L, s, strlen(s), name));
}

/* -l mod or -l g=mod: g = require "mod". */
static int run_require(lua_State *L, char *spec) {
  char *eq = strchr(spec, '=');
  const char *mod = eq != NULL ? eq + 1 : spec;
  int status;
  lua_getglobal(L, "require");
  lua_pushstring(L, mod);
  status = prog_docall(L, 1, 1);
  if (status == LUA_OK) {
    if (eq != NULL)
      *eq = '\0';
    lua_setglobal(L, spec);
  }
  return prog_report(L, status);
}

/* --show L [-o path]: cute.show(L, path), the picture tools' entry point. */
static int run_show(lua_State *L, char **argv, int script) {
  int i;
  for (i = 1; i < script && strcmp(argv[i], "--show") != 0; i++)
    ;
  lua_getglobal(L, "cute");
  lua_getfield(L, -1, "show");
  lua_remove(L, -2);
  lua_pushstring(L, argv[i + 1]);
  if (argv[i + 2] != NULL && strcmp(argv[i + 2], "-o") == 0)
    lua_pushstring(L, argv[i + 3]);
  else
    lua_pushnil(L);
  return prog_report(L, prog_docall(L, 2, 0)) == LUA_OK;
}

/* -e, -l and -W in command-line order, up to the script. */
static int run_options(lua_State *L, char **argv, int script) {
  int i;
  for (i = 1; i < script; i++) {
    char opt = argv[i][1];
    const char *val;
    if (argv[i][0] != '-' || (opt != 'e' && opt != 'l' && opt != 'W'))
      continue;
    if (opt == 'W') {
      lua_warning(L, "@on", 0);
      continue;
    }
    val = argv[i][2] != '\0' ? argv[i] + 2 : argv[++i];
    if (opt == 'e' ? run_string(L, val, "=(command line)")
                   : run_require(L, (char *)val))
      return 0;
  }
  return 1;
}

static int run_init(lua_State *L) {
  const char *name = "=LUA_INIT_5_4";
  const char *init = getenv(name + 1);
  if (init == NULL) {
    name = "=LUA_INIT";
    init = getenv(name + 1);
  }
  if (init == NULL)
    return LUA_OK;
  if (init[0] == '@')
    return run_file(L, init + 1);
  return run_string(L, init, name);
}

static int run_script(lua_State *L, char **argv, int script) {
  const char *name = argv[script];
  int status, n = 0;
  if (strcmp(name, "-") == 0 && strcmp(argv[script - 1], "--") != 0)
    name = NULL;  /* "-" alone is stdin; after "--" it is a file name */
  status = luaL_loadfile(L, name);
  if (status == LUA_OK) {
    for (n = 0; argv[script + 1 + n] != NULL; n++)
      lua_pushstring(L, argv[script + 1 + n]);
    status = prog_docall(L, n, LUA_MULTRET);
  }
  return prog_report(L, status);
}

static void print_version(void) {
  printf("cutelua %s (%s) -- CuTe layouts in Lua\n", CUTELUA_VERSION,
         LUA_RELEASE);
  fflush(stdout);
}

/* -E as lua(1): the package paths as built in, not from LUA_PATH_5_4 etc.
 * (package was opened with the state, so set them over again). */
static void ignore_env_paths(lua_State *L) {
  lua_pushboolean(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
  lua_getglobal(L, LUA_LOADLIBNAME);
  lua_pushliteral(L, LUA_PATH_DEFAULT);
  lua_setfield(L, -2, "path");
  lua_pushliteral(L, LUA_CPATH_DEFAULT);
  lua_setfield(L, -2, "cpath");
  lua_pop(L, 1);
}

/* The globals `cute` and `help` (cute.help: the API reference, which it
 * loads only when called), so that one-liners and the REPL need no
 * require. */
static void load_cute(lua_State *L) {
  static const char *const globals[][2] = {{"cute", "cute"},
                                           {"help", "cute.help"}};
  size_t i;
  for (i = 0; i < sizeof globals / sizeof globals[0]; i++) {
    lua_getglobal(L, "require");
    lua_pushstring(L, globals[i][1]);
    if (prog_report(L, prog_docall(L, 1, 1)) == LUA_OK)
      lua_setglobal(L, globals[i][0]);
  }
}

/* Everything runs in protected mode, so no Lua error escapes to a panic. */
static int pmain(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  int script = 0, flags = scan_args(argv, &script);
  luaL_requiref(L, LUA_DBLIBNAME, luaopen_debug, 1);
  lua_pop(L, 1);
  poll_new_threads(L);
  if (flags & HAS_ERROR) {
    usage(argv[script]);
    return 0;
  }
  if (flags & HAS_HELP) {
    print_usage(stdout);
    lua_pushboolean(L, 1);
    return 1;
  }
  if (flags & HAS_V)
    print_version();
  if (flags & HAS_BIG_E)
    ignore_env_paths(L);
  make_arg_table(L, argv, argc, script);
  lua_gc(L, LUA_GCGEN, 0, 0);
  load_cute(L);
  if (!(flags & HAS_BIG_E) && run_init(L) != LUA_OK)
    return 0;
  if (!run_options(L, argv, script > 0 ? script : argc))
    return 0;
  if ((flags & HAS_SHOW) && !run_show(L, argv, script > 0 ? script : argc))
    return 0;
  if (script > 0 && run_script(L, argv, script) != LUA_OK)
    return 0;
  if (flags & HAS_I) {
    prog_repl(L);
  } else if (script == 0 && !(flags & (HAS_E | HAS_V | HAS_SHOW))) {
    if (isatty(STDIN_FILENO)) {
      print_version();
      prog_repl(L);
    } else if (run_file(L, NULL) != LUA_OK) {
      return 0;
    }
  }
  lua_pushboolean(L, 1);
  return 1;
}

int main(int argc, char **argv) {
  cutelua_options opt;
  cutelua_state *S;
  warner w = {0, 0};
  uintptr_t outer;
  int status, ok;
  cutelua_options_init(&opt);
  opt.open_io = opt.open_os = 1;
  S = cutelua_open(&opt);
  if (S == NULL) {
    message("cannot create state: not enough memory");
    return EXIT_FAILURE;
  }
  lua_setwarnf(S->L, warnf, &w);
  lua_pushcfunction(S->L, pmain);
  lua_pushinteger(S->L, argc);
  lua_pushlightuserdata(S->L, argv);
  outer = cutelua_stack_enter(S);
  status = lua_pcall(S->L, 2, 1, 0);
  cutelua_stack_leave(S, outer);
  ok = lua_toboolean(S->L, -1);
  prog_report(S->L, status);
  cutelua_close(S);
  return ok && status == LUA_OK ? EXIT_SUCCESS : EXIT_FAILURE;
}
