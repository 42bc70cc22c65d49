#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Another process changes a setting the tune does not search (nr_requests,
# with --only read_ahead_kb) once, as soon as the baseline is measured: the trial running
# then (trial 1: a warm-up and two 0.5 s samples) is unstable naming it (setting, actual,
# expected), never ok. The restore after that trial puts the original back (later trials run
# under it), and the device ends with the original settings.
source "$(dirname "$0")/lib.bash"

require_loop
head -c 1048576 /dev/urandom >"$WORK/block"
for _ in $(seq 64); do cat "$WORK/block"; done >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
before=$(queue_snapshot "$dev")
original=$(cat "$q/nr_requests")
other=$((original / 2))

"$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 2 --duration 0.5 --repeats 2 --max-repeats 2 \
  --report "$WORK/r.json" --journal "$WORK/j" >"$WORK/out.txt" 2>"$WORK/err.txt" &
tune=$!
cleanup_steps+=("kill -9 $tune 2>/dev/null")
# The other process: one write of nr_requests as soon as the baseline is measured.
for _ in $(seq 3000); do grep -qs 'noise between' "$WORK/err.txt" && break; sleep 0.01; done
grep -q 'noise between' "$WORK/err.txt" || fail "the baseline was never measured ($(tail -3 "$WORK/err.txt"))"
echo "$other" >"$q/nr_requests"
tune_completed wait "$tune" || fail "tune did not complete ($(tail -5 "$WORK/err.txt"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the run (the restore puts nr_requests back)"

r="$WORK/r.json"
named="nr_requests reads back $other instead of $original"
jq -e --arg n "$named" 'any(.trials[]; .status == "unstable" and (.detail | contains($n)))' "$r" >/dev/null ||
  fail "no trial is unstable naming '$named': $(jq -c '[.trials[] | {id, status, detail}]' "$r")"
expect_eq "$(jq -r '.trials[0].status' "$r")" unstable "trial 1 (measured while nr_requests changed)"
jq -e --arg n "$named" '.trials[0].detail | contains($n)' "$r" >/dev/null ||
  fail "trial 1 does not name '$named': $(jq -r '.trials[0].detail' "$r")"
echo "ok: trial 1: $(jq -r ".trials[0].detail" "$r")"
