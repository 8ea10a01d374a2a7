#!/usr/bin/env bash
# test_repl_tmux.sh CUTELUA -- drives the REPL in a real terminal (tmux) and
# asserts on the screen: an expression, a multi-line function, an error,
# Ctrl-C during an endless loop and at a continuation prompt, Tab
# completion (of cute's submodules and methods too), help, and history
# recall after a restart; -h and --help print the usage.  Every wait polls the
# screen with a time limit (no fixed sleeps for the outcome).  Exit 77
# (ctest: skipped) when tmux is missing.
set -u
if ! command -v tmux >/dev/null 2>&1; then
  echo "SKIP: tmux is not installed (Debian package tmux)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"
C=$1
sock=$tmp/tmux.sock
tm() { tmux -S "$sock" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

S=repl1  # the session in use
start() {
  tm new-session -d -s "$S" -x 80 -y 50 \
    "exec env HOME=$tmp CUTELUA_HISTORY=$tmp/history $C" \; \
    set-option -t "$S" remain-on-exit on
}
screen() { tm capture-pane -p -t "$S" -S -200 2>/dev/null; }
type_line() { tm send-keys -t "$S" -l "$1" && tm send-keys -t "$S" Enter; }

# wait_for NAME REGEX [SECONDS]: until a screen line matches.
wait_for() {
  local deadline=$((SECONDS + ${3:-10}))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if screen | grep -Eq -- "$2"; then ok; return 0; fi
    sleep 0.05
  done
  bad "$1: no line matching /$2/ on screen:"
  screen | sed 's/^/    | /' >&2
  return 1
}

# wait_prompt NAME [PROMPT]: until the screen ends with an empty prompt
# (default ">"), so keys typed next reach the line editor rather than the
# terminal's type-ahead.
wait_prompt() {
  local deadline=$((SECONDS + 10))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if [ "$(screen | grep -v '^ *$' | tail -n 1)" = "${2:->}" ]; then
      ok; return 0
    fi
    sleep 0.05
  done
  bad "$1: no empty prompt ${2:->} at the end of the screen"
}

# wait_exit NAME: until the program has ended, with status 0.  (tmux 3.3
# now and then marks a pane dead without collecting its status: an empty
# status counts as an exit, a signal or a non-zero status does not.)
wait_exit() {
  local deadline=$((SECONDS + 10)) st
  while [ "$SECONDS" -lt "$deadline" ]; do
    st=$(tm list-panes -t "$S" -F '#{pane_dead} #{pane_dead_status}#{pane_dead_signal}')
    case $st in
      "1 0" | "1 ") ok; return ;;
      1*) bad "$1: ended with [$st]"; return ;;
    esac
    sleep 0.05
  done
  bad "$1: still running"
}

# -- session 1 --------------------------------------------------------------
t0=$(date +%s%N)
start
wait_for "banner" '^cutelua 0\.1\.0'
wait_for "prompt" '^> ?$'
echo "REPL prompt after $((($(date +%s%N) - t0) / 1000000)) ms (tmux start-up included)"

type_line 'cute.layout "(4,8):(1,4)"'
wait_for "expression prints its layout" '^\(4,8\):\(1,4\)$'

type_line 'function area(w, h)'
wait_for "continuation prompt" '^>> ?$'
type_line '  return w * h'
type_line 'end'
type_line 'area(6, 7)'
wait_for "multi-line function then a call" '^42$'

type_line 'error("kaboom")'
wait_for "error message" '^cutelua: stdin:1: kaboom$'
type_line '100 + 23'
wait_for "REPL goes on after an error" '^123$'

# Ctrl-C: resent until the loop reports it.  One that comes before the
# statement runs is lost (the REPL was between reads) or drops the line at
# the prompt (a loaded machine can stop the REPL just there): then the
# screen ends with an empty prompt again, and the line is typed again.
# interrupt LINE NAME: runs LINE (a loop) and stops it with Ctrl-C.
interrupt() {
  local before
  before=$(screen | grep -c 'interrupted!')
  type_line "$1"
  for i in 1 2 3 4 5 6 7 8 9 10; do
    tm send-keys -t "$S" C-c
    sleep 1
    if [ "$(screen | grep -c 'interrupted!')" -gt "$before" ]; then break; fi
    if [ "$(screen | grep -v '^ *$' | tail -n 1)" = ">" ]; then
      type_line "$1"
    fi
  done
  if [ "$(screen | grep -c 'interrupted!')" -gt "$before" ]; then ok
  else bad "Ctrl-C did not stop $2"; fi
}
interrupt 'while true do end' "the loop"
type_line '7 * 8'
wait_for "REPL goes on after Ctrl-C" '^56$'
# ... also a loop inside a coroutine (each thread polls), even one whose
# error a pcall catches (the interrupt is raised again)
interrupt 'coroutine.wrap(function() while true do end end)()' "a coroutine"
interrupt 'while true do pcall(coroutine.wrap(function() while true do end end)) end' "a caught coroutine"
type_line '8 * 8'
wait_for "REPL goes on after Ctrl-C in coroutines" '^64$'

# Ctrl-C at a continuation prompt drops the pending chunk
type_line 'function g('
wait_prompt "continuation prompt before Ctrl-C" ">>"
tm send-keys -t "$S" C-c
wait_prompt "Ctrl-C at >> gives a fresh prompt"
type_line '40 + 5'
wait_for "the next line runs alone" '^45$'
hasnt "no syntax error from the dropped chunk" "$(screen)" 'expected near'

wait_prompt "prompt before Tab"
tm send-keys -t "$S" -l 'cute.layout_ri'
tm send-keys -t "$S" Tab
wait_for "Tab completes cute. names" '^> cute\.layout_right$'
type_line ' {2, 3}'
wait_for "completed call runs" '^\(2,3\):\(3,1\)$'
type_line 'A = cute.layout "(4,8):(1,4)"'
wait_prompt "prompt before Tab"
tm send-keys -t "$S" -l 'A:mo'
tm send-keys -t "$S" Tab
wait_for "Tab completes methods" '^> A:mode$'
type_line '(1)'
wait_for "completed method runs" '^8:4$'

wait_prompt "prompt before Tab"
tm send-keys -t "$S" -l 'cute.arc'
tm send-keys -t "$S" Tab
wait_for "Tab completes the submodule cute.arch" '^> cute\.arch$'
type_line '.names[1]'
wait_for "cute.arch runs" '^UniversalFMA$'
wait_prompt "prompt before Tab"
tm send-keys -t "$S" -l 'cute.cud'
tm send-keys -t "$S" Tab
wait_for "Tab completes the submodule cute.cuda" '^> cute\.cuda$'
type_line '.codegen ~= nil'
wait_for "cute.cuda runs" '^true$'

type_line 'help(cute.composition)'
wait_for "help(f) prints the entry's signature" '^`cute\.composition\(A, B\) -> Layout`'
wait_for "help(f) prints the CuTe spelling" '^CuTe: `composition\(A, B\)`'
type_line 'help "logical_divide"'
wait_for "help \"name\" prints the entry" '^`cute\.logical_divide\(A, B\) -> Layout`'
type_line 'help(A)'
wait_for "help(value) prints its type's entry" '^A layout `shape:stride`'

type_line 'last_line = "from session 1"'
wait_prompt "prompt before Ctrl-D"
tm send-keys -t "$S" C-d
wait_exit "Ctrl-D ends the REPL"
has "history file written" "$(cat "$tmp/history" 2>/dev/null)" 'last_line'

# -- session 2: history survives the restart ---------------------------------
# (the new session starts before the old one goes: a server left with no
# session would exit under the next command)
S=repl2
start
tm kill-session -t repl1
wait_for "prompt again" '^> ?$'
tm send-keys -t "$S" Up
wait_for "Up recalls the last line" '^> last_line = "from session 1"$'
tm send-keys -t "$S" Enter
type_line 'last_line'
wait_for "recalled line runs" '^from session 1$'
wait_prompt "prompt before Ctrl-D"
tm send-keys -t "$S" C-d
wait_exit "second session ends"

# -h / --help: the usage on stdout, status 0
for opt in -h --help; do
  out=$("$C" "$opt" 2>&1); st=$?
  [ "$st" -eq 0 ] && ok || bad "$opt exits with $st"
  has "$opt prints the usage" "$out" '^usage: cutelua \[options\]'
  has "$opt names help()" "$out" 'help\(cute\.composition\)'
done

finish
