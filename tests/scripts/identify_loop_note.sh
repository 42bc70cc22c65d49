#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A loop device answers no ATA IDENTIFY: `identify` says so (exit 3) and `tune` goes on with
# the block-layer settings, each naming every request tried with the kernel's own reason, and
# nothing after it: a trailing "Operation not supported" read as a third reason of its own.
source "$(dirname "$0")/lib.bash"

truncate -s 16M "$WORK/disk.img"
attach_loop "$WORK/disk.img"
note="no identify data (ioctl(HDIO_GET_IDENTITY) on $dev: Invalid argument; ioctl(SG_IO ATA_16 IDENTIFY) on $dev: Invalid argument)"

code=0
"$DISKTUNE" identify "$dev" >/dev/null 2>"$WORK/err" || code=$?
expect_eq "$code" 3 "identify's exit code on a loop device"
expect_eq "$(cat "$WORK/err")" "disktune: $dev: $note; not an ATA disk? '$DISKTUNE plan' shows its block-layer settings" \
  "identify's message"

"$DISKTUNE" tune "$dev" --max-trials 0 --duration 0.1 --repeats 1 --max-repeats 1 --noise-repeats 1 \
  --journal "$WORK/j" --report "$WORK/r.json" >/dev/null 2>"$WORK/tune.err" || fail "tune exited $? ($(tail -2 "$WORK/tune.err"))"
expect_eq "$(grep 'block-layer tuning only' "$WORK/tune.err")" "  block-layer tuning only: $note" "tune's note"
expect_eq "$(jq -r .device.identify_note "$WORK/r.json")" "$note" "the report's identify_note"
echo ok
