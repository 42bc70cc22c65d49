#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Sizes that read: no C++ source or header over 400 lines and no function
# over 60, in the program and in the tests. Function extents come from Universal Ctags (its
# `end:` field), not from a brace counter of our own. Reads the sources only; runs no binary.
source "$(dirname "$0")/lib.bash"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v ctags >/dev/null || fail "ctags not found (scripts/setup installs universal-ctags)"
ctags --version 2>/dev/null | grep -q 'Universal Ctags' || fail "ctags is not Universal Ctags (it gives no function ends)"
readonly max_file_lines=400 max_function_lines=60
dirs=(probe tuner bench strategies results tests)

cd "$root"
long_files=$(find "${dirs[@]}" \( -name '*.cpp' -o -name '*.hpp' \) -print0 |
               xargs -0 wc -l | awk -v max=$max_file_lines '$2 != "total" && $1 > max { print "  " $2 ": " $1 " lines" }')
[ -z "$long_files" ] || fail "files over $max_file_lines lines:
$long_files"

# One tag per function definition: NAME<TAB>FILE<TAB>PATTERN;"<TAB>f<TAB>line:N ... end:M.
tags=$(ctags -R --languages=C++ --kinds-C++=f --fields=+ne -f - "${dirs[@]}") || fail "ctags failed"
[ -n "$tags" ] || fail "ctags found no functions under ${dirs[*]}"
functions=$(awk -F'\t' '{ for (i = 4; i <= NF; ++i) if ($i ~ /^end:/) n++ } END { print n + 0 }' <<<"$tags")
((functions > 500)) || fail "ctags gave the extent of only $functions functions: its output format changed?"
long_functions=$(awk -F'\t' -v max=$max_function_lines '{
    line = ""; end = ""
    for (i = 4; i <= NF; ++i) { if ($i ~ /^line:/) line = substr($i, 6); if ($i ~ /^end:/) end = substr($i, 5) }
    if (line != "" && end != "" && end - line + 1 > max) print "  " $2 ":" line ": " $1 " (" end - line + 1 " lines)"
  }' <<<"$tags")
[ -z "$long_functions" ] || fail "functions over $max_function_lines lines:
$long_functions"
echo "source_sizes: ok ($functions functions, none over $max_function_lines lines; no file over $max_file_lines)"
