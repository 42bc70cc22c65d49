#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance: `disktune evaluate` on a small subset (the seed drive, one seed) judges every
# strategy against the drive's true optimum (brute force over the noise-free model) and names
# the default strategy; exhaustive runs only when named; a fio objective (rand-read-iops) runs
# on the simulated drive's random-read model and the JSON names it.
source "$(dirname "$0")/lib.bash"

out="$WORK/evaluate.json"
"$DISKTUNE" evaluate --identify-dir "$TEST_DATA/identify" --drive-filter seed_ibm --seeds 1 --json \
  >"$out" 2>"$WORK/err.txt" || fail "evaluate exited $? ($(tail -3 "$WORK/err.txt"))"
grep -q SIMULATED "$WORK/err.txt" || fail "progress does not say the drives are simulated"
grep -q "^disktune: evaluating .* on 1 SIMULATED drive x 1 seed (1-1)$" "$WORK/err.txt" ||
  fail "the count line: $(grep evaluating "$WORK/err.txt")"
# Progress as the runs end (else nothing shows for minutes): 4 strategies, 4 runs.
grep -q "^disktune: evaluate: 2 of 4 runs done$" "$WORK/err.txt" || fail "no progress lines: $(cat "$WORK/err.txt")"
grep -q "^disktune: evaluate: 4 of 4 runs done$" "$WORK/err.txt" || fail "no line for the last run: $(cat "$WORK/err.txt")"
expect_eq "$(jq -r .simulated "$out")" true "simulated"
expect_eq "$(jq -r .drives "$out")" 1 "drives"
# The truth: the seed drive's legal space by brute force, its optimum above its baseline (PIO).
jq -e '.drive_truths[0] | .legal_count > 100 and .optimum_score > 1.5 * .baseline_score and (.optimum | test("using_dma=1"))' \
  "$out" >/dev/null || fail "no truth for the seed drive: $(jq -c .drive_truths "$out")"
default=$(jq -r .default_strategy "$out")
expect_eq "$(jq -r '[.strategies[].name] | join(",")' "$out")" "one-at-a-time,racing,coordinate-descent,random" \
  "strategies run without --strategies (exhaustive only when named)"
for name in one-at-a-time racing coordinate-descent random; do
  jq -e --arg n "$name" '.strategies[] | select(.name == $n) |
      ([.success_rate, .false_winners, .mean_regret_pct, .worst_regret_pct, .trial_fraction] | map(type == "number") | all)' \
    "$out" >/dev/null || fail "missing figures for $name: $(jq -c --arg n "$name" '.strategies[] | select(.name == $n)' "$out")"
done
# The default finds the true optimum (within 3 %) of the seed drive's space with at most 5 % of it.
jq -e --arg n "$default" '.strategies[] | select(.name == $n) | .success_rate == 1 and .false_winners == 0 and .trial_fraction <= 0.05' \
  "$out" >/dev/null || fail "default strategy $default: $(jq -c --arg n "$default" '.strategies[] | select(.name == $n)' "$out")"

# --strategies: only the named strategies run (exhaustive too when named); --seed is the first seed.
out2="$WORK/evaluate-cd.json"
"$DISKTUNE" evaluate --identify-dir "$TEST_DATA/identify" --drive-filter seed_ibm --seed 2 --seeds 1 \
  --strategies coordinate-descent --json >"$out2" 2>"$WORK/err2.txt" || fail "evaluate --strategies exited $?"
expect_eq "$(jq -r '[.strategies[].name] | join(",")' "$out2")" "coordinate-descent" "strategies run"
expect_eq "$(jq -r .first_seed "$out2")" 2 "first seed"
grep -q "x 1 seed (2-2)$" "$WORK/err2.txt" || fail "progress does not name the seeds: $(cat "$WORK/err2.txt")"
"$DISKTUNE" evaluate --strategies annealing 2>"$WORK/err3.txt" && fail "an unknown strategy was accepted"
grep -q "unknown strategy 'annealing'" "$WORK/err3.txt" || fail "no reason for the unknown strategy"

# --only: the space searches the named settings only (the others keep their value), as tune's.
out5="$WORK/evaluate-only.json"
DISKTUNE_EVALUATE_RUNS=1 "$DISKTUNE" evaluate --identify-dir "$TEST_DATA/identify" --drive-filter seed_ibm --seeds 1 \
  --only using_dma,unmaskirq --strategies exhaustive,coordinate-descent --json >"$out5" 2>"$WORK/err5.txt" ||
  fail "evaluate --only exited $? ($(tail -3 "$WORK/err5.txt"))"
grep -q "^exhaustive seed_ibm-djna-352500.hdparm-i.txt seed 1: 4 configurations, 3 trials" "$WORK/err5.txt" ||
  fail "--only using_dma,unmaskirq is not a space of 4 (3 search trials and the baseline): $(grep '^exhaustive' "$WORK/err5.txt")"
grep '^coordinate-descent ' "$WORK/err5.txt" | grep -Eq ', (baseline|[a-z_]+=[0-9]+( [a-z_]+=[0-9]+)?)$' ||
  fail "no coordinate-descent run: $(cat "$WORK/err5.txt")"
grep '^exhaustive ' "$WORK/err5.txt" | grep -Evq ', (baseline|(using_dma|unmaskirq)=1( (using_dma|unmaskirq)=1)?)$' &&
  fail "exhaustive changed a setting outside --only: $(grep '^exhaustive' "$WORK/err5.txt")"

# A fio objective on the simulated drive (its random-read model): the JSON names the objective
# and judges the strategy against the truth.
out4="$WORK/evaluate-iops.json"
"$DISKTUNE" evaluate --identify-dir "$TEST_DATA/identify" --drive-filter seed_ibm --seeds 1 \
  --objective rand-read-iops --strategies coordinate-descent --json >"$out4" 2>"$WORK/err4.txt" ||
  fail "evaluate --objective rand-read-iops exited $? ($(tail -3 "$WORK/err4.txt"))"
expect_eq "$(jq -r .objective "$out4")" rand-read-iops "objective"
expect_eq "$(jq -r .simulated "$out4")" true "simulated (rand-read-iops)"
jq -e '.strategies[] | select(.name == "coordinate-descent") | .runs == 1 and (.success_rate | type == "number")' \
  "$out4" >/dev/null || fail "no coordinate-descent figures for rand-read-iops: $(cat "$out4")"
echo "ok: default $default"
