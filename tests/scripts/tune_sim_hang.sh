#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance: a simulated unmaskirq=1 hang is recorded as "hang" and kept out of the winner.
source "$(dirname "$0")/lib.bash"

cat >"$WORK/profile.json" <<'JSON'
{"faults": [{"when": {"unmaskirq": 1}, "effect": "hang"}]}
JSON
"$DISKTUNE" tune sim: --sim-profile "$WORK/profile.json" --trial-timeout 2 --journal "$WORK/j" --report "$WORK/r.json" \
  >"$WORK/out.txt" 2>"$WORK/err.txt" || fail "tune exited $? ($(tail -3 "$WORK/err.txt"))"
r="$WORK/r.json"
hangs=$(jq '[.trials[] | select(.status == "hang")] | length' "$r")
[ "$hangs" -ge 1 ] || fail "no trial recorded as hang"
jq -e '[.trials[] | select(.status == "hang") | .settings.unmaskirq] | all(. == 1)' "$r" >/dev/null ||
  fail "a hang was recorded without unmaskirq=1"
expect_eq "$(jq -r .winner.settings.unmaskirq "$r")" 0 "winner unmaskirq"
# The hung value is not applied again in the run.
expect_eq "$hangs" 1 "number of hung trials"
echo ok
