#!/bin/sh
# spec/browser/run.sh LUA PYTHON3 CHROMIUM -- the headless-browser test of
# the pictures: pictures.lua writes SVG and HTML pictures and the pixels
# to expect, Chromium renders each to PNG, check_png.py checks the pixels.
# Exits 77 (ctest's SKIP_RETURN_CODE) when Chromium or Python is missing.
# LUA_PATH / LUA_CPATH must find the stdlib and cute.core (ctest sets them).
set -eu
lua=${1:-}; python=${2:-}; chromium=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
for tool in "$lua" "$python" "$chromium"; do
  if [ -z "$tool" ] || ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: needs lua5.4, python3 and chromium (scripts/setup.sh)"
    exit 77
  fi
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$lua" "$here/pictures.lua" "$out"

while read -r page png width height suffix; do
  # a fresh profile per page, no network, no first-run work
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu \
    --disable-background-networking --disable-quic --no-first-run \
    --disable-component-update --disable-sync --hide-scrollbars \
    --user-data-dir="$out/profile-$png" --screenshot="$out/$png" \
    --window-size="$width,$height" "file://$out/$page${suffix:-}" \
    >"$out/$png.log" 2>&1 || { cat "$out/$png.log"; exit 1; }
  [ -s "$out/$png" ] || { echo "no screenshot $png"; cat "$out/$png.log"; exit 1; }
done <"$out/shots.txt"

"$python" "$here/check_png.py" "$out/probes.json"
