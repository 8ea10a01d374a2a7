#!/usr/bin/env bash
# test_host_install.sh BUILD_DIR SOURCE_DIR -- installs the build into a
# temporary prefix, then builds examples/host against it the two ways a host
# would (pkg-config, find_package) and runs each without LD_LIBRARY_PATH
# (pkg-config's Libs carry an rpath); also the installed program, its help,
# and the installed `cute` module (and its help) under a plain lua5.4.
set -u
. "$(dirname "$0")/lib.sh"
build=$1
src=$2/examples/host
prefix=$tmp/prefix

run cmake --install "$build" --prefix "$prefix"
is "cmake --install" "$rc" "0"
[ "$rc" -eq 0 ] || { echo "$out$err"; finish; exit; }
for f in bin/cutelua include/cutelua.h include/cute.h include/cute_linear.h \
         include/cute_lua.h \
         lib/libcutelua.a \
         lib/pkgconfig/cutelua.pc lib/cmake/cutelua/cuteluaConfig.cmake \
         share/lua/5.4/cute/init.lua; do
  if [ -e "$prefix/$f" ]; then ok; else bad "installed $f"; fi
done
if ls "$prefix"/lib/libcutelua.so* >/dev/null 2>&1; then ok
else bad "installed libcutelua.so"; fi

# What the host prints for the built-in script (examples/host/host.c).
expected='A = (4,8):(1,4)
  profile (_,_)
  shape   4 8
  stride  1 4
tiles = ((2,4),(2,2)):((1,4),(2,16))
  profile ((_,_),(_,_))
  shape   2 4 2 2
  stride  1 4 2 16
runaway script: instruction budget exhausted (10000000 instructions)
greedy script: not enough memory (limit 16777216 bytes)
io in the sandbox: closed'

# -- pkg-config ---------------------------------------------------------------
if command -v pkg-config >/dev/null && command -v make >/dev/null; then
  mkdir -p "$tmp/pc"
  PKG_CONFIG_PATH=$prefix/lib/pkgconfig run make -s -C "$tmp/pc" \
    -f "$src/Makefile" SRC="$src" CFLAGS="-std=c99 -Wall -Wextra -Werror"
  is "host via pkg-config builds" "$rc" "0"
  [ "$rc" -eq 0 ] || echo "$out$err" >&2
  run env -u LD_LIBRARY_PATH "$tmp/pc/host"
  is "host via pkg-config runs (rpath, no LD_LIBRARY_PATH)" "$out" "$expected"

  # The example at the top of cutelua.h, as written there.
  awk '/^ \*     #include <cutelua.h>/ { on = 1 }
       on { sub(/^ \*(     )?/, ""); print }  # (mawk: no {n})
       on && /^}$/ { exit }' "$2/vm/cutelua.h" >"$tmp/pc/doc.c"
  PKG_CONFIG_PATH=$prefix/lib/pkgconfig run sh -c "cc -std=c99 -pedantic \
    -Wall -Wextra -Werror -o '$tmp/pc/doc' '$tmp/pc/doc.c' \
    \$(pkg-config --cflags --libs cutelua)"
  is "cutelua.h example builds" "$rc" "0"
  [ "$rc" -eq 0 ] || echo "$out$err" >&2
  run env -u LD_LIBRARY_PATH "$tmp/pc/doc"
  is "cutelua.h example runs" "$out" "(4,8):(1,4) has 2 modes, shape[1] = 8"
else
  bad "pkg-config or make missing"
fi

# -- find_package --------------------------------------------------------------
run cmake -S "$src" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="-Wall -Wextra -Werror"
is "find_package configures" "$rc" "0"
[ "$rc" -eq 0 ] || echo "$out$err" >&2
run cmake --build "$tmp/cm"
is "host via find_package builds" "$rc" "0"
[ "$rc" -eq 0 ] || echo "$out$err" >&2
run "$tmp/cm/host"
is "host (cutelua::cutelua) runs" "$out" "$expected"
run "$tmp/cm/host_static"
is "host_static (cutelua::cutelua_static) runs" "$out" "$expected"
if command -v ldd >/dev/null; then
  hasnt "host_static needs no liblua" "$(ldd "$tmp/cm/host_static")" 'liblua'
fi

# -- the installed program and plain-Lua module ---------------------------------
run "$prefix/bin/cutelua" -e 'print(cute.layout {3, 3})'
is "installed cutelua" "$out" "(3,3):(1,3)"
run "$prefix/bin/cutelua" -e 'help "composition"'
has "installed cutelua has the reference" "$out" '^`cute\.composition\(A, B\)'
if command -v lua5.4 >/dev/null && [ -e "$prefix/lib/lua/5.4/cute/core.so" ]; then
  LUA_CPATH="$prefix/lib/lua/5.4/?.so" \
  LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua" \
    run lua5.4 -e 'print(require("cute").layout "(4,8):(1,4)")'
  is "installed module under lua5.4" "$out" "(4,8):(1,4)"
  LUA_CPATH="$prefix/lib/lua/5.4/?.so" \
  LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua" \
    run lua5.4 -e 'print(require("cute.help").text("Layout:shape"))'
  has "installed module's help" "$out" '^`A:shape\(\) -> tuple`'
fi

finish
