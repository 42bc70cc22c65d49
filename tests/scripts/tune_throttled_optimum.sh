#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# On an IOPS-capped loop device (400 requests/s, 200 MB/s) a sequential read
# runs at about min(200 MB/s, 400 x request size), so max_sectors_kb has a real optimum.
# Started from a bad setting (max_sectors_kb 128: about 50 MB/s), the default strategy and an
# exhaustive sweep of the same knob must both end within 5 % of the best rate the throttle
# allows. That optimum is known, not measured: at or above 512 KiB the 200 MB/s cap binds
# (512 and 1024 tie). Judging by the sweep's own single figures failed in CI: the throttle's
# bursts put them 10 % apart for two settings that read at the same cap. The sweep's figures
# must still show the model (the best at least twice the start). Every run must restore
# the bad setting it found.
# Samples last 0.3 s: the throttle lets a burst through at the start of each sample, which
# dominates a 0.1 s one. At 0.1 s and load 3, 256 KiB (capped at 100 MiB/s) read up to 166 MiB/s
# and the sizes the 200 MB/s cap binds (191 MiB/s) up to 322; in CI 256 KiB read 162 in the
# sweep and won, which it can only do tied with 512 in the round (the fixed order). At 0.3 s,
# six sweeps at load 3 read 87-105 and 188-209 MiB/s.
source "$(dirname "$0")/lib.bash"

require_loop
attach_iops_capped_loop 256

bounded=(--only max_sectors_kb --duration 0.3 --repeats 2 --max-repeats 3 --noise-repeats 1)
tune() {  # tune NAME ARGS...: a bounded tune, its report in $WORK/NAME.json
  local name=$1
  shift
  "$DISKTUNE" tune "$dev" "${bounded[@]}" "$@" --report "$WORK/$name.json" --journal "$WORK/$name.journal" \
    >"$WORK/$name.out" 2>"$WORK/$name.err" || fail "$name tune exited $? ($(tail -5 "$WORK/$name.err"))"
  expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the $name tune"
}
tune sweep --strategy exhaustive
tune default

sweep=$WORK/sweep.json
# known_rate KB: bytes/s the throttle allows with requests of KB KiB (min of the two caps).
known_rate() { echo $((400 * $1 * 1024 < 200000000 ? 400 * $1 * 1024 : 200000000)); }
best_known=0
for kb in $(jq -r '.trials[].settings.max_sectors_kb' "$sweep" | sort -un); do
  rate=$(known_rate "$kb")
  [ "$rate" -le "$best_known" ] || best_known=$rate
done
figures=$(jq -c '[.trials[] | {kb: .settings.max_sectors_kb, m: .median}]' "$sweep")
for run in sweep default; do
  chosen=$(jq -r '.winner.settings.max_sectors_kb' "$WORK/$run.json")
  [ "$chosen" != null ] || fail "the $run tune named no winner ($(tail -3 "$WORK/$run.err"))"
  [ $((100 * $(known_rate "$chosen"))) -ge $((95 * best_known)) ] ||
    fail "the $run tune chose max_sectors_kb $chosen ($(known_rate "$chosen") B/s allowed), more than 5 % below the best the throttle allows ($best_known B/s); sweep figures: $figures"
done
baseline=$(jq '.baseline.median' "$sweep")
best=$(jq '[.trials[] | select(.status == "ok") | .median] | max' "$sweep")
# The start must be bad for the check to mean anything: the best at least twice the start.
awk -v b="$best" -v s="$baseline" 'BEGIN { exit !(b > 2 * s) }' ||
  fail "max_sectors_kb 128 is no bad start here: best $best MB/s, start $baseline MB/s; sweep figures: $figures"
echo "ok: start 128 KiB $baseline MB/s; sweep best $best MB/s, it chose $(jq '.winner.settings.max_sectors_kb' "$sweep") KiB;" \
  "the tune chose $chosen KiB ($(jq '.winner.median' "$WORK/default.json") MB/s in its own round)"
