#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A resume keeps the interrupted run's bounds: Ctrl-C a simulated tune run with --max-trials 4
# --time-budget and --noise-repeats 3 after its second trial; the output's last line names the
# command that resumes it; a resume with another --max-trials is refused; one without the
# options keeps them (says so) and measures at most 4 trials in all.
source "$(dirname "$0")/lib.bash"

j="$WORK/run.journal"
results() { [ -e "$j" ] || { echo 0; return; }; cut -d' ' -f4- "$j" | jq -c -R 'fromjson? | select(.type == "result" and .baseline == false)' | wc -l; }

# A 30 s simulated sample takes about half a second of real time: room to stop after trial 2.
"$DISKTUNE" tune sim: --seed 5 --duration 30 --max-trials 4 --time-budget 100000 --noise-repeats 3 --journal "$j" \
  >/dev/null 2>"$WORK/err1" &
pid=$!
for _ in $(seq 600); do (($(results) >= 2)) && break; sleep 0.1; done
kill -INT "$pid"
set +e; wait "$pid"; code=$?; set -e
expect_eq "$code" 1 "the interrupted run's exit code"
done_before=$(results)
((done_before < 4)) || fail "the run completed before the signal ($done_before trials): nothing to resume"
tail -1 "$WORK/err1" | grep -qF "kept: the next '$DISKTUNE tune sim: --seed 5 --duration 30 --max-trials 4 --time-budget 100000 --noise-repeats 3 --journal $j' resumes this run" ||
  fail "the last line does not say how to resume: $(tail -1 "$WORK/err1")"

code=0
"$DISKTUNE" tune sim: --seed 5 --duration 30 --max-trials 6 --journal "$j" >/dev/null 2>"$WORK/err2" || code=$?
expect_eq "$code" 2 "a resume with another --max-trials"
grep -qF -- "--max-trials 4 (journal) vs 6 (command line)" "$WORK/err2" || fail "the refusal names no values: $(tail -2 "$WORK/err2")"

"$DISKTUNE" tune sim: --seed 5 --duration 30 --journal "$j" --report "$WORK/r.json" >/dev/null 2>"$WORK/err3" ||
  fail "the resume exited $? ($(tail -2 "$WORK/err3"))"
grep -qF "kept from the interrupted run: --time-budget 100000 s (what it measured counts against it), --max-trials 4 (its trials count), --noise-repeats 3" "$WORK/err3" ||
  fail "the resume does not say what it kept: $(grep -m3 'resum\|kept' "$WORK/err3")"
trials=$(jq '.trials | length' "$WORK/r.json")
((trials <= 4)) || fail "the resume measured $trials trials in all: --max-trials 4 was not kept"
expect_eq "$(jq -r .options.max_trials "$WORK/r.json")" 4 "the report's --max-trials"
echo "ok: stopped after $done_before trials, resumed to $trials (--max-trials 4 kept)"
