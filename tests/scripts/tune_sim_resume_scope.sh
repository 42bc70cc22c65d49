#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A resume keeps the settings the interrupted run may change: Ctrl-C a simulated tune run with
# --safe-only (and another with --only) after its second trial; a resume without them keeps
# them (says so) and tries no setting outside them (before, it tried the risky ATA settings the
# first run excluded); a resume with another --only is refused, naming both.
source "$(dirname "$0")/lib.bash"

results() { [ -e "$1" ] || { echo 0; return; }; cut -d' ' -f4- "$1" | jq -c -R 'fromjson? | select(.type == "result" and .baseline == false)' | wc -l; }

# interrupt JOURNAL OPTIONS...: a 30 s-sample simulated tune, stopped by SIGINT after 2 trials.
interrupt() {
  local j=$1
  shift
  "$DISKTUNE" tune sim: --seed 5 --duration 30 --max-trials 12 --journal "$j" "$@" >/dev/null 2>"$WORK/err0" &
  local pid=$!
  for _ in $(seq 600); do (($(results "$j") >= 2)) && break; sleep 0.1; done
  kill -INT "$pid"
  set +e; wait "$pid"; local code=$?; set -e
  expect_eq "$code" 1 "the interrupted run's exit code"
  (($(results "$j") < 12)) || fail "the run completed before the signal: nothing to resume"
}

# The settings any trial of the report `$1` changed from the baseline's (hdparm and sysfs names),
# one per line; fails when the report holds no trial (the check would prove nothing).
changed() {
  (($(jq '.trials | length' "$1") > 0)) || fail "$1 holds no trial"
  jq -r '.baseline.settings as $b | .trials[] | .settings | to_entries[] | select($b[.key] != .value) | .key' "$1" | sort -u
}

j="$WORK/safe.journal"
interrupt "$j" --safe-only
"$DISKTUNE" tune sim: --seed 5 --duration 30 --max-trials 12 --journal "$j" --report "$WORK/safe.json" >/dev/null 2>"$WORK/err1" ||
  fail "the resume exited $? ($(tail -2 "$WORK/err1"))"
grep -qF "kept from the interrupted run: --safe-only (the settings it may change)" "$WORK/err1" ||
  fail "the resume does not say it kept --safe-only: $(grep -m3 'resum\|kept' "$WORK/err1")"
risky=$(changed "$WORK/safe.json" | grep -xE 'multcount|io_support|unmaskirq|using_dma|xfermode' || true)
[ -z "$risky" ] || fail "the resume of a --safe-only run tried risky settings: $risky"
expect_eq "$(jq -r .options.safe_only "$WORK/safe.json")" true "the report's safe_only"

j="$WORK/only.journal"
interrupt "$j" --only readahead,multcount
code=0
"$DISKTUNE" tune sim: --seed 5 --duration 30 --max-trials 12 --journal "$j" --only readahead >/dev/null 2>"$WORK/err2" || code=$?
expect_eq "$code" 2 "a resume with another --only"
grep -qF -- "--only readahead,multcount (journal) vs readahead (command line)" "$WORK/err2" ||
  fail "the refusal names no values: $(tail -2 "$WORK/err2")"
"$DISKTUNE" tune sim: --seed 5 --duration 30 --max-trials 12 --journal "$j" --report "$WORK/only.json" >/dev/null 2>"$WORK/err3" ||
  fail "the resume exited $? ($(tail -2 "$WORK/err3"))"
grep -qF "kept from the interrupted run: --only readahead,multcount" "$WORK/err3" || fail "the resume does not say it kept --only"
others=$(changed "$WORK/only.json" | grep -vxE 'readahead|multcount' || true)
[ -z "$others" ] || fail "the resume of an --only run changed other settings: $others"
echo ok
