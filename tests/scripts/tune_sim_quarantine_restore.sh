#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Quarantine survives `disktune restore`: kill -9 a simulated tune twice while
# its trial that hangs (unmaskirq=1) is in flight, so that trial is quarantined; `disktune
# restore`; then `disktune tune`: it resumes the journal and never applies that value again;
# nor does `disktune tune --fresh` with other options (the quarantine is kept).
source "$(dirname "$0")/lib.bash"

records() { cut -d' ' -f4- "$1" | jq -c -R 'fromjson? | select(.type != null)'; }
cat >"$WORK/profile.json" <<'JSON'
{"faults": [{"when": {"unmaskirq": 1}, "effect": "hang"}]}
JSON
j="$WORK/j"
tune=("$DISKTUNE" tune sim: --sim-profile "$WORK/profile.json" --trial-timeout 6 --stall-timeout 5 --duration 1 --journal "$j")

# kill_in_hang N: start a tune, kill -9 it once the hanging trial's N-th intent is the last record.
kill_in_hang() {
  "${tune[@]}" >/dev/null 2>"$WORK/err$1" &
  local pid=$! i
  for i in $(seq 600); do
    if [ -f "$j" ] && tail -1 "$j" | grep -q '"type":"intent".*"unmaskirq":1[,}]' &&
       [ "$(grep -c '"type":"intent".*"unmaskirq":1[,}]' "$j")" = "$1" ]; then
      kill -9 "$pid"
      wait "$pid" 2>/dev/null || true
      return
    fi
    kill -0 "$pid" 2>/dev/null || fail "run $1 ended before its hanging trial ($(tail -2 "$WORK/err$1"))"
    sleep 0.05
  done
  kill -9 "$pid"
  fail "run $1 never reached the hanging trial"
}
kill_in_hang 1
hung=$(records "$j" | tail -1 | jq -c .settings)
kill_in_hang 2
expect_eq "$(records "$j" | tail -1 | jq -c .settings)" "$hung" "trial in flight at the second kill"

"$DISKTUNE" restore sim: --sim-profile "$WORK/profile.json" --journal "$j" >/dev/null 2>"$WORK/restore.err" ||
  fail "restore failed: $(cat "$WORK/restore.err")"
restores=$(records "$j" | jq -s '[.[] | select(.type == "restore")] | length')
# --fresh with other options sets the journal aside and keeps its quarantine.
cp "$j" "$WORK/fresh.journal"
"${tune[@]/#$j/$WORK/fresh.journal}" --fresh --repeats 4 --report "$WORK/fresh.json" >/dev/null 2>"$WORK/fresh.err" ||
  fail "tune --fresh exited $? ($(tail -2 "$WORK/fresh.err"))"
expect_eq "$(records "$WORK/fresh.journal" | jq -s --argjson c "$hung" '[.[] | select(.type == "intent" and .settings == $c)] | length')" 0 \
  "intents of the quarantined configuration after --fresh"
jq -e --argjson c "$hung" '[.trials[] | select(.settings == $c) | .detail] | length == 1 and (.[0] | test("quarantined in the previous journal"))' \
  "$WORK/fresh.json" >/dev/null || fail "--fresh lost the quarantine"
"${tune[@]}" --report "$WORK/r.json" >/dev/null 2>"$WORK/err3" || fail "tune after restore exited $? ($(tail -2 "$WORK/err3"))"
grep -q resuming "$WORK/err3" || fail "the tune after restore did not resume the journal"
# Every intent after the restore record: the quarantined configuration is not among them.
after=$(records "$j" | jq -s --argjson c "$hung" --argjson n "$restores" \
  '[foreach .[] as $r (0; if $r.type == "restore" then . + 1 else . end; select(. >= $n and $n > 0) | $r)]
   | [.[] | select(.type == "intent" and .settings == $c)] | length')
expect_eq "$after" 0 "intents of the quarantined configuration after the restore"
expect_eq "$restores" 1 "restore records in the journal"
jq -e --argjson c "$hung" '[.trials[] | select(.settings == $c) | .status] == ["crashed"]' "$WORK/r.json" >/dev/null ||
  fail "the quarantined trial is not reported crashed: $(jq -c --argjson c "$hung" '[.trials[] | select(.settings == $c)]' "$WORK/r.json")"
expect_eq "$(jq -r .winner.settings.unmaskirq "$WORK/r.json")" 0 "winner unmaskirq"
records "$j" | jq -s -e 'last | .type == "end" and .restored' >/dev/null || fail "journal does not end restored"
echo "ok: $hung quarantined across a restore"
