#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The dependency rules of the source tree: probe/ is the bottom layer, so no file under probe/
# includes a header of bench/, strategies/, results/ or tuner/ (bench depends on probe, never
# the reverse). Reads the sources only; runs no binary.
source "$(dirname "$0")/lib.bash"
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -d "$root/probe" ] || fail "no probe/ under $root"

# forbid_includes DIR WHAT PATTERN: fail listing every #include line of DIR matching PATTERN.
forbid_includes() {
  local dir=$1 what=$2 pattern=$3 hits status=0
  hits=$(grep -rnE --include='*.hpp' --include='*.cpp' --include='*.in' \
           "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($pattern)" "$root/$dir") || status=$?
  ((status <= 1)) || fail "grep failed (exit $status) on $dir/"
  [ -z "$hits" ] || fail "$dir/ must not include $what:
${hits//$root\//}"
}

forbid_includes probe "bench/, strategies/, results/ or tuner/ headers" '(bench|strategies|results|tuner)/'
echo "probe_layout: ok"
