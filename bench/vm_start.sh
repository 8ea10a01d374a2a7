#!/usr/bin/env bash
# bench/vm_start.sh -- start-up time of the cutelua program: the median
# wall time of N runs (fork + exec included, as a user sees it) of
#   cutelua -e ''            state, libraries, `cute` preloaded as a global
#   cutelua -i </dev/null    the same, then the REPL to end of input
# against the 50 ms target.  A benchmark, not a test: load on the machine
# moves the numbers (spec/vm/test_runner.sh asserts no timing).
#
#   bench/vm_start.sh [cutelua] [runs]   (default: $BUILD_DIR/vm/cutelua or
#                                         build/vm/cutelua, 31 runs)
set -uo pipefail
cd "$(dirname "$0")/.."
C=${1:-${BUILD_DIR:-build}/vm/cutelua}
runs=${2:-31}
if [ ! -x "$C" ]; then
  echo "vm_start.sh: no program at $C (build first: ./run.sh build)" >&2
  exit 2
fi

# median_us CMD...: the median of $runs wall times, in microseconds; the
# runs are preceded by one untimed run, so the page cache is warm.
median_us() {
  local i t0 t1 times=()
  "$@" </dev/null >/dev/null 2>&1
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    "$@" </dev/null >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$((runs / 2 + 1))p"
}

row() {
  local us
  us=$(median_us "$C" "${@:2}")
  awk -v name="$1" -v us="$us" 'BEGIN {
    printf "%-30s %8.2f ms   <= 50 ms %s\n", name, us / 1000,
           us <= 50000 ? "MET" : "MISSED" }'
}

echo "cutelua start-up, median of $runs runs ($(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg))"
row "cutelua -e ''" -e ''
row "cutelua -i </dev/null (REPL)" -i
