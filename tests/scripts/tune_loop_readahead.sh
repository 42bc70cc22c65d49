#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The confirmation round sees readahead. On a throttled loop device (1000 IOPS,
# 100 MiB/s) read_ahead_kb 0 reads 4 KiB requests (~4 MB/s) and 16 KiB or more reads at the
# bandwidth cap: every finalist must be measured with its own readahead in the round too (a
# device opened before applying kept the baseline's readahead: all contenders equal).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/throttle.bash"

require_loop
head -c 1048576 /dev/urandom >"$WORK/block"
for _ in $(seq 64); do cat "$WORK/block"; done >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
echo 0 >"$q/read_ahead_kb"  # the baseline: no readahead (our own device)
before=$(queue_snapshot "$dev")
throttle_loop "$dev" 104857600 1000

throttled "$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 2 --duration 0.3 --repeats 2 --max-repeats 2 \
  --report "$WORK/r.json" --journal "$WORK/j" >"$WORK/out.txt" 2>"$WORK/err.txt" ||
  fail "tune exited $? ($(tail -5 "$WORK/err.txt"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the run"

r="$WORK/r.json"
jq -e '.confirmation != null and (.confirmation.results | length) >= 2' "$r" >/dev/null ||
  fail "no confirmation round with a finalist: $(jq -c '[.trials[] | {id, status, median}]' "$r")"
base=$(jq '.confirmation.results[0].median' "$r")
# Every finalist (read_ahead_kb > 0) at least 5x the round's baseline, as in the search.
jq -e '.confirmation.results[0].median as $b | .confirmation.results[1:] |
       all(.status == "ok" and .settings.read_ahead_kb > 0 and .median > 5 * $b)' "$r" >/dev/null ||
  fail "the round did not see readahead: $(jq -c '[.confirmation.results[] | {id, ra: .settings.read_ahead_kb, median}]' "$r")"
expect_eq "$(jq -r .winner.keep_baseline "$r")" false "keep_baseline"
echo "ok: round baseline $base MB/s, finalists $(jq -c '[.confirmation.results[1:][] | .median]' "$r") MB/s"
