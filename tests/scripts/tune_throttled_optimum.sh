#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 11 item 6b: on an IOPS-capped loop device (400 requests/s, 200 MB/s) a sequential read
# runs at about min(200 MB/s, 400 x request size), so max_sectors_kb has a real optimum.
# Started from a bad setting (max_sectors_kb 128: about 50 MB/s), the default strategy must
# end on a configuration that reads within 5 % of the best one an exhaustive sweep of the
# same knob finds on the same device (judged on the sweep's own figures, so both are
# compared in one run's conditions). Every run must restore the bad setting it found.
source "$(dirname "$0")/lib.bash"

require_loop
attach_random_loop 256
q=/sys/block/$(basename "$dev")/queue
# The deliberately bad start, on our own device; a loop device keeps its queue settings after
# it is detached, so the value found is put back on every exit path.
found=$(cat "$q/max_sectors_kb")
cleanup_steps+=("echo $found >'$q/max_sectors_kb'")
echo 128 >"$q/max_sectors_kb"
before=$(queue_snapshot "$dev")
throttle_loop "$dev" 200000000 400

bounded=(--only max_sectors_kb --duration 0.1 --repeats 2 --max-repeats 3 --noise-repeats 1)
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
rate_in_sweep() {  # rate_in_sweep KB: the sweep's median for max_sectors_kb KB (null if none)
  jq --argjson kb "$1" '[.trials[] | select(.status == "ok" and .settings.max_sectors_kb == $kb) | .median] | max' "$sweep"
}
best_kb=$(jq -r '.winner.settings.max_sectors_kb' "$sweep")  # the best one the sweep finds
best=$(rate_in_sweep "$best_kb")
chosen=$(jq -r '.winner.settings.max_sectors_kb' "$WORK/default.json")
chosen_rate=$(rate_in_sweep "$chosen")
[ "$chosen_rate" != null ] || fail "the sweep measured no max_sectors_kb $chosen"
baseline=$(jq '.baseline.median' "$sweep")
# The start must be bad for the check to mean anything: the best at least twice the start.
awk -v b="$best" -v s="$baseline" 'BEGIN { exit !(b > 2 * s) }' ||
  fail "max_sectors_kb 128 is no bad start here: best $best MB/s, start $baseline MB/s"
[ "$chosen" = "$best_kb" ] || awk -v c="$chosen_rate" -v b="$best" 'BEGIN { exit !(c >= 0.95 * b) }' ||
  fail "the tune chose max_sectors_kb $chosen ($chosen_rate MB/s in the sweep), more than 5 % below the sweep's best ($best_kb KiB, $best MB/s): $(jq -c '[.trials[] | {kb: .settings.max_sectors_kb, m: .median}]' "$sweep")"
echo "ok: start 128 KiB $baseline MB/s; sweep best $best_kb KiB $best MB/s; the tune chose $chosen KiB ($chosen_rate MB/s in the sweep," \
  "$(jq '.winner.median' "$WORK/default.json") MB/s in its own round)"
