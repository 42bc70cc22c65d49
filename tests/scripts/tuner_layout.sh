#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The rooms of tuner/ (tuner/CMakeLists.txt) include one another one way only: each room names
# the rooms below it that it may use, the basics directly in tuner/ (run_error.hpp,
# device_context.hpp) use no room, and nothing under probe/, bench/, strategies/ or results/
# includes tuner/. A file directly in tuner/ other than the basics, main.cpp and
# CMakeLists.txt, or a room this test does not know, fails too: a new file finds its room.
# Reads the sources only; runs no binary. Usage: tuner_layout.sh [ROOT] (default: this tree).
source "$(dirname "$0")/lib.bash"
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -d "$root/tuner" ] || fail "no tuner/ under $root"

# The rooms, bottom up, each with the rooms it may include (besides itself and the basics).
declare -A may_use=(
  [host]=""
  [trial]="host"
  [journal]="trial host"
  [device]="journal trial host"
  [run]="device journal trial host"
  [keep]="device journal trial host"
  [fleet]="journal host"
  [evaluate]="run device journal trial host"
  [cli]="evaluate fleet keep run device journal trial host"
)
basics="device_context.hpp run_error.hpp"

# includes FILE...: the tuner/ headers the files include, one "FILE:LINE:HEADER" a line.
includes() {
  grep -nHoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"tuner/[^"]+"' "$@" 2>/dev/null |
    sed -E 's/#[[:space:]]*include[[:space:]]*"(tuner\/[^"]+)"/\1/; s/:[[:space:]]*/:/2'
}

problems=()
for entry in "$root"/tuner/*; do
  name=$(basename "$entry")
  if [ -d "$entry" ]; then
    [ -n "${may_use[$name]+set}" ] || problems+=("tuner/$name/: a room this test does not know (add it to may_use)")
  elif [[ " $basics main.cpp CMakeLists.txt " != *" $name "* ]]; then
    problems+=("tuner/$name: directly in tuner/, not one of the basics (put it in a room)")
  fi
done

for basic in $basics; do
  while IFS=: read -r file line header; do
    [[ $header == tuner/*/* ]] && problems+=("${file#"$root"/}:$line: a basic includes the room header $header")
  done < <(includes "$root/tuner/$basic")
done

for room in "${!may_use[@]}"; do
  [ -d "$root/tuner/$room" ] || { problems+=("no tuner/$room/"); continue; }
  while IFS=: read -r file line header; do
    if [[ $header == tuner/*/* ]]; then
      used=${header#tuner/}
      used=${used%%/*}
      [ "$used" = "$room" ] && continue
      [[ " ${may_use[$room]} " == *" $used "* ]] && continue
      problems+=("${file#"$root"/}:$line: $room/ must not include $header (it may use: ${may_use[$room]:-the basics only})")
    elif [[ " $basics " != *" ${header#tuner/} "* ]]; then
      problems+=("${file#"$root"/}:$line: $header is neither a basic nor in a room")
    fi
  done < <(includes "$root"/tuner/"$room"/*.hpp "$root"/tuner/"$room"/*.cpp)
done

for lower in probe bench strategies results; do
  while IFS=: read -r file line header; do
    problems+=("${file#"$root"/}:$line: $lower/ must not include $header (tuner/ is above it)")
  done < <(find "$root/$lower" -name '*.[ch]pp' -exec grep -nHoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"tuner/[^"]+"' {} + |
             sed -E 's/#[[:space:]]*include[[:space:]]*"(tuner\/[^"]+)"/\1/; s/:[[:space:]]*/:/2')
done

if ((${#problems[@]})); then
  printf '%s\n' "${problems[@]}" >&2
  fail "tuner/'s rooms: ${#problems[@]} include(s) or file(s) out of place"
fi
echo "tuner_layout: ok (${#may_use[@]} rooms)"
