#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The unit tests mirror the source folders: a test file NAME_test.cpp whose NAME is a source
# file (NAME.cpp or NAME.hpp under probe/, bench/, strategies/, results/ or tuner/) sits in
# the folder under tests/ that mirrors that source's own (tests/tuner/keep/apply_write_test.cpp
# for tuner/keep/apply_write.cpp). A test of several files, named for what it checks, may sit
# in the folder of the code it checks. Reads the sources only. Usage: tests_mirror.sh [ROOT].
source "$(dirname "$0")/lib.bash"
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root" || fail "no $root"

problems=()
checked=0
while IFS= read -r test; do
  name=$(basename "$test" _test.cpp)
  sources=$(find probe bench strategies results tuner \( -name "$name.cpp" -o -name "$name.hpp" \) -printf '%h\n' | sort -u)
  [ -n "$sources" ] || continue
  checked=$((checked + 1))
  here=$(dirname "${test#tests/}")
  grep -qxF "$here" <<<"$sources" || problems+=("$test: tests $(head -1 <<<"$sources")/$name, so it belongs in tests/$(head -1 <<<"$sources")/")
done < <(find tests/probe tests/bench tests/strategies tests/results tests/tuner -name '*_test.cpp' | sort)

[ "$checked" -gt 50 ] || fail "only $checked test files matched a source: is this the tree?"
((${#problems[@]} == 0)) || fail "$(printf '%s\n' "${problems[@]}")"
echo "ok: $checked test files each in the folder of the source they are named for"
