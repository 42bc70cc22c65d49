#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kill -9 a simulated tune at 20 random points (and tear its last journal record); every
# resume completes, runs no completed trial twice, re-runs the in-flight trial once, and
# reaches the winner of an uninterrupted run with the same seed.
source "$(dirname "$0")/lib.bash"

# A kill before the run made its journal leaves none: no records.
records() { [ ! -e "$1" ] || cut -d' ' -f4- "$1" | jq -c -R 'fromjson? | select(.type != null)'; }
winner() { jq -c .winner.settings "$1"; }

"$DISKTUNE" tune --seed 7 --duration 1 --journal "$WORK/ref.journal" --report "$WORK/ref.json" >/dev/null 2>&1 ||
  fail "uninterrupted run failed"
reference=$(winner "$WORK/ref.json")

RANDOM=42
for i in $(seq 20); do
  j="$WORK/run$i.journal"
  "$DISKTUNE" tune --seed 7 --duration 1 --journal "$j" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(printf "%03d" $((RANDOM % 700)))"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # Every fourth kill also leaves a torn record, as a crash in the middle of a write would.
  ((i % 4 == 0)) && printf 'DTJ1 120 0badc0de {"type":"intent","boot_id":"x","sett' >>"$j"
  pending=$(records "$j" | jq -s -c '[.[] | select(.type=="intent") | .settings] - [.[] | select(.type=="result") | .settings]')

  "$DISKTUNE" tune --seed 7 --duration 1 --journal "$j" --report "$WORK/r$i.json" >"$WORK/out$i" 2>"$WORK/err$i" ||
    fail "resume $i exited $? ($(tail -2 "$WORK/err$i"))"
  expect_eq "$(winner "$WORK/r$i.json")" "$reference" "winner after kill $i"
  dupes=$(records "$j" | jq -s '[.[] | select(.type=="result" and .baseline==false) | .settings | tojson] | group_by(.) | map(select(length > 1)) | length')
  expect_eq "$dupes" 0 "trials run twice after kill $i"
  for config in $(echo "$pending" | jq -c '.[]'); do
    intents=$(records "$j" | jq -s --argjson c "$config" '[.[] | select(.type=="intent" and .settings==$c)] | length')
    expect_eq "$intents" 2 "attempts of the trial in flight at kill $i"
  done
  records "$j" | jq -s -e 'last | .type == "end" and .restored' >/dev/null || fail "journal $i does not end restored"
done
echo "ok: 20 kills, winner $reference"
