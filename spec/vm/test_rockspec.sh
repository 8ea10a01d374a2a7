#!/usr/bin/env bash
# test_rockspec.sh SOURCE_DIR -- `luarocks make` of cutelua-0.1.0-1.rockspec
# from a copy of the source tree into a private rock tree, then `require
# "cute"` under a plain lua5.4 and the installed program.  Exit 77 (ctest:
# skipped) without luarocks or lua5.4.
set -u
for tool in luarocks lua5.4; do
  if ! command -v $tool >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (Debian packages luarocks, lua5.4)"
    exit 77
  fi
done
. "$(dirname "$0")/lib.sh"
export HOME=$tmp CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
tree=$tmp/tree
mkdir "$tmp/src"
(cd "$1" && tar --exclude='./build*' --exclude=./.git -cf - .) |
  tar -xf - -C "$tmp/src"

(cd "$tmp/src" && luarocks --lua-version 5.4 --tree "$tree" \
   make cutelua-0.1.0-1.rockspec) >"$tmp/log" 2>&1
rc=$?
is "luarocks make" "$rc" "0"
[ "$rc" -eq 0 ] || tail -n 30 "$tmp/log" >&2

eval "$(luarocks --lua-version 5.4 --tree "$tree" path)"
run lua5.4 -e 'local cute = require "cute"
  print(cute.layout "(4,8):(1,4)", require("cute.tiler") ~= nil)'
is "require 'cute' from the rock" "$out" "$(printf '(4,8):(1,4)\ttrue')"
run "$tree/bin/cutelua" -e 'print(cute.layout {2, 2})'
is "cutelua from the rock" "$out" "(2,2):(1,2)"

finish
