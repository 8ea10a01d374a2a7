#!/usr/bin/env bash
# setup.sh -- install the Debian 12 packages cutelua needs, and only those
# that are missing.  Idempotent: a machine that has them all runs no apt at
# all (no `apt-get update`, no network), so reruns of ./run.sh cost nothing.
set -euo pipefail

# The list to extend: one Debian package name per word.
PACKAGES=(
  build-essential cmake pkg-config   # C toolchain and the build
  lua5.4 liblua5.4-dev lua-busted    # Lua runtime, headers, spec runner
  libedit-dev                        # REPL line editing
  tmux                               # drives the REPL test
  clang libclang-rt-14-dev           # the ASan+UBSan build (build-san/) and
                                     # its fuzzers (libFuzzer)
  valgrind                           # memcheck over the program (vm.valgrind)
  luarocks                           # builds vm.rockspec (spec/vm)
  chromium python3                   # renders and checks layout pictures
                                     # (spec/browser; skipped without them)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
    missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "setup: missing ${missing[*]}; run as root or install sudo" >&2
  exit 1
fi
# apt's chatter is shown only when a step fails.
quietly() {
  local log
  log=$("$@" 2>&1) || { printf '%s\n' "$log" >&2; echo "setup: failed: $*" >&2; exit 1; }
}
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
quietly "${sudo[@]}" apt-get update -qq
quietly "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
