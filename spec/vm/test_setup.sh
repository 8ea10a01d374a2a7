#!/usr/bin/env bash
# test_setup.sh SOURCE_DIR -- scripts/setup.sh installs every Debian package
# that vm/ and spec/vm/ need, so that a fresh CI machine runs their tests
# instead of skipping them (vm.rockspec skips without luarocks, vm.repl_tmux
# without tmux, vm.valgrind without valgrind, and run.sh's sanitizer and
# fuzz build needs clang with libFuzzer).  Reads setup.sh's PACKAGES list;
# installs nothing.
set -u
. "$(dirname "$0")/lib.sh"
setup=$1/scripts/setup.sh

# The PACKAGES=( ... ) block, comments dropped, one name a line.
listed=$(sed -n '/^PACKAGES=(/,/^)/p' "$setup" |
  sed 's/#.*//; s/PACKAGES=(//; s/)//' | tr -s ' \t' '\n' | grep -v '^$')
for p in build-essential cmake pkg-config liblua5.4-dev libedit-dev tmux \
         lua5.4 luarocks valgrind clang libclang-rt-14-dev; do
  has "setup.sh installs $p" "$listed" "^$p\$"
done
finish
