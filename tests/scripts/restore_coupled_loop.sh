#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Restore across coupled queue settings: a tune of a loop device killed -9 mid-trial while the
# device holds another max_sectors_kb (a write that raises read_ahead_kb on some kernels, 6.18
# to twice the value) must be undone by `disktune restore`: exit 0, every value as found.
source "$(dirname "$0")/lib.bash"

require_loop
head -c 33554432 /dev/urandom >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
[ "$(cat "$q/max_hw_sectors_kb")" -ge 1280 ] || skip "max_hw_sectors_kb below 1280 on this kernel"
# The reported originals, set in the order that reaches them on a coupling kernel.
echo 1280 >"$q/max_sectors_kb"
echo 128 >"$q/read_ahead_kb"
expect_eq "$(cat "$q/max_sectors_kb") $(cat "$q/read_ahead_kb")" "1280 128" "originals as set"
before=$(queue_snapshot "$dev")

# A bounded tune, killed -9 with its trial child once a trial runs.
kill_tune_in_trial "$dev" --only max_sectors_kb,read_ahead_kb --max-trials 6 --duration 0.2 \
  --repeats 2 --max-repeats 2 --journal "$WORK/journal"
# Whatever the trial left, the device now holds max_sectors_kb 512, as a kill mid-trial leaves it.
echo 512 >"$q/max_sectors_kb"

set +e
"$DISKTUNE" restore "$dev" --journal "$WORK/journal" >"$WORK/restore.txt" 2>&1
code=$?
set -e
expect_eq "$code" 0 "restore exit code ($(tail -3 "$WORK/restore.txt"))"
expect_eq "$(cat "$q/read_ahead_kb")" 128 "read_ahead_kb after restore"
expect_eq "$(cat "$q/max_sectors_kb")" 1280 "max_sectors_kb after restore"
expect_eq "$(queue_snapshot "$dev")" "$before" "every queue value after restore"
echo ok
