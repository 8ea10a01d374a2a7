#!/usr/bin/env bash
# run.sh -- the project's entry points (see README.md):
#   ./run.sh tour    set up, build, run the guided tour (examples/tour.lua)
#   ./run.sh test    set up, build, run every test (ctest)
#   ./run.sh bench   set up, build, run the algebra benchmark
#   ./run.sh build   set up and build only
# Builds go to build/ (RelWithDebInfo); BUILD_DIR overrides.
set -euo pipefail
cd "$(dirname "$0")"
build=${BUILD_DIR:-build}
jobs=$(nproc 2>/dev/null || echo 2)

usage() { sed -n '2,7s/^# \{0,1\}//p' "$0"; exit 2; }

build_all() {
  scripts/setup.sh
  cmake -S . -B "$build" --log-level=WARNING
  cmake --build "$build" -j"$jobs"
}

# The tour runs with the best runner that exists: the cutelua program once
# vm/ is built, else the C example of the README (until the Lua layer lands).
tour() {
  if [ -x "$build/vm/cutelua" ] && [ -f examples/tour.lua ]; then
    exec "$build/vm/cutelua" examples/tour.lua "$@"
  fi
  echo "run.sh: no cutelua yet; running the README's C example" >&2
  exec "$build/docs/readme_c1" "$@"
}

case "${1:-}" in
  tour)  build_all; shift; tour "$@" ;;
  test)  build_all; cd "$build"; exec ctest --output-on-failure -j"$jobs" ;;
  bench) build_all; exec "$build/bench/algebra" ;;
  build) build_all ;;
  *) usage ;;
esac
