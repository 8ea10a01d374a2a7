# lib.sh -- assertions for the shell tests of spec/vm/ (sourced, bash).
# Each test script ends with `finish`, which prints ctest-readable
# "N passed, N failed" and sets the exit status.
passed=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cutelua-spec.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }

# run CMD...: runs it with stdin from $input (default: nothing); sets
# $out, $err, $rc.
run() {
  out=$(printf '%s' "${input:-}" | "$@" 2>"$tmp/stderr")
  rc=$?
  err=$(cat "$tmp/stderr")
}

# is NAME GOT WANT: exact equality.
is() {
  if [ "$2" = "$3" ]; then ok; else bad "$1: got [$2], want [$3]"; fi
}

# has NAME TEXT PATTERN: TEXT contains a line matching the extended regex.
has() {
  if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok
  else bad "$1: no line matching /$3/ in [$2]"; fi
}

# hasnt NAME TEXT PATTERN
hasnt() {
  if printf '%s\n' "$2" | grep -Eq -- "$3"; then bad "$1: /$3/ in [$2]"
  else ok; fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
