#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A slow device is not a broken one: at 256 KiB/s the baseline completes
# within limits derived from its rate; on a 100-IOPS device a configuration that reads in
# 4 KiB requests is `slow` (with the rate it reached), not `hang`. Bounded bytes.
source "$(dirname "$0")/lib.bash"

require_loop
head -c 16777216 /dev/urandom >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
before=$(queue_snapshot "$dev")

# 256 KiB/s: a 2 MiB read takes 8 s, more than a fixed limit allowed for a 0.1 s sample.
# --max-trials 0: the baseline and its noise only.
bytes_before=$(device_read_bytes "$dev")
throttle_loop "$dev" 262144
set +e
"$DISKTUNE" tune "$dev" --max-trials 0 --duration 0.1 --repeats 1 --max-repeats 1 --noise-repeats 1 \
  --journal "$WORK/j1" --report "$WORK/r1.json" >"$WORK/out1" 2>"$WORK/err1"
code=$?
set -e
bytes=$(($(device_read_bytes "$dev") - bytes_before))
unthrottle
[ "$code" = 0 ] || [ "$code" = 6 ] || fail "slow baseline: exit $code ($(tail -3 "$WORK/err1"))"
grep -q "may need a reset" "$WORK/err1" && fail "a slow device was called broken: $(grep reset "$WORK/err1")"
expect_eq "$(jq -r .baseline.median "$WORK/r1.json" | awk '{print ($1 > 0.15 && $1 < 0.35)}')" 1 \
  "baseline rate at 256 KiB/s ($(jq -r .baseline.median "$WORK/r1.json") MiB/s)"
[ "$bytes" -lt $((20 << 20)) ] || fail "read $bytes bytes at 256 KiB/s"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the slow baseline"

# 100 IOPS: read_ahead_kb=0 reads in 4 KiB requests, about 0.4 MB/s: each 2 MiB read takes
# about 5 s, the stall limit of a trial at the baseline's rate. With an 8 s trial limit it
# is killed while still reading: slow, never hang. One trial: one-at-a-time screens
# read_ahead_kb's values in ladder order, 0 first. (The default strategy tries the largest
# first; at the 8 MiB/s cap it ties with the baseline, its one sample, quantized by the
# throttle to 6.4 or 8.0 MB/s, can start a confirmation round of up to 4 passes, 450 MB of
# reads that belong to no check of this test.)
bytes_before=$(device_read_bytes "$dev")
throttle_loop "$dev" 8388608 100
set +e
"$DISKTUNE" tune "$dev" --strategy one-at-a-time --only read_ahead_kb --max-trials 1 --duration 0.3 --repeats 1 --max-repeats 1 --noise-repeats 1 \
  --trial-timeout 8 --journal "$WORK/j2" --report "$WORK/r2.json" >"$WORK/out2" 2>"$WORK/err2"
code=$?
set -e
bytes=$(($(device_read_bytes "$dev") - bytes_before))
unthrottle
[ "$code" = 0 ] || [ "$code" = 6 ] || fail "100-IOPS tune: exit $code ($(tail -3 "$WORK/err2"))"
status=$(jq -r '[.trials[] | select(.settings.read_ahead_kb == 0)][0].status' "$WORK/r2.json")
expect_eq "$status" slow "status of read_ahead_kb=0 at 100 IOPS ($(jq -r '[.trials[] | select(.settings.read_ahead_kb == 0)][0].detail' "$WORK/r2.json"))"
jq -r '[.trials[] | select(.settings.read_ahead_kb == 0)][0].detail' "$WORK/r2.json" | grep -q -- "--trial-timeout" ||
  fail "the slow trial does not say which limit fired and how to raise it"
[ "$(jq '[.trials[] | select(.status == "hang")] | length' "$WORK/r2.json")" = 0 ] || fail "a trial counted as hung"
# The baseline's two trials (about 25 MiB at the 8 MiB/s cap) and the slow trial's 3 MiB.
[ "$bytes" -lt $((64 << 20)) ] ||
  fail "read $bytes bytes at 100 IOPS: $(jq -c '[.trials[] | {s: .settings.read_ahead_kb, st: .status, n: (.samples | length)}], .confirmation' "$WORK/r2.json"; cat "$WORK/out2" "$WORK/err2")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the 100-IOPS tune"
echo "ok (${SECONDS} s)"
