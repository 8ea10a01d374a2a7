#!/usr/bin/env bash
# test_valgrind.sh CUTELUA HOST HOST_STATIC LUA54 LUA_CDIR SOURCE_DIR --
# memcheck over what a user runs: the REPL fed a session through a pipe and
# driven in a terminal (test_repl_tmux.sh, with valgrind in front of the
# program), a script (examples/tour.lua), the embedding example
# (examples/host, shared and static) and a plain lua5.4 loading the `cute`
# and `cute.cuda` modules from LUA_CDIR (they are unloaded by lua_close:
# memory a static still held was lost then).  Each run must end with no
# memory error and no definite, indirect or possible leak; no suppression
# file.  Runs in the ordinary build: valgrind cannot run ASan programs.
# Exit 77 (ctest: skipped) when valgrind is missing.
set -u
if ! command -v valgrind >/dev/null 2>&1; then
  echo "SKIP: valgrind is not installed (Debian package valgrind)"
  exit 77
fi
. "$(dirname "$0")/lib.sh"
C=$1 HOST=$2 HOST_STATIC=$3 LUA=$4 CDIR=$5 SRC=$6
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4
export HOME=$tmp CUTELUA_HISTORY= CUTELUA_CACHE=memory

# valgrind's own status (99) tells its findings from the program's status;
# its report goes to a file per process, empty when all is well (-q).
kinds=definite,indirect,possible
vg_opts="-q --error-exitcode=99 --leak-check=full --num-callers=30"
vg_opts="$vg_opts --show-leak-kinds=$kinds --errors-for-leak-kinds=$kinds"
vg() {
  local name=$1
  shift
  rm -f "$tmp"/vg.*
  # shellcheck disable=SC2086  # vg_opts is a list of words
  run valgrind $vg_opts --log-file="$tmp/vg.%p" "$@"
  clean "$name"
}

# clean NAME: no valgrind report in $tmp/vg.*; shows the reports otherwise.
clean() {
  local f reports=""
  for f in "$tmp"/vg.*; do
    [ -s "$f" ] && reports="$reports$(cat "$f")"
  done
  if [ -z "$reports" ] && [ "$rc" != 99 ]; then ok
  else
    bad "$1: valgrind reports (status $rc):"
    printf '%s\n' "$reports" >&2
  fi
}

# -- the REPL through a pipe (-i: stdin is not a terminal) -------------------
input='cute.layout "(4,8):(1,4)"
function f(n)
  return cute.layout {n, 2}
end
f(3)
error("kaboom")
A = cute.layout "(4,8):(1,4)"
A:mode(1)
cute.logical_divide(A, {2, 4})
cute.layout "(4,8x"
cute.composition(A, cute.layout "(3,3):(3,1)")
for
'
vg "REPL through a pipe" "$C" -i
input=
has "REPL prints results" "$out" '^> \(4,8\):\(1,4\)$'
has "REPL continues lines" "$out" '\(3,2\):\(1,3\)$'
has "REPL reports errors" "$err" 'kaboom'
has "REPL reports algebra errors" "$err" 'parse error at column 5'

# -- the REPL in a terminal: test_repl_tmux.sh runs valgrind + cutelua --------
if command -v tmux >/dev/null 2>&1; then
  wrap=$tmp/cutelua-vg
  printf '#!/bin/sh\nexec valgrind %s --log-file=%s/vg.%%p %s "$@"\n' \
    "$vg_opts" "$tmp" "$C" >"$wrap"
  chmod +x "$wrap"
  rm -f "$tmp"/vg.*
  run "$wrap" -v  # (a broken wrapper would time out every wait of the test)
  has "valgrind wrapper runs cutelua" "$out" '^cutelua '
  if [ "$rc" -eq 0 ]; then
    run bash "$(dirname "$0")/test_repl_tmux.sh" "$wrap"
    is "REPL in tmux under valgrind" "$rc" 0
    [ "$rc" -eq 0 ] || printf '%s\n%s\n' "$out" "$err" >&2
  fi
  clean "REPL in tmux"
else
  echo "(no tmux: the terminal REPL is not run under valgrind)"
fi

# -- a script -----------------------------------------------------------------
vg "examples/tour.lua" "$C" "$SRC/examples/tour.lua"
is "tour runs" "$rc" 0
has "tour prints" "$out" '^== 1\. Layouts'

# -- the embedding example: limits hit, state closed --------------------------
for h in "$HOST" "$HOST_STATIC"; do
  vg "$(basename "$h")" "$h"
  is "$(basename "$h") runs" "$rc" 0
  has "$(basename "$h") hits the memory cap" "$out" '^greedy script: not enough'
  has "$(basename "$h") hits the budget" "$out" '^runaway script: instruction'
done

# -- plain lua5.4 + cute/core.so + cute/cuda/core.so --------------------------
# (a kernel is compiled where NVRTC is installed; elsewhere the failed load
# is remembered, which is what leaked before)
script='local cute = require "cute"
local A = cute.layout "(4,8):(1,4)"
print(cute.composition(A, cute.layout "(2,2):(2,8)"), cute.complement(A, 64))
print(select(2, pcall(cute.composition, cute.layout "(4,6,8):(2,3,5)",
                      cute.layout "6:3")))
local cuda = require "cute.cuda"
local spec = {name = "k", arch = "compute_90",
              source = [[extern "C" __global__ void k() {}]]}
for _ = 1, 2 do
  local ok, k = pcall(cuda.kernel, spec)
  print(ok and "kernel from_cache=" .. k.binary.from_cache or k)
end
print(cuda.available())'
LUA_PATH="$SRC/stdlib/?.lua;$SRC/stdlib/?/init.lua" LUA_CPATH="$CDIR/?.so" \
  vg "lua5.4 with the modules" "$LUA" -e "$script"
is "lua5.4 script runs" "$rc" 0
has "lua5.4: algebra error" "$out" 'divisibility condition violated'
printf 'lua5.4 with the modules:\n%s\n' "$out" | sed 's/^/  /'
[ "$rc" -eq 0 ] || printf '%s\n' "$err" >&2

finish
