#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kill -9 at random points of the confirmation round (found by its announcement on stderr),
# 6 times: every resume completes with the uninterrupted run's winner, takes
# a finished round from the journal, re-runs a round in flight once and measures no trial
# twice; a round killed twice, or in flight at a reboot, is skipped with a note (the
# README's resume rule).
source "$(dirname "$0")/lib.bash"

records() { cut -d' ' -f4- "$1" | jq -c -R 'fromjson? | select(.type != null)'; }
count() { records "$1" | jq -s "[.[] | select($2)] | length"; }
tune=("$DISKTUNE" tune --seed 7 --duration 1 --max-trials 10)
# The uninterrupted run, its round timed (bash's clock, 10 ms polls): the kills below land
# within 70 % of that, wherever the machine's speed puts it (the simulated round takes ~140 ms).
"${tune[@]}" --journal "$WORK/ref.journal" --report "$WORK/ref.json" >/dev/null 2>"$WORK/ref.err" &
ref_pid=$! round_start= round_end=
while kill -0 "$ref_pid" 2>/dev/null; do
  [ -n "$round_start" ] || ! grep -q "confirmation round:" "$WORK/ref.err" || round_start=$EPOCHREALTIME
  [ -n "$round_end" ] || ! grep -Eq "confirmation round(: rounds 4-6)? done" "$WORK/ref.err" || round_end=$EPOCHREALTIME
  sleep 0.01
done
wait "$ref_pid" || fail "uninterrupted run failed ($(tail -2 "$WORK/ref.err"))"
# A round that ended in the last poll: it ended by now.
[ -n "$round_end" ] || ! grep -Eq "confirmation round(: rounds 4-6)? done" "$WORK/ref.err" || round_end=$EPOCHREALTIME
[ -n "$round_start" ] && [ -n "$round_end" ] || fail "the round was not seen: $(cat "$WORK/ref.err")"
window_ms=$(awk -v a="$round_start" -v b="$round_end" 'BEGIN { w = int(700 * (b - a)); print (w < 20 ? 20 : w > 999 ? 999 : w) }')
grep -q "^disktune: confirmation round: 3 finalists and the baseline x 3 rounds (of 6)" "$WORK/ref.err" ||
  fail "the round does not say what it does: $(cat "$WORK/ref.err")"
reference=$(jq -c .winner.settings "$WORK/ref.json")
# The round's calls (its two parts unless one contender is far ahead, then extra passes), each a journal record.
calls=$(count "$WORK/ref.journal" '.type=="round_result"')
((calls >= 1)) || fail "the uninterrupted run recorded no round"

# kill_in_round JOURNAL [MAX_MS]: start a tune and kill -9 it at a random point up to MAX_MS
# (default window_ms: 70 % of the uninterrupted round) after the round began (its intent record is durable before it says so).
kill_in_round() {
  : >"$WORK/err"
  "${tune[@]}" --journal "$1" >/dev/null 2>"$WORK/err" &
  local pid=$! i
  for i in $(seq 3000); do
    grep -q "confirmation round:" "$WORK/err" && break
    kill -0 "$pid" 2>/dev/null || fail "the run ended before its confirmation round ($(tail -1 "$WORK/err"))"
    sleep 0.01
  done
  sleep "0.$(printf "%03d" $((RANDOM % ${2:-$window_ms})))"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
no_duplicate_trials() {
  expect_eq "$(records "$1" | jq -s '[.[] | select(.type=="result" and .baseline==false) | .settings | tojson] | group_by(.) | map(select(length > 1)) | length')" 0 "$2: trials measured twice"
}

RANDOM=11
in_flight=0
for i in $(seq 6); do
  j="$WORK/run$i.journal"
  kill_in_round "$j"
  intents=$(count "$j" '.type=="round_intent"')
  done_before=$(count "$j" '.type=="round_result"')
  ((intents > done_before)) && in_flight=$((in_flight + 1))
  "${tune[@]}" --journal "$j" --report "$WORK/r$i.json" >/dev/null 2>"$WORK/err$i" ||
    fail "resume $i exited $? ($(tail -2 "$WORK/err$i"))"
  expect_eq "$(jq -c .winner.settings "$WORK/r$i.json")" "$reference" "winner after kill $i"
  expect_eq "$(count "$j" '.type=="round_result"')" "$calls" "round calls completed after kill $i"
  # A finished call is taken from the journal; one in flight is run once more.
  expect_eq "$(count "$j" '.type=="round_intent"')" "$((calls + intents - done_before))" "round calls started after kill $i"
  no_duplicate_trials "$j" "kill $i"
  records "$j" | jq -s -e 'last | .type == "end" and .restored' >/dev/null || fail "journal $i does not end restored"
done
((in_flight >= 2)) || fail "only $in_flight of 6 kills landed inside the round"

# Killed twice in the round: the third run skips it; the answer is the search's best, with the note.
j="$WORK/twice.journal"
kill_in_round "$j" 1
expect_eq "$(count "$j" '.type=="round_result"')" 0 "rounds finished before the first kill"
kill_in_round "$j" 1
expect_eq "$(count "$j" '.type=="round_result"')" 0 "rounds finished before the second kill"
"${tune[@]}" --journal "$j" --report "$WORK/twice.json" >/dev/null 2>"$WORK/twice.err" || fail "third run exited $?"
expect_eq "$(count "$j" '.type=="round_intent"')" 2 "rounds started in three runs"
jq -e '(.confirmation_skipped | test("died in the confirmation round twice")) and .winner.confirmed == false and
       .confirmation == null and .winner.trial_id > 0' "$WORK/twice.json" >/dev/null ||
  fail "a round killed twice is not reported skipped: $(jq -c '[.confirmation_skipped, .winner]' "$WORK/twice.json")"
no_duplicate_trials "$j" "twice"
# In flight at a reboot (the intent's boot id is another boot's): skipped, never re-run.
j="$WORK/reboot.journal"
kill_in_round "$j" 1
expect_eq "$(count "$j" '.type=="round_result"')" 0 "rounds finished before the kill"
python3 - "$j" <<'PY'
import json, sys, zlib
path = sys.argv[1]
lines = open(path, 'rb').read().split(b'\n')
for i, line in enumerate(lines):
    if b'"type":"round_intent"' in line:
        r = json.loads(line.split(b' ', 3)[3])
        r['boot_id'] = 'another-boot'
        body = json.dumps(r, separators=(',', ':')).encode()
        lines[i] = b'DTJ1 %d %08x ' % (len(body), zlib.crc32(body)) + body
open(path, 'wb').write(b'\n'.join(lines))
PY
"${tune[@]}" --journal "$j" --report "$WORK/reboot.json" >/dev/null 2>"$WORK/reboot.err" || fail "run after the reboot exited $?"
expect_eq "$(count "$j" '.type=="round_intent"')" 1 "rounds started across the reboot"
jq -e '(.confirmation_skipped | test("machine restarted")) and .winner.confirmed == false' "$WORK/reboot.json" >/dev/null ||
  fail "a round in flight at a reboot is not skipped: $(jq -c .confirmation_skipped "$WORK/reboot.json")"
echo "ok: 6 kills ($in_flight inside the round), winner $reference; a round killed twice or at a reboot skipped"
