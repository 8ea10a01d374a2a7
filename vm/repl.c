/*
 * repl.c -- cutelua's interactive loop, after lua(1)'s: a line is first
 * tried as an expression ("return <line>") so its values print (layouts as
 * CuTe text, through __tostring), else as a statement that may continue on
 * more lines while the chunk is incomplete.
 *
 *     > cute.layout "(4,8):(1,4)"
 *     (4,8):(1,4)
 *     > function f(n)
 *     >>   return cute.layout {n, 2}
 *     >> end
 *     > f(3)
 *     (3,2):(1,3)
 *     > cute.idx2crd(13, {4, 8})
 *     (1,3)
 *
 * On a terminal, lines are edited with libedit; history persists in
 * $CUTELUA_HISTORY (default ~/.cutelua_history; empty: none), and Tab
 * completes globals, keywords and fields ("cute.lay" -> "cute.layout",
 * "A:sha" -> "A:shape").  Elsewhere lines are read plainly.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#ifdef CUTELUA_HAVE_EDIT
#include <editline/readline.h>
#endif

#include "prog.h"

#define HISTORY_MAX 1000
#define CHUNKNAME "=stdin"
#define EOFMARK "<eof>"
#define CANCELLED (-2)  /* load_input: Ctrl-C dropped a pending chunk */

/* The REPL is one per process and readline's callbacks take no user
 * pointer, so its state is a static of the program. */
static struct {
  lua_State *L;
  int edit;                  /* libedit reads the lines              */
  char history[4096];        /* history file, "" for none            */
  char **match;              /* completion candidates (malloc'd)     */
  int nmatch, next;
  int cancelled;             /* the last read ended with Ctrl-C      */
} repl;

/* --------------------------------------------------------------- input -- */
/* A line of any length from stdin without its newline; NULL at the end. */
static char *plain_line(const char *prompt) {
  size_t len = 0, cap = 128;
  char *buf = malloc(cap);
  fputs(prompt, stdout);
  fflush(stdout);
  while (buf != NULL && fgets(buf + len, (int)(cap - len), stdin) != NULL) {
    len += strlen(buf + len);
    if (len > 0 && buf[len - 1] == '\n') {
      buf[len - 1] = '\0';
      return buf;
    }
    if (len + 1 == cap) {
      char *more = realloc(buf, cap *= 2);
      if (more == NULL)
        free(buf);
      buf = more;
    }
  }
  if (buf != NULL && len > 0)
    return buf;  /* a last line without newline */
  free(buf);
  return NULL;
}

/* Ctrl-C at the prompt ends the read like end of input does: drop the line
 * and prompt again, as a shell does.  At a continuation prompt (`cancel`)
 * it drops the whole pending chunk: NULL with repl.cancelled set. */
static char *read_line(const char *prompt, int cancel) {
  prog_idle_sigint();  /* forget one that came while a statement started */
  repl.cancelled = 0;
  for (;;) {
    char *line;
#ifdef CUTELUA_HAVE_EDIT
    line = repl.edit ? readline(prompt) : plain_line(prompt);
#else
    line = plain_line(prompt);
#endif
    if (!prog_idle_sigint())
      return line;
    free(line);
    fputc('\n', stdout);
    clearerr(stdin);
    if (cancel) {
      repl.cancelled = 1;
      return NULL;
    }
  }
}

static void save_line(const char *line) {
#ifdef CUTELUA_HAVE_EDIT
  if (!repl.edit || line[0] == '\0')
    return;
  add_history(line);
  if (repl.history[0] != '\0')
    write_history(repl.history);  /* each line: a killed REPL loses none */
#else
  (void)line;
#endif
}

/* Pushes the next line, prompted by _PROMPT / _PROMPT2 if set; 0 at the
 * end of input or when Ctrl-C cancelled a continuation line. */
static int push_line(lua_State *L, int first) {
  int top = lua_gettop(L);
  const char *pr = first ? "> " : ">> ";
  char *line;
  if (lua_getglobal(L, first ? "_PROMPT" : "_PROMPT2") != LUA_TNIL)
    pr = luaL_tolstring(L, -1, NULL);
  line = read_line(pr, !first);
  lua_settop(L, top);
  if (line == NULL)
    return 0;
  lua_pushstring(L, line);
  free(line);
  return 1;
}

/* ------------------------------------------------------------- chunks -- */
/* An incomplete chunk is a syntax error at the end of the text. */
static int incomplete(lua_State *L, int status) {
  size_t len, mark = sizeof(EOFMARK) - 1;
  const char *msg;
  if (status != LUA_ERRSYNTAX)
    return 0;
  msg = lua_tolstring(L, -1, &len);
  return len >= mark && strcmp(msg + len - mark, EOFMARK) == 0;
}

/* The line at the top as an expression: "return <line>;". */
static int try_expression(lua_State *L) {
  const char *line = lua_tostring(L, -1);
  const char *ret = lua_pushfstring(L, "return %s;", line);
  int status = luaL_loadbuffer(L, ret, strlen(ret), CHUNKNAME);
  if (status == LUA_OK) {
    lua_remove(L, -2);  /* the "return" text */
    save_line(line);
  } else {
    lua_pop(L, 2);      /* the text and the error */
  }
  return status;
}

/* The line at slot 1 as a statement, reading more while it is incomplete:
 * the chunk, or its syntax error (at the end of input too), at the top. */
static int try_statement(lua_State *L) {
  for (;;) {
    size_t len;
    const char *text = lua_tolstring(L, 1, &len);
    int status = luaL_loadbuffer(L, text, len, CHUNKNAME);
    if (!incomplete(L, status) || !push_line(L, 0)) {
      if (repl.cancelled)
        return CANCELLED;
      save_line(text);
      return status;
    }
    lua_remove(L, -2);  /* the "<eof>" error */
    lua_pushliteral(L, "\n");
    lua_insert(L, -2);
    lua_concat(L, 3);  /* text .. "\n" .. next line */
  }
}

/* Leaves the compiled chunk (or the syntax error) alone on the stack; -1
 * at the end of input, CANCELLED (nothing on the stack) after Ctrl-C. */
static int load_input(lua_State *L) {
  int status;
  lua_settop(L, 0);
  if (!push_line(L, 1))
    return -1;
  if ((status = try_expression(L)) != LUA_OK)
    status = try_statement(L);
  lua_remove(L, 1);
  if (status == CANCELLED)
    lua_settop(L, 0);
  return status;
}

/* ------------------------------------------------------------ results -- */
/* Could the value at idx be a tuple: a non-empty table without metatable
 * (a class instance or a proxy prints as itself; `{}` stays a table, not
 * ())?  cute.tuple_tostring checks the rest -- leaves, keys, depth, cycles
 * -- and refuses under the pcall of print_results. */
static int maybe_tuple(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || lua_rawlen(L, idx) == 0)
    return 0;
  if (lua_getmetatable(L, idx)) {
    lua_pop(L, 1);
    return 0;
  }
  return 1;
}

/* The value at 1 as tuple text ("(1,3)") through cute.tuple_tostring, or
 * no result; under lua_pcall. */
static int tuple_text(lua_State *L) {
  if (!maybe_tuple(L, 1))
    return 0;
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  if (lua_getfield(L, -1, "cute") != LUA_TTABLE)
    return 0;
  lua_pushliteral(L, "tuple_tostring");
  lua_rawget(L, -2);
  lua_pushvalue(L, 1);
  lua_call(L, 1, 1);
  return 1;
}

/* Prints the results as print does, tuples as CuTe text: a coordinate
 * reads (1,3), not table: 0x55d4e41ce480.  Other tables stay as they are,
 * as does a tuple that cute.tuple_tostring refuses. */
static void print_results(lua_State *L) {
  int i, n = lua_gettop(L);
  if (n == 0)
    return;
  luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
  for (i = 1; i <= n; i++) {
    if (lua_type(L, i) != LUA_TTABLE)
      continue;
    lua_pushcfunction(L, tuple_text);
    lua_pushvalue(L, i);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING)
      lua_replace(L, i);
    else
      lua_pop(L, 1);
  }
  lua_getglobal(L, "print");
  lua_insert(L, 1);
  if (lua_pcall(L, n, 0, 0) != LUA_OK) {
    lua_pushfstring(L, "error calling 'print' (%s)", lua_tostring(L, -1));
    lua_remove(L, -2);
    prog_report(L, LUA_ERRRUN);
  }
}

/* --------------------------------------------------------- completion -- */
#ifdef CUTELUA_HAVE_EDIT
static const char *const keywords[] = {
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
  "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return",
  "then", "true", "until", "while", NULL};

static void add_match(const char *head, size_t nhead, const char *name) {
  size_t n = strlen(name);
  char **more = realloc(repl.match, (size_t)(repl.nmatch + 1) * sizeof *more);
  char *s = malloc(nhead + n + 1);
  if (more == NULL || s == NULL) {
    free(s);
    if (more != NULL)
      repl.match = more;
    return;
  }
  repl.match = more;
  memcpy(s, head, nhead);
  memcpy(s + nhead, name, n + 1);
  repl.match[repl.nmatch++] = s;
}

/* Replaces the value at the top by its metatable's __index; 0 if it has
 * no metatable.  Raw access only: completing must run no metamethod. */
static int to_index(lua_State *L) {
  if (!lua_getmetatable(L, -1))
    return 0;
  lua_remove(L, -2);
  lua_pushliteral(L, "__index");
  lua_rawget(L, -2);
  lua_remove(L, -2);
  return 1;
}

/* The table of names reachable from the value at the top: the value if a
 * table, else its metatable's __index table (a userdata's methods). */
static int names_table(lua_State *L) {
  if (lua_type(L, -1) == LUA_TTABLE)
    return 1;
  return to_index(L) && lua_type(L, -1) == LUA_TTABLE;
}

/* Candidates for `text` ("cute.lay", "A:sh", "pri"), under lua_pcall. */
static int collect(lua_State *L) {
  const char *text = lua_touserdata(L, 1), *p = text, *q, *tail = text;
  int i, depth;
  for (q = text; *q != '\0'; q++)
    if (*q == '.' || *q == ':')
      tail = q + 1;  /* the name being typed starts after the last one */
  lua_pushglobaltable(L);
  while ((q = p + strcspn(p, ".:")) < tail) {  /* walk "a.b:" */
    if (!names_table(L))
      return 0;
    lua_pushlstring(L, p, (size_t)(q - p));
    lua_rawget(L, -2);
    lua_remove(L, -2);
    p = q + 1;
  }
  for (depth = 0; depth < 4 && names_table(L); depth++) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : 0;
      if (k != NULL && strncmp(k, tail, strlen(tail)) == 0 &&
          (k[0] != '_' || tail[0] == '_'))
        add_match(text, (size_t)(tail - text), k);
      lua_pop(L, 1);
    }
    if (tail == text || !to_index(L))
      break;  /* globals are _G's own names; inherited names come next */
  }
  for (i = 0; tail == text && keywords[i] != NULL; i++)
    if (strncmp(keywords[i], text, strlen(text)) == 0)
      add_match("", 0, keywords[i]);
  return 0;
}

static char *next_match(const char *text, int state) {
  (void)text;
  if (state == 0)
    repl.next = 0;
  return repl.next < repl.nmatch ? strdup(repl.match[repl.next++]) : NULL;
}

static char **complete(const char *text, int start, int end) {
  lua_State *L = repl.L;
  int top = lua_gettop(L);
  (void)start;
  (void)end;
  while (repl.nmatch > 0)
    free(repl.match[--repl.nmatch]);
  rl_attempted_completion_over = 1;  /* never fall back to file names */
  lua_pushcfunction(L, collect);
  lua_pushlightuserdata(L, (void *)text);
  lua_pcall(L, 1, 0, 0);
  lua_settop(L, top);
  return rl_completion_matches(text, next_match);
}

/* Names end at operators and brackets, not at '.' or ':'. */
static const char word_breaks[] = " \t\n\"'`@$><=;|&{}()[],+-*/%^~#";

static void edit_start(void) {
  const char *env = getenv("CUTELUA_HISTORY"), *home = getenv("HOME");
  repl.edit = isatty(STDIN_FILENO);
  if (!repl.edit)
    return;
  rl_readline_name = "cutelua";
  rl_initialize();
  rl_attempted_completion_function = complete;
  rl_basic_word_break_characters = word_breaks;
  rl_completer_word_break_characters = (char *)word_breaks;
  rl_completion_append_character = '\0';
  if (env != NULL)
    snprintf(repl.history, sizeof repl.history, "%s", env);
  else if (home != NULL)
    snprintf(repl.history, sizeof repl.history, "%s/.cutelua_history", home);
  using_history();
  stifle_history(HISTORY_MAX);
  if (repl.history[0] != '\0')
    read_history(repl.history);
}

static void edit_end(void) {
  while (repl.nmatch > 0)
    free(repl.match[--repl.nmatch]);
  free(repl.match);
  repl.match = NULL;
}
#else
static void edit_start(void) {}
static void edit_end(void) {}
#endif

/* --------------------------------------------------------------- loop -- */
/* cute loads cute.arch and cute.cuda on first access; the REPL touches
 * them so that completion, which reads raw fields only, offers them (and
 * their names).  A build without the CUDA bridge just lacks cute.cuda. */
static void load_submodules(lua_State *L) {
  if (luaL_loadstring(L, "local c = rawget(_G, 'cute') if type(c) == 'table'"
                         " then pcall(function() return c.arch end)"
                         " pcall(function() return c.cuda end) end") == LUA_OK)
    lua_pcall(L, 0, 0, 0);
  lua_settop(L, 0);
}

void prog_repl(lua_State *L) {
  int status;
  repl.L = L;
  prog_keep_sigint();
  load_submodules(L);
  edit_start();
  while ((status = load_input(L)) != -1) {
    if (status == CANCELLED)
      continue;
    if (status == LUA_OK)
      status = prog_docall(L, 0, LUA_MULTRET);
    if (status == LUA_OK)
      print_results(L);
    else
      prog_report(L, status);
  }
  lua_settop(L, 0);
  fputc('\n', stdout);
  fflush(stdout);
  edit_end();
}
