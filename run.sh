#!/usr/bin/env bash
# run.sh -- the project's entry points (see README.md):
#   ./run.sh tour    set up, build, run the guided tour (examples/tour.lua)
#   ./run.sh test    set up, build, run every test (ctest), then the C tests,
#                    the Lua specs, the vm tests and the fuzz smoke runs again
#                    in an ASan+UBSan build (clang); ends "N passed, N failed"
#   ./run.sh bench   set up, build, run the CPU benchmarks (algebra, Lua, start-up)
#   ./run.sh build   set up and build only
# Builds go to build/ (RelWithDebInfo; BUILD_DIR overrides) and, for test,
# build-san/ (CUTELUA_SANITIZE=ON; SAN_BUILD_DIR overrides).  tour and bench
# keep the build's output in $BUILD_DIR/build.log unless it fails.
set -euo pipefail
cd "$(dirname "$0")"
build=${BUILD_DIR:-build}
san=${SAN_BUILD_DIR:-build-san}
jobs=$(nproc 2>/dev/null || echo 2)

usage() { sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 2; }

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

# suite DIR CTEST_OPTIONS...: builds DIR (configured before) and runs its
# tests; adds to $passed and $failed.  A build that fails counts as one
# failure and runs nothing; skipped tests (exit 77) count as neither.
passed=0
failed=0
suite() {
  local dir=$1 log summary total bad skipped
  shift
  log=$dir/ctest.log
  echo "== $dir: build, then ctest $*"
  if ! cmake --build "$dir" -j"$jobs"; then
    echo "run.sh: the build in $dir failed" >&2
    failed=$((failed + 1))
    return
  fi
  (cd "$dir" && ctest --output-on-failure -j"$jobs" "$@") 2>&1 | tee "$log" ||
    true
  # "96% tests passed, 1 tests failed out of 26"; skipped ones are listed
  # as "  28 - vm.rockspec (Skipped)"
  summary=$(grep -E 'tests passed, [0-9]+ tests? failed out of' "$log" |
            tail -n 1 || true)  # none: reported below, not a set -e exit
  total=$(printf '%s\n' "$summary" | sed -n 's/.* out of \([0-9]*\).*/\1/p')
  bad=$(printf '%s\n' "$summary" | sed -n 's/.*, \([0-9]*\) tests* failed.*/\1/p')
  skipped=$(grep -c ' (Skipped)$' "$log" || true)
  if [ -z "$total" ]; then
    echo "run.sh: no test summary from ctest in $dir" >&2
    failed=$((failed + 1))
    return
  fi
  total=$((total - bad - skipped))
  echo "== $dir: $total passed, $bad failed, $skipped skipped"
  passed=$((passed + total))
  failed=$((failed + bad))
}

# Both suites run whatever the first gives; the last line sums them.
test_all() {
  scripts/setup.sh
  cmake -S . -B "$build" --log-level=WARNING || true
  CC=${SAN_CC:-clang} cmake -S . -B "$san" --log-level=WARNING \
    -DCUTELUA_SANITIZE=ON || true
  suite "$build"
  # UB aborts (-fno-sanitize-recover) after printing the stack that hit it.
  UBSAN_OPTIONS=print_stacktrace=1 suite "$san" -L '^(sanitize|fuzz)$'
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

case "${1:-}" in
  tour)  build_quietly; shift; exec "$build/vm/cutelua" examples/tour.lua "$@" ;;
  test)  test_all ;;
  bench) build_quietly
         "$build/bench/algebra"
         "$build/vm/cutelua" bench/lua/compose.lua
         exec bench/vm_start.sh "$build/vm/cutelua" ;;
  build) build_all ;;
  *) usage ;;
esac
