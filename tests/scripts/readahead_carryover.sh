#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# No sample pays for the readahead the one before it left in flight. On a
# loop device capped at 50 MiB/s (bytes only, no IOPS cap) no readahead can make a reader that
# keeps reading faster or slower. Before samples waited for their reads in flight, a large
# readahead lost by a fraction set by the sample length alone: with 1 s samples
# read_ahead_kb 2560 read 46.0 MB/s and 128 read 50.6, and a tune from read_ahead_kb 2560
# "confirmed" read_ahead_kb 0 at 1.067x. Now: both read tied (the medians' 95 % intervals
# overlap, and 2560 is not 5 % below 128: the carry-over's direction; under the suite's load
# the throttle's bursts move either median by about 5 %, in both directions, 2560 once 5.3 %
# above), and a tune from read_ahead_kb 2560 keeps the baseline. The settings are restored after it.
# The tune measures 3 s samples, not 1 s: blk-throttle grants up to a 100 ms slice's bytes
# (5 MiB) ahead, and which sample starts with that credit follows the configuration's timing.
# With 1 s samples, 1 run in 4-5 here had read_ahead_kb 128 read 52-53.6 MB/s in every one of
# 12 interleaved rounds against 2560's 49.6-50.5: a bias of the bed (above its cap), not noise,
# that no statistics remove. At 3 s it is a third as large, below the 2 % minimum gain (4 of 4
# runs kept the baseline; confirmation rounds within 1 %). docs/measurement-fidelity.md.
source "$(dirname "$0")/lib.bash"

require_loop
truncate -s 1G "$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
throttle_loop "$dev" $((50 << 20))

# bench_at KB: the buffered median and its interval with read_ahead_kb KB, 1 s samples.
bench_at() {
  echo "$1" >"$q/read_ahead_kb"
  "$DISKTUNE" bench "$dev" --method buffered --duration 1 --repeats 7 --json >"$WORK/ra$1.json" 2>"$WORK/err" ||
    fail "bench at read_ahead_kb $1 exited $? ($(cat "$WORK/err"))"
  jq -c '[.buffered_read_mib_s, .median_interval.buffered.low, .median_interval.buffered.high]' "$WORK/ra$1.json"
}
tied() {  # tied LARGE SMALL: both [median, low, high] overlap, and LARGE is not 5 % below SMALL
  jq -en --argjson a "$1" --argjson b "$2" '($a[1] <= $b[2] and $b[1] <= $a[2]) and ($b[0] - $a[0] <= 0.05 * $b[0])' >/dev/null
}
large=$(bench_at 2560) small=$(bench_at 128)
echo "read_ahead_kb 2560: $large; 128: $small (median, 95 % interval; MB/s)"
if ! tied "$large" "$small"; then
  # Once more in the other order: the carry-over lost every time, a burst of the throttle under
  # the suite's load once (the clean run of bda2838: 2560 5.7 % below 128, at load 4).
  small2=$(bench_at 128) large2=$(bench_at 2560)
  echo "again, 128 first: read_ahead_kb 2560: $large2; 128: $small2"
  tied "$large2" "$small2" ||
    fail "read_ahead_kb 2560 and 128 not tied on a byte-capped device, twice: $large against $small, then $large2 against $small2"
fi

echo 2560 >"$q/read_ahead_kb"
before=$(queue_snapshot "$dev")
# Exit 6 ("too noisy", no configuration beat the noise) keeps the baseline too.
rc=0
"$DISKTUNE" tune "$dev" --only read_ahead_kb --duration 3 --max-trials 6 --report "$WORK/tune.json" \
  --journal "$WORK/tune.journal" >"$WORK/tune.out" 2>"$WORK/tune.err" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 6 ] || fail "tune exited $rc ($(tail -5 "$WORK/tune.err"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the tune"
changes=$(jq -c '.winner.changes // {}' "$WORK/tune.json")
[ "$changes" = '{}' ] ||
  fail "the tune changed $changes on a byte-capped device ($(jq -c '[.trials[] | {s: .settings.read_ahead_kb, m: .median}], .confirmation' "$WORK/tune.json"; cat "$WORK/tune.err"))"
echo "ok: the tune kept read_ahead_kb 2560 (exit $rc): $(jq -c '[.trials[] | {ra: .settings.read_ahead_kb, median}]' "$WORK/tune.json")"
