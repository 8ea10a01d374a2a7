#!/usr/bin/env bash
# run_all.sh -- run every built fuzz target at once, then keep what it found.
#
#   fuzz/run_all.sh BUILD_DIR SECONDS JOBS [OUT_DIR]
#
# BUILD_DIR holds the fuzz_<target> binaries (BUILD_DIR/fuzz/ of a clang
# build, or the binaries copied into one folder); each runs SECONDS of wall
# time with JOBS worker processes (libFuzzer -fork=JOBS), all targets in
# parallel, so give it targets x JOBS cores.  Needs only bash, the binaries
# (libFuzzer is linked in statically) and this folder's corpus/,
# regressions/ and cute.dict (or FUZZ_CORPUS, FUZZ_REGRESSIONS, FUZZ_DICT).
#
# OUT_DIR (default ./fuzz-out) gets, per target:
#   log          the libFuzzer output
#   crashes/     crash, timeout and OOM inputs: each is a finding, to be
#                fixed and kept in regressions/<target>/
#   new/         every unit the run added to the corpus
#   merged/      the new units that add coverage to the seed corpus,
#                minimized by -merge=1: candidates for corpus/<target>/
# and a summary table on stdout (target, executions, exec/s, crashes).
set -u

if [ $# -lt 3 ]; then
  echo "usage: $0 BUILD_DIR SECONDS JOBS [OUT_DIR]" >&2
  exit 2
fi
build=$1 secs=$2 jobs=$3 out=${4:-fuzz-out}
here=$(cd "$(dirname "$0")" && pwd)
corpus=${FUZZ_CORPUS:-$here/corpus}
regress=${FUZZ_REGRESSIONS:-$here/regressions}
dict=${FUZZ_DICT:-$here/cute.dict}
mkdir -p "$out" && out=$(cd "$out" && pwd)

bins=()
for b in "$build"/fuzz/fuzz_* "$build"/fuzz_*; do
  case $(basename "$b") in fuzz_replay_*|*.*) continue ;; esac
  [ -f "$b" ] && [ -x "$b" ] || continue
  bins+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")")
done
if [ ${#bins[@]} -eq 0 ]; then
  echo "$0: no fuzz_<target> binaries in $build or $build/fuzz" >&2
  exit 2
fi

target() { local t; t=$(basename "$1"); echo "${t#fuzz_}"; }

for b in "${bins[@]}"; do
  t=$(target "$b")
  d=$out/$t
  mkdir -p "$d/new" "$d/crashes"
  seeds=()
  [ -d "$corpus/$t" ] && seeds+=("$corpus/$t")
  [ -d "$regress/$t" ] && seeds+=("$regress/$t")
  maxlen=512 # text; fuzz_raw's inputs are a cute_layout and a cute_tuple
  [ "$t" = raw ] && maxlen=1536
  (cd "$d" && exec "$b" -fork="$jobs" -ignore_crashes=1 \
     -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=$maxlen \
     -dict="$dict" -artifact_prefix="$d/crashes/" -print_final_stats=1 \
     new "${seeds[@]}" >log 2>&1) &
done
wait

# Minimize: copy the seeds into merged/, let -merge=1 add the new units
# that bring coverage, then take the seeds out again.
for b in "${bins[@]}"; do
  t=$(target "$b")
  d=$out/$t
  rm -rf "$d/merged" && mkdir -p "$d/merged"
  [ -d "$corpus/$t" ] && cp "$corpus/$t"/* "$d/merged/" 2>/dev/null
  (cd "$d" && "$b" -merge=1 -max_len=1536 merged new >merge.log 2>&1)
  if [ -d "$corpus/$t" ]; then
    for s in "$corpus/$t"/*; do rm -f "$d/merged/$(basename "$s")"; done
  fi
done

printf '%-12s %14s %10s %8s %8s\n' target executions exec/s crashes merged
for b in "${bins[@]}"; do
  t=$(target "$b")
  d=$out/$t
  last=$(grep -E '^#[0-9]+' "$d/log" | tail -1)
  execs=$(echo "$last" | sed -E 's/^#([0-9]+).*/\1/')
  rate=$(echo "$last" | sed -E 's/.*exec\/s:? ([0-9]+).*/\1/')
  printf '%-12s %14s %10s %8s %8s\n' "$t" "${execs:-?}" "${rate:-?}" \
    "$(find "$d/crashes" -type f | wc -l)" "$(find "$d/merged" -type f | wc -l)"
done
