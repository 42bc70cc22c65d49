#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The default apply journal of a loop device is named after its backing file: two backing
# files whose names differ only in characters a file name cannot keep ('/tmp/c/a_b.img',
# '/tmp/c/a/b.img') get two journals (one shared journal made the second apply keep the
# first drive's values and left the second unrestorable), and a long backing path still
# gives a journal name the file system takes (NAME_MAX). Apply, then restore, on each.
source "$(dirname "$0")/lib.bash"

require_loop
long_dir=$WORK/c/$(printf 'd%.0s' $(seq 200))
mkdir -p "$WORK/c/a" "$long_dir"
files=("$WORK/c/a_b.img" "$WORK/c/a/b.img" "$long_dir/$(printf 'e%.0s' $(seq 100)).img")
devs=()
for f in "${files[@]}"; do
  truncate -s 16M "$f"
  attach_loop "$f"
  devs+=("$dev")
  cleanup_steps+=("echo $(cat "/sys/block/$(basename "$dev")/queue/read_ahead_kb") >/sys/block/$(basename "$dev")/queue/read_ahead_kb")
done

journals=()
for i in 0 1 2; do
  ra=$((512 * (i + 1)))
  found=$(cat "/sys/block/$(basename "${devs[$i]}")/queue/read_ahead_kb")
  loop_report "${devs[$i]}" "${files[$i]}" "{\"read_ahead_kb\": $ra}" >"$WORK/r$i.json"
  code=0
  "$DISKTUNE" apply "$WORK/r$i.json" >"$WORK/a$i.out" 2>"$WORK/a$i.err" || code=$?
  journal=$(sed -n 's/.*; journal \(.*\); .[^ ]*disktune restore.*/\1/p' "$WORK/a$i.out")
  [ -z "$journal" ] || cleanup_steps+=("rm -f '$journal' '$journal'.*")
  expect_eq "$code" 0 "apply of ${files[$i]} ($(cat "$WORK/a$i.err"))"
  grep -q "keeping the values recorded before it" "$WORK/a$i.err" &&
    fail "the first apply of ${files[$i]} found another drive's apply in effect: $(cat "$WORK/a$i.err")"
  expect_eq "$(cat "/sys/block/$(basename "${devs[$i]}")/queue/read_ahead_kb")" "$ra" "read_ahead_kb of ${devs[$i]} applied"
  for other in "${journals[@]}"; do
    [ "$other" != "$journal" ] || fail "${files[$i]} shares the apply journal $journal"
  done
  journals+=("$journal")
  eval "found_$i=$found"
done
for i in 0 1 2; do
  "$DISKTUNE" restore "${devs[$i]}" >"$WORK/rs.out" 2>"$WORK/rs.err" ||
    fail "restore ${devs[$i]} exited $? ($(cat "$WORK/rs.err"))"
  eval "expected=\$found_$i"
  expect_eq "$(cat "/sys/block/$(basename "${devs[$i]}")/queue/read_ahead_kb")" "$expected" "read_ahead_kb of ${devs[$i]} restored"
done
echo "ok: three loop devices, three apply journals, each restored (${SECONDS} s)"
