#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Another process toggles read_ahead_kb (a setting the tune does not search: --only
# nr_requests) to another value and back within one sample's span, over and over, once the
# baseline is measured: 50 ms at the other value every 0.5 s, while each trial measures for
# 1.5 s (a warm-up and two 0.5 s samples). The read-backs before and after measuring meet
# the other value only by chance; the setting watch reads every setting back while the trial
# reads, so every trial is unstable naming read_ahead_kb, never ok. The device ends with the
# original settings.
source "$(dirname "$0")/lib.bash"

attach_random_loop 64
q=/sys/block/$(basename "$dev")/queue
before=$(queue_snapshot "$dev")
original=$(cat "$q/read_ahead_kb")
other=$((original == 512 ? 1024 : 512))

"$DISKTUNE" tune "$dev" --only nr_requests --max-trials 2 --duration 0.5 --repeats 2 --max-repeats 2 \
  --report "$WORK/r.json" --journal "$WORK/j" >"$WORK/out.txt" 2>"$WORK/err.txt" &
tune=$!
cleanup_steps+=("kill -9 $tune 2>/dev/null")
for _ in $(seq 3000); do grep -qs 'noise between' "$WORK/err.txt" && break; sleep 0.01; done
grep -q 'noise between' "$WORK/err.txt" || fail "the baseline was never measured ($(tail -3 "$WORK/err.txt"))"
# The other process: toggles until the tune has ended, and always ends on the original.
(
  while kill -0 "$tune" 2>/dev/null; do
    echo "$other" >"$q/read_ahead_kb"
    sleep 0.05
    echo "$original" >"$q/read_ahead_kb"
    sleep 0.45
  done
) &
toggler=$!
cleanup_steps+=("kill $toggler 2>/dev/null; echo $original >$q/read_ahead_kb")
tune_completed wait "$tune" || fail "tune did not complete ($(tail -5 "$WORK/err.txt"))"
wait "$toggler"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the run"

r="$WORK/r.json"
jq -e '.trials | length > 0' "$r" >/dev/null || fail "no trial ran"
jq -e 'all(.trials[]; .status == "unstable" and (.detail | contains("read_ahead_kb")))' "$r" >/dev/null ||
  fail "a trial measured while read_ahead_kb was toggled is not unstable naming it: $(jq -c '[.trials[] | {id, status, detail}]' "$r")"
jq -r '.trials[] | "ok: trial \(.id): \(.detail)"' "$r"
