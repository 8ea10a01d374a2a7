#!/usr/bin/env bash
# bench/gpu/run.sh -- everything GPU in one call: every #gpu check
# (spec/lua/cuda_*_spec.lua, gemm_spec.lua, gemm_tiled_spec.lua,
# gemm_sm90_spec.lua through bench/gpu/minibusted.lua, as the machine has
# no busted), every example that uses cute.cuda (examples/*.lua naming it,
# run as scripts with their default sizes), the API reference's ```lua gpu
# blocks (build/docs/*_gpu*.lua, output checked against their text block
# where the page has one), spec/c/test_cuda_threads (two
# threads on the driver at once), then bench/gpu/bench.lua's
# copy table, bench/gpu/gemm.lua's GEMM table (GEMM_SIZES, default "4096
# 8192") and bench/gpu/gemm_sm90.lua's Hopper GEMM table (SM90_CASES,
# default its own list); the tables are printed again at the end.  Exits
# non-zero when any spec, example, test or benchmark failed, naming them.
#
#   bench/gpu/run.sh [build-dir]      (default: $BUILD_DIR or build)
#
# The build is made elsewhere and carried; the machine needs the NVIDIA
# driver and NVRTC (CUDA_HOME or /usr/local/cuda), not Lua: the runner is
# build/vm/cutelua when it preloads cute.cuda.core, else the build's
# bench/gpu/cutelua-gpu (cuda/CMakeLists.txt), both with Lua linked in.
# Logs go to $OUT (if set) as specs.log, examples.log, docs.log, bench.log,
# gemm.log and gemm_sm90.log.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
build=${1:-${BUILD_DIR:-build}}
out=${OUT:-$(mktemp -d)}

runner=$build/bench/gpu/cutelua-gpu
if [ -x "$build/vm/cutelua" ] &&
   "$build/vm/cutelua" -e 'require "cute.cuda.core"' >/dev/null 2>&1; then
  runner=$build/vm/cutelua
fi
if [ ! -x "$runner" ]; then
  echo "run.sh: no runner in $build (build cuda/ with liblua5.4.a)" >&2
  exit 2
fi
export CUTELUA_RUNNER=$PWD/$runner
export LUA_PATH="stdlib/?.lua;stdlib/?/init.lua;spec/lua/?.lua;bench/gpu/?.lua"
export CUTELUA_CACHE_DIR=${CUTELUA_CACHE_DIR:-$(mktemp -d)}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv 2>/dev/null || echo "(nvidia-smi unavailable)"
echo "== #gpu checks with $runner =="
"$runner" bench/gpu/minibusted.lua spec/lua/cuda_compile_spec.lua \
  spec/lua/cuda_gpu_spec.lua spec/lua/cuda_device_spec.lua spec/lua/gemm_spec.lua \
  spec/lua/gemm_tiled_spec.lua spec/lua/gemm_sm90_spec.lua 2>&1 | tee "$out/specs.log"
specs=${PIPESTATUS[0]}
failed=()
[ "$specs" -eq 0 ] || failed+=("specs")
echo "== GPU examples =="
: >"$out/examples.log"
for ex in examples/*.lua; do
  grep -qE 'cute[.]cuda' "$ex" || continue
  echo "-- $ex" | tee -a "$out/examples.log"
  "$runner" "$ex" 2>&1 | tee -a "$out/examples.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("$ex")
done
echo "== the API reference's GPU examples (docs/api, \`\`\`lua gpu blocks) =="
: >"$out/docs.log"
for blk in "$build"/docs/*_gpu[0-9]*.lua; do
  [ -e "$blk" ] || continue
  name=$(basename "$blk" .lua)
  got=$("$runner" "$blk" 2>&1)
  rc=$?
  want="${blk%.lua}.out"
  if [ "$rc" -ne 0 ] || { [ -e "$want" ] && [ "$got" != "$(cat "$want")" ]; }; then
    printf -- '-- %s FAILED (exit %s)\n%s\n' "$name" "$rc" "$got" | tee -a "$out/docs.log"
    failed+=("docs/$name")
  else
    echo "-- $name ok" >>"$out/docs.log"
  fi
done
echo "$(grep -c ' ok$' "$out/docs.log") GPU examples of the reference ok"
echo "== two threads, each with its own use of the bridge =="
if [ -x "$build/spec/c/test_cuda_threads" ]; then
  "$build/spec/c/test_cuda_threads" 2>&1 | tee "$out/threads.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("spec/c/test_cuda_threads")
else
  echo "(not built: $build/spec/c/test_cuda_threads)"
fi
echo "== copy bench =="
"$runner" bench/gpu/bench.lua 2>&1 | tee "$out/bench.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("bench/gpu/bench.lua")
echo "== GEMM bench =="
# shellcheck disable=SC2086  # GEMM_SIZES is a list of sizes
"$runner" bench/gpu/gemm.lua ${GEMM_SIZES:-4096 8192} 2>&1 | tee "$out/gemm.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("bench/gpu/gemm.lua")
echo "== Hopper GEMM bench =="
# shellcheck disable=SC2086  # SM90_CASES is a list of cases
"$runner" bench/gpu/gemm_sm90.lua ${SM90_CASES:-} 2>&1 | tee "$out/gemm_sm90.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed+=("bench/gpu/gemm_sm90.lua")
echo "== summary =="
cat "$out/bench.log" "$out/gemm.log" "$out/gemm_sm90.log"
echo "specs: $(tail -n 1 "$out/specs.log" | grep -o '^[0-9].*pending' || echo FAILED)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "run.sh: FAILED: ${failed[*]}"
  exit 1
fi
echo "run.sh: all green"
