#!/usr/bin/env bash
# run.sh -- the project's entry points (see README.md):
#   ./run.sh tour    set up, build, run the guided tour (examples/tour.lua)
#   ./run.sh test    set up, build, run every test (ctest)
#   ./run.sh bench   set up, build, run the CPU benchmarks (algebra, Lua, start-up)
#   ./run.sh build   set up and build only
# Builds go to build/ (RelWithDebInfo); BUILD_DIR overrides.  tour and bench
# keep the build's output in $BUILD_DIR/build.log unless it fails.
set -euo pipefail
cd "$(dirname "$0")"
build=${BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)

usage() { sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 2; }

compile() {
  cmake -S . -B "$build" --log-level=WARNING
  cmake --build "$build" -j"$jobs"
}
build_all() { scripts/setup.sh; compile; }

# For commands whose own output is what the user came for.
build_quietly() {
  scripts/setup.sh
  mkdir -p "$build"
  compile > "$build/build.log" 2>&1 ||
    { tail -n 40 "$build/build.log" >&2; echo "run.sh: build failed (see $build/build.log)" >&2; exit 1; }
}

case "${1:-}" in
  tour)  build_quietly; shift; exec "$build/vm/cutelua" examples/tour.lua "$@" ;;
  test)  build_all; cd "$build"; exec ctest --output-on-failure -j"$jobs" ;;
  bench) build_quietly
         "$build/bench/algebra"
         "$build/vm/cutelua" bench/lua/compose.lua
         exec bench/vm_start.sh "$build/vm/cutelua" ;;
  build) build_all ;;
  *) usage ;;
esac
