#!/usr/bin/env bash
# test_runner.sh CUTELUA -- the cutelua program as lua(1): options, arg,
# stdin, LUA_INIT, exit codes, errors with tracebacks on stderr, the REPL
# without a terminal, the embedded stdlib in a copied binary.  No timing:
# start-up is measured by bench/vm_start.sh.
set -u
. "$(dirname "$0")/lib.sh"
C=$1
cd "$tmp"
unset LUA_INIT LUA_INIT_5_4 LUA_PATH LUA_PATH_5_4 LUA_CPATH LUA_CPATH_5_4

# -- options --------------------------------------------------------------
run "$C" -v
has "-v" "$out" '^cutelua 0\.1\.0 \(Lua 5\.4'
run "$C" -e 'print(1 + 1)'
is "-e" "$out/$rc" "2/0"
run "$C" -e 'x = 1' -e 'print(x + 1)'
is "-e in order" "$out" "2"
run "$C" -e 'print(cute.layout "(4,8):(1,4)")'
is "global cute" "$out" "(4,8):(1,4)"
run "$C" -l c=cute -e 'print(c == cute)'
is "-l g=mod" "$out" "true"
run "$C" -l cute.tiler -e 'print(package.loaded["cute.tiler"] ~= nil)'
is "-l embedded submodule" "$out" "true"
mkdir mods && printf 'return {v = 5}\n' >mods/mymod.lua
LUA_PATH="$tmp/mods/?.lua" run "$C" -l mymod -e 'print(mymod.v)'
is "-l from LUA_PATH" "$out" "5"
LUA_PATH="$tmp/mods/?.lua" run "$C" -E -l mymod
has "-E ignores LUA_PATH" "$err" "module 'mymod' not found"
run "$C" -W -e 'warn("hey")'
is "-W" "$err" "Lua warning: hey"
run "$C" -e 'warn("hey")'
is "no -W" "$err" ""
run "$C" -e 'print(type(debug.traceback), type(io.open), type(os.time))'
is "full libraries" "$out" "$(printf 'function\tfunction\tfunction')"

# -- --show: the picture tools from the command line -------------------------
run "$C" --show "(4,8):(1,4)"
has "--show table" "$out" '^ 0  \|  0 \|  4 \|  8 \|'
run "$C" --show "(4,8):(1,4)" -o pic.svg
is "--show -o exit" "$rc" "0"
has "--show -o svg" "$(head -c 4 pic.svg)" '^<svg'
run "$C" --show
has "--show needs argument" "$err" "'--show' needs argument"
run "$C" --show "(4,8"
has "--show bad layout" "$err" 'column 5'
is "--show bad layout exit" "$rc" "1"

# -- scripts, arg, stdin ----------------------------------------------------
cat >s.lua <<'LUA'
print(arg[-2], arg[-1], arg[0], arg[1], arg[2], select('#', ...), ...)
LUA
run "$C" -e 'y=1' s.lua a b
is "arg table" "$out" "$(printf -- '-e\ty=1\ts.lua\ta\tb\t2\ta\tb')"
run "$C" -- s.lua x
has "--" "$out" 's\.lua	x	nil	1	x$'
input='print(arg[0], ...)' run "$C" - a b
is "- is stdin" "$out" "$(printf -- '-\ta\tb')"
input='print(7)' run "$C"
is "no tty: stdin is the script" "$out" "7"
input='local t = cute.layout {4, 8}; print(t)' run "$C" -
is "stdin script with cute" "$out" "(4,8):(1,4)"

# -- errors and exit codes --------------------------------------------------
run "$C" -e 'error("boom")'
is "error exit code" "$rc" "1"
has "error message" "$err" '^cutelua: \(command line\):1: boom$'
has "traceback" "$err" '^stack traceback:'
cat >deep.lua <<'LUA'
local function inner() error("deep") end
local function outer() inner() end
outer()
LUA
run "$C" deep.lua
has "traceback names functions" "$err" "in (local|upvalue|function) 'inner'"
has "traceback has lines" "$err" 'deep\.lua:2:'
run "$C" -e 'os.exit(3)'
is "os.exit code" "$rc" "3"
run "$C" -e 'os.exit(true)'
is "os.exit(true)" "$rc" "0"
run "$C" nope.lua
is "missing script" "$rc" "1"
has "missing script message" "$err" '^cutelua: cannot open nope\.lua'
printf 'x = = 1\n' >syn.lua
run "$C" syn.lua
has "syntax error" "$err" '^cutelua: syn\.lua:1: unexpected symbol'
is "syntax error code" "$rc" "1"
run "$C" -e 'cute.layout "(4,8"'
has "algebra error reaches stderr" "$err" '^cutelua: .*"\(4,8"'
run "$C" -z
is "bad option code" "$rc" "1"
has "bad option" "$err" "unrecognized option '-z'"
has "usage" "$err" '^usage: cutelua'
run "$C" -e
has "-e without argument" "$err" "'-e' needs argument"
run "$C" -e 'print(1)' -e 'error("second")' -e 'print(3)'
is "stops at the first error" "$out/$rc" "1/1"

# -- LUA_INIT ---------------------------------------------------------------
LUA_INIT='X = 5' run "$C" -e 'print(X)'
is "LUA_INIT" "$out" "5"
LUA_INIT='X = 5' LUA_INIT_5_4='X = 6' run "$C" -e 'print(X)'
is "LUA_INIT_5_4 wins" "$out" "6"
printf 'X = 7\n' >init.lua
LUA_INIT="@$tmp/init.lua" run "$C" -e 'print(X)'
is "LUA_INIT=@file" "$out" "7"
LUA_INIT='X = 5' run "$C" -E -e 'print(X)'
is "-E ignores LUA_INIT" "$out" "nil"
LUA_INIT='error("init")' run "$C" -e 'print(1)'
has "LUA_INIT error" "$err" '^cutelua: LUA_INIT:1: init'
is "LUA_INIT error stops" "$out/$rc" "/1"

# -- -i without a terminal: the REPL reads stdin plainly --------------------
input=$'cute.layout "(4,8):(1,4)"\nfunction f(x)\n  return x * 2\nend\nf(21)\nerror("oops")\n6 * 7\n' \
  run "$C" -i
has "-i prints expressions" "$out" '\(4,8\):\(1,4\)$'
has "-i multi-line function" "$out" '>> >> > 42$'
has "-i error shown" "$err" '^cutelua: stdin:1: oops'
has "-i goes on after the error" "$out" '> 42$'
is "-i ends at end of input" "$rc" "0"
input=$'cute.make_identity_layout{4,8}(13)\ncute.idx2crd(13, {4, 8})\n{4, {2, 2}}, 7\n{}\n{1, x = 2}\n{1.5}\n' \
  run "$C" -i
is "-i prints tuples as CuTe text, other tables as tables" \
  "$(printf '%s\n' "$out" | sed -n 's/0x[0-9a-f]*/0x/; /^>/p')" \
  "$(printf '%s\n' '> (1,3)' '> (1,3)' $'> (4,(2,2))\t7' '> table: 0x' \
     '> table: 0x' '> table: 0x' '> ')"
input=$'function f(\n' run "$C" -i
has "-i: end of input inside a chunk is its syntax error" "$err" \
  "^cutelua: stdin:1: .*expected near <eof>$"

# -- limits under attack ------------------------------------------------------
# Nested coroutine.close overflowed the C stack of Lua 5.4.4 (a segfault):
# refused with an error now.
cat >closes.lua <<'EOF'
local co = false
for i = 1, 20000 do
  local prev = co
  co = coroutine.create(function()
    local x <close> = setmetatable({}, {__close = function()
      if prev then assert(coroutine.close(prev)) end end})
    coroutine.yield()
  end)
  coroutine.resume(co)
end
print(coroutine.close(co))
EOF
run "$C" closes.lua
is "nested coroutine.close: no crash" "$rc" "0"
has "nested coroutine.close: refused" "$out" 'nested too deeply'
# Ctrl-C stops a loop inside a coroutine, even one whose error is caught,
# one nested in another, and the main thread (which runs with no hook)
# while or after it makes coroutines.
for loop in 'coroutine.wrap(function() while true do end end)()' \
    'while true do pcall(coroutine.wrap(function() while true do end end)) end' \
    'coroutine.wrap(function() coroutine.resume(coroutine.create(
       function() while true do end end)) end)()' \
    'while true do coroutine.create(print) end' \
    'coroutine.wrap(print)() while true do end'
do
  "$C" -e "$loop" 2>sigint.err &
  pid=$!
  sleep 0.5
  kill -INT "$pid"
  sleep 0.5
  if kill -0 "$pid" 2>/dev/null; then
    bad "Ctrl-C in a coroutine: [$loop] still runs"
    kill -9 "$pid"
  else
    ok
  fi
  wait "$pid"
  has "Ctrl-C in a coroutine: [$loop] interrupted" "$(cat sigint.err)" \
    'interrupted!'
done
# --show with -o but no path names -o.
run "$C" --show '4:1' -o
has "--show L -o: names -o" "$err" "'-o' needs argument"

# -- a copied binary needs no source tree, no Lua, no libedit ---------------
mkdir -p elsewhere
cp "$C" elsewhere/cutelua
(cd / && env -i "$tmp/elsewhere/cutelua" -e \
  'for _, m in ipairs {"cute", "cute.tiler", "cute.core"} do
     assert(require(m)) end
   print(cute.layout {2, 3})') >copied.out 2>&1
is "copied binary runs" "$(cat copied.out)" "(2,3):(1,2)"
if command -v ldd >/dev/null; then
  hasnt "no shared Lua or libedit" "$(ldd "$C")" 'liblua|libedit'
fi

finish
