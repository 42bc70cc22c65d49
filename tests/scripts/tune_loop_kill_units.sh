#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kill -9 (the whole process group, trial child included) in a noise repeat of the baseline and
# in a finalist's confirmation unit, each found by its intent record in the journal: the next
# tune puts the original settings back first, resumes as docs/journal.md says (the baseline
# measured again from its first trial, naming the repeat it died in; the round in flight run
# once more, no search trial measured twice), and ends with the originals read back.
# A throttled loop device where read_ahead_kb acts (tune_loop_readahead.sh), bounded trials.
source "$(dirname "$0")/lib.bash"

require_loop
attach_random_loop 64
q=/sys/block/$(basename "$dev")/queue
found=$(cat "$q/read_ahead_kb")
cleanup_steps+=("echo $found >'$q/read_ahead_kb'")  # a loop device keeps it after the detach
echo 0 >"$q/read_ahead_kb"  # the baseline: no readahead, which every finalist changes
before=$(queue_snapshot "$dev")
throttle_loop "$dev" 104857600 1000  # this shell and every tune it starts
j="$WORK/j"
args=("$dev" --only read_ahead_kb --max-trials 2 --duration 0.3 --repeats 2 --max-repeats 2 --journal "$j")

# kill_at JQ_FILTER [CONDITION]: a tune in its own process group, killed -9 once the journal
# holds a record matching JQ_FILTER (polled every 20 ms: its trial is then running) and, when
# given, the shell command CONDITION holds.
kill_at() {
  : >"$WORK/err.txt"
  setsid "$DISKTUNE" tune "${args[@]}" >/dev/null 2>"$WORK/err.txt" &
  local pid=$!
  cleanup_steps+=("kill -9 -- -$pid 2>/dev/null")
  for _ in $(seq 1500); do
    journal_records "$j" | jq -e -s "any(.[]; $1)" >/dev/null && break
    kill -0 "$pid" 2>/dev/null || fail "the tune ended before '$1' ($(tail -2 "$WORK/err.txt"))"
    sleep 0.02
  done
  for _ in $(seq 250); do eval "${2:-true}" && break; sleep 0.02; done
  kill -9 -- -"$pid" 2>/dev/null || fail "no record '$1' within 30 s"
  wait "$pid" 2>/dev/null || true
}
resume() {
  "$DISKTUNE" tune "${args[@]}" --report "$WORK/r.json" >/dev/null 2>"$WORK/resume.txt" ||
    fail "the resume exited $? ($(tail -3 "$WORK/resume.txt"))"
  expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the resume"
  journal_records "$j" | jq -s -e 'last | .type == "end" and .restored' >/dev/null || fail "the journal does not end restored"
}

# 1. In the baseline's first noise repeat: nothing applied, the baseline measured again.
kill_at '.type == "baseline_intent" and .kind == "baseline_repeat"'
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the kill in a repeat"
resume
grep -q "the interrupted run died in noise repeat 1 of the settings as found: measured again" "$WORK/resume.txt" ||
  fail "the resume does not say what it measures again: $(cat "$WORK/resume.txt")"
expect_eq "$(journal_records "$j" | jq -s '[.[] | select(.type == "baseline_intent" and .index == 0)] | length')" 2 \
  "attempts at the baseline"

# 2. In a finalist's confirmation unit: its readahead is on the device when the group dies.
rm -f "$j"
kill_at '.type == "unit_intent" and .unit >= 1' '[ "$(cat "$q/read_ahead_kb")" != 0 ]'
killed_at=$(cat "$q/read_ahead_kb")
[ "$killed_at" != 0 ] || fail "the finalist's readahead was not on the device when its unit was killed"
resume
grep -q "^disktune: restored the original settings recorded in $j" "$WORK/resume.txt" ||
  fail "the resume does not put the originals back first: $(head -3 "$WORK/resume.txt")"
journal_records "$j" | jq -s -e '([.[] | select(.type == "round_intent")] | length) == ([.[] | select(.type == "round_result")] | length) + 1' \
  >/dev/null || fail "the round in flight was not run once more: $(journal_records "$j" | jq -c 'select(.type | test("round"))')"
expect_eq "$(journal_records "$j" | jq -s '[.[] | select(.type == "result" and .baseline == false) | .settings | tojson] | group_by(.) | map(select(length > 1)) | length')" 0 \
  "search trials measured twice"
jq -e '.confirmation != null and .winner.confirmed != false' "$WORK/r.json" >/dev/null ||
  fail "the resumed run's answer is not confirmed: $(jq -c '{confirmation_skipped, winner}' "$WORK/r.json")"
echo "ok: killed in a noise repeat and in a finalist's unit (read_ahead_kb $killed_at on the device); each resume restored and finished"
