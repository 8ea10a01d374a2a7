#!/usr/bin/env bash
# test_exports.sh NM LIBRARY LOADERS HEADER... -- the functions
# libcutelua.so exports are exactly those the installed headers declare,
# plus the module loaders LOADERS (space-separated: luaopen_cute_core, and
# luaopen_cute_cuda_core where cuda/ is built; vm/cutelua.map): an
# internal helper that leaks out, or a declared function the library
# lacks, fails.
set -u
. "$(dirname "$0")/lib.sh"
nm=$1
lib=$2
loaders=$3
shift 3

# Names declared as functions: comments and preprocessor lines (with their
# continuations) removed, then every `name(` of the project's prefixes.
for h in "$@"; do
  sed -e ':a' -e '/\/\*/{/\*\//!{N;ba' -e '}' -e '}' -e 's:/\*.*\*/::g' "$h" |
    sed -e ':b' -e '/\\$/{N;bb' -e '}' -e '/^[[:space:]]*#/d' |
    grep -oE '\b(cute|cutelua|luaopen)_[A-Za-z0-9_]*[[:space:]]*\(' |
    sed 's/[[:space:](]//g'
done >"$tmp/declared"
{ cat "$tmp/declared"; printf '%s\n' $loaders; } | sort -u >"$tmp/wanted"

run "$nm" -D --defined-only "$lib"
is "nm -D $lib" "$rc" "0"
printf '%s\n' "$out" | awk '$2 == "T" { print $3 }' | sort -u >"$tmp/exported"

# Sanity: the extraction found the headers' functions at all.
has "declared functions" "$(cat "$tmp/declared")" '^cutelua_open$'
has "declared functions" "$(cat "$tmp/declared")" '^cute_composition$'
has "declared functions" "$(cat "$tmp/declared")" '^cutelua_pushlayout$'

extra=$(comm -13 "$tmp/wanted" "$tmp/exported" | tr '\n' ' ')
missing=$(comm -23 "$tmp/wanted" "$tmp/exported" | tr '\n' ' ')
is "exported but not declared in an installed header" "$extra" ""
is "declared but not exported" "$missing" ""
finish
