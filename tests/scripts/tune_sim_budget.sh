#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A budgeted run says it stopped on its budget; a closed output pipe does not kill a run; a
# budget the baseline spent ends the run closed, so the next tune starts over, not resumes it.
source "$(dirname "$0")/lib.bash"

"$DISKTUNE" tune sim: --max-trials 3 --journal "$WORK/j1" --report "$WORK/r1.json" >/dev/null 2>"$WORK/err1" ||
  fail "budgeted tune exited $? ($(tail -1 "$WORK/err1"))"
expect_eq "$(jq '.trials | length' "$WORK/r1.json")" 3 "trials under --max-trials 3"
expect_eq "$(jq -r .completed "$WORK/r1.json")" true "a budgeted run is complete"
jq -r .stop_reason "$WORK/r1.json" | grep -q "^search budget spent (--max-trials 3) after 3 trials" ||
  fail "stop_reason: $(jq -r .stop_reason "$WORK/r1.json")"
grep -q "search budget spent" "$WORK/err1" || fail "the log does not say the budget was spent"
# Said when the search ends, before the confirmation round (after it, it read as the round's end).
spent=$(grep -n "search budget spent" "$WORK/err1" | head -1 | cut -d: -f1)
round=$(grep -n "confirmation round" "$WORK/err1" | head -1 | cut -d: -f1)
[ -z "$round" ] || [ "$spent" -lt "$round" ] || fail "the budget's line ($spent) follows the round's ($round)"

# `| head -1` closes the pipe after the first line; disktune must still finish and close its
# journal, not die of SIGPIPE mid-run, and then say that its output was lost: exit 2, not 0.
set +e
"$DISKTUNE" tune sim: --max-trials 4 --journal "$WORK/j2" --report "$WORK/r2.json" 2>&1 | head -1 >/dev/null
code=${PIPESTATUS[0]}
set -e
expect_eq "$code" 2 "exit code of a tune whose output pipe was closed"
expect_eq "$(jq -r .completed "$WORK/r2.json")" true "report of the piped run completed"
grep -q '"type":"end"' "$WORK/j2" || fail "the piped run's journal has no end record"
# The simulated baseline measures about 31 s: a 20 s budget leaves no trial. A resume keeps the
# budget and would end the same way for ever, so the run is closed (an end record) and the
# next tune, with the budget the message names, starts over.
set +e
"$DISKTUNE" tune sim: --time-budget 20 --journal "$WORK/j3" --report "$WORK/r3.json" >/dev/null 2>"$WORK/err3"
code=$?
set -e
expect_eq "$code" 1 "exit code of a tune whose budget the baseline spent"
grep -q "no trial ran: .*the run is closed: the next tune starts over" "$WORK/err3" || fail "no-trial message: $(tail -1 "$WORK/err3")"
grep -q '"type":"end"' "$WORK/j3" || fail "the spent run's journal has no end record"
# The budget it names holds at least 10 trials (a trial at its most: the baseline's first,
# 3 samples, made "216 s", which held 4 trials of 33 s).
named=$(grep -o -- '--time-budget [0-9]* or more leaves room for at least 10 trials' "$WORK/err3" | cut -d' ' -f2)
[ -n "$named" ] || fail "no budget named: $(tail -1 "$WORK/err3")"
"$DISKTUNE" tune sim: --time-budget "$named" --journal "$WORK/j3" --report "$WORK/r4.json" >/dev/null 2>"$WORK/err4" ||
  fail "the tune after a spent budget exited $? ($(tail -2 "$WORK/err4"))"
trials=$(jq '.trials | length' "$WORK/r4.json")
[ "$trials" -ge 10 ] || fail "--time-budget $named, as named, ran $trials trials"
echo ok
