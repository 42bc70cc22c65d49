#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Noise and totals on the simulated drive: a drive too noisy for the
# 2 % gain ends with the too-noisy outcome (exit 6, "too_noisy": true with the figures); a
# normal one does not; measured_s covers the baseline, the search and the confirmation round,
# the time budget counts the baseline too, and wall_s is reported.
source "$(dirname "$0")/lib.bash"

echo '{"media_mib_s": 18.5, "noise_pct": 40, "cable_80wire": true}' >"$WORK/noisy.json"
set +e
"$DISKTUNE" tune sim: --sim-profile "$WORK/noisy.json" --only readahead --journal "$WORK/j1" --report "$WORK/r1.json" \
  --boot-local "$WORK/noisy.boot" >"$WORK/out1" 2>"$WORK/err1"
code=$?
set -e
expect_eq "$code" 6 "exit code of a run on a too-noisy drive ($(tail -1 "$WORK/err1"))"
expect_eq "$(jq -r .too_noisy "$WORK/r1.json")" true "too_noisy"
expect_eq "$(jq -r '.noise_floor_pct > 2' "$WORK/r1.json")" true "noise_floor_pct above the 2 % gain"
jq -r .noise_detail "$WORK/r1.json" | grep -q -- "--duration" || fail "noise_detail says nothing to do"
grep -q "taking 10 samples per trial" "$WORK/err1" || fail "the run did not act on the noise (more samples)"
# The figures are said when measured (at first, and again with more samples), not repeated.
[ "$(grep -c 'baseline trials, medians' "$WORK/err1")" -le 2 ] ||
  fail "the noise figures are repeated on stderr: $(grep 'baseline trials, medians' "$WORK/err1" | cut -c1-80)"
grep -q "^disktune: too noisy for an answer: no configuration beat the noise (noise [0-9.]* % with 10 samples per trial, above the 2 % smallest gain)$" "$WORK/err1" ||
  fail "the final too-noisy line: $(tail -1 "$WORK/err1")"
expect_eq "$(jq '[.trials[] | select(.status == "ok") | .samples | length] | min' "$WORK/r1.json")" 10 \
  "samples per trial once the noise was found too large"
grep -q "^# Too noisy for an answer (.*noise [0-9.]* %.*): no configuration beat the noise; no settings are recommended.$" "$WORK/out1" ||
  fail "the snippet looks like a measured answer: $(grep "^# " "$WORK/out1" | head -12)"
! grep -q "stopped before it completed" "$WORK/out1" || fail "a too-noisy run, which finished, reads as stopped"
# Nowhere (table, snippet header) may a too-noisy run read as the measured "keep the baseline".
if grep -qi "keep the baseline" "$WORK/out1"; then fail "a too-noisy run says: $(grep -i 'keep the baseline' "$WORK/out1" | head -1)"; fi
grep -q "^too noisy for an answer" "$WORK/out1" || fail "the table's summary does not say too noisy"
# No --boot-local file without an answer, and the output says so, not "did not complete"
# (a full "boot.local:" block on stdout, the file left as it was, would read as an answer).
[ ! -e "$WORK/noisy.boot" ] || fail "a too-noisy run wrote --boot-local"
grep -q "^boot.local (no file is written: no answer):$" "$WORK/out1" || fail "the snippet block's title: $(grep '^boot.local' "$WORK/out1")"
grep -q "^disktune: too noisy for an answer: --boot-local $WORK/noisy.boot left as it was$" "$WORK/err1" ||
  fail "the --boot-local line: $(grep -- '--boot-local' "$WORK/err1")"

"$DISKTUNE" tune sim: --journal "$WORK/j2" --report "$WORK/r2.json" >/dev/null 2>"$WORK/err2" ||
  fail "a normal simulated run exited $? ($(tail -1 "$WORK/err2"))"
expect_eq "$(jq -r .too_noisy "$WORK/r2.json")" false "too_noisy of a normal run"
# measured_s: everything measured. The baseline's three trials are not in .trials; each is at
# least a warm-up of a third of --duration (1 s) and --repeats 3 samples of 3 s (30 s for the
# three, less 5 % for rounding).
jq -e '.measured_s > ([.trials[].measured_s] | add) + ([.confirmation.results[].measured_s] | add) + 0.95 * 3 * (1 + 3 * 3)' \
  "$WORK/r2.json" >/dev/null || fail "measured_s $(jq .measured_s "$WORK/r2.json") leaves out the baseline or the confirmation"
jq -e '.wall_s > 0 and .wall_s < 600' "$WORK/r2.json" >/dev/null || fail "wall_s $(jq .wall_s "$WORK/r2.json")"

# A budget of 300 s: the baseline and its noise repeats (about 100 s here) count, and the
# confirmation round fits in what is left (the last trial may overrun it).
"$DISKTUNE" tune sim: --time-budget 300 --journal "$WORK/j3" --report "$WORK/r3.json" >/dev/null 2>"$WORK/err3" ||
  fail "budgeted run exited $? ($(tail -1 "$WORK/err3"))"
jq -e '.measured_s < 300 + ([.trials[].measured_s] | max)' "$WORK/r3.json" >/dev/null ||
  fail "measured_s $(jq .measured_s "$WORK/r3.json") overran the 300 s budget by more than a trial"
jq -e '([.trials[].measured_s] | add) < 300 - 90' "$WORK/r3.json" >/dev/null ||
  fail "the search alone spent the budget: the baseline was not counted"
echo ok
