#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Record before you probe: the capability probe at `tune` start writes
# nr_requests values; kill -9 at random early points of 8 runs on a loop device with
# non-default settings. After each kill either nothing was changed, or a journal holds the
# original settings and `disktune restore` (odd runs) or a new `tune` (even runs) puts them back.
# `disktune restore` itself probes nothing.
source "$(dirname "$0")/lib.bash"

truncate -s 64M "$WORK/img"
attach_loop "$WORK/img"
q=/sys/block/$(basename "$dev")/queue
echo none >"$q/scheduler" 2>/dev/null || true
echo 37 >"$q/nr_requests" || skip "nr_requests not writable"
echo 96 >"$q/read_ahead_kb"
original=$(queue_snapshot "$dev")
short=(--duration 0.2 --repeats 1 --max-repeats 1 --max-trials 1)

RANDOM=5
changed=0
for i in $(seq 8); do
  j="$WORK/j$i"
  "$DISKTUNE" tune "$dev" "${short[@]}" --journal "$j" >/dev/null 2>"$WORK/err" &
  pid=$!
  sleep "0.$(printf "%03d" $((10 + RANDOM % 190)))"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "$(queue_snapshot "$dev")" != "$original" ]; then
    changed=$((changed + 1))
    [ -s "$j" ] || fail "kill $i left $(queue_snapshot "$dev" | tr '\n' ' ') with no journal to restore from"
  fi
  if [ -s "$j" ] && ((i % 2)); then
    "$DISKTUNE" restore "$dev" --journal "$j" >/dev/null 2>"$WORK/err" || fail "restore after kill $i: $(cat "$WORK/err")"
  elif [ -s "$j" ]; then
    tune_completed "$DISKTUNE" tune "$dev" "${short[@]}" --journal "$j" >/dev/null 2>"$WORK/err" || fail "tune after kill $i: $(tail -1 "$WORK/err")"
  fi
  expect_eq "$(queue_snapshot "$dev" | tr '\n' ' ')" "$(echo "$original" | tr '\n' ' ')" "settings after kill $i and the restore"
done
# restore itself does not probe: on a device at its originals it opens no queue file for writing.
last=""
for j in "$WORK"/j?; do [ -s "$j" ] && last=$j; done
if command -v strace >/dev/null && [ -n "$last" ]; then
  strace -f -e trace=openat -o "$WORK/strace" "$DISKTUNE" restore "$dev" --journal "$last" >/dev/null 2>&1 ||
    fail "restore under strace failed"
  if grep 'queue/.*O_WRONLY' "$WORK/strace" >&2; then fail "restore wrote queue settings on a device at its originals"; fi
fi
((changed >= 2)) || fail "only $changed of 8 kills landed while the device was changed"
echo "ok: 8 kills, $changed left the device changed, every one restored from the journal"
