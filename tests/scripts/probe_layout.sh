#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The dependency rules of the source tree: probe/ is the bottom layer, so no file under probe/
# includes a header of bench/, strategies/, results/ or tuner/ (bench depends on probe, never
# the reverse), and probe's sub-libraries include one another only along their link graph.
# Reads the sources only; runs no binary.
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
# The sub-libraries of probe/ (their CMake link lines state the same graph): core is the
# leaf, identify uses core only, sim and linux never use each other or watch, watch uses the
# basics only, and the basics (probe/*.hpp, *.cpp) use core and identify only.
for sub in core identify sim linux watch; do
  [ -d "$root/probe/$sub" ] || fail "no probe/$sub/"
done
forbid_includes probe/core "any other part of probe/" 'probe/([a-z_]+\.hpp|(identify|sim|linux|watch)/)'
forbid_includes probe/identify "probe/ headers beyond core/" 'probe/([a-z_]+\.hpp|(sim|linux|watch)/)'
forbid_includes probe/sim "probe/linux/ or probe/watch/" 'probe/(linux|watch)/'
forbid_includes probe/linux "probe/sim/ or probe/watch/" 'probe/(sim|watch)/'
forbid_includes probe/watch "probe/identify/, probe/sim/ or probe/linux/" 'probe/(identify|sim|linux)/'
basics_hits=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"probe/(sim|linux|watch)/' \
                "$root"/probe/*.hpp "$root"/probe/*.cpp || true)
[ -z "$basics_hits" ] || fail "probe/*.{hpp,cpp} (the basics) must not include sim/, linux/ or watch/:
${basics_hits//$root\//}"
echo "probe_layout: ok"
