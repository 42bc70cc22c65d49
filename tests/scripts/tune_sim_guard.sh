#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tune --objective A,B on the simulated drive: every trial has both figures, the report's
# Pareto set is the one of its figures, and the winner respects the guard (--tolerance 0 and 5).
source "$(dirname "$0")/lib.bash"

for tolerance in 0 5; do
  report=$WORK/r$tolerance.json
  "$DISKTUNE" tune sim: --objective seq-read,rand-read-iops --max-trials 6 --tolerance "$tolerance" \
    --report "$report" --journal "$WORK/j$tolerance" >"$WORK/out" 2>&1 || fail "tune exited $?: $(tail -3 "$WORK/out")"
  expect_eq "$(jq '.guard_objective.name' "$report")" '"rand-read-iops"' "guard objective"
  expect_eq "$(jq '[.trials[] | select(.status == "ok") | select(.figure == null or .guard_figure == null)] | length' "$report")" 0 \
    "ok trials without both figures"
  expect_eq "$(jq '.baseline.guard_figure.unit' "$report")" '"IOPS"' "baseline guard unit"
  # The Pareto set recomputed from the reported scores.
  pareto=$(jq -c '[.baseline + {id: 0, status: "ok"}] + [.trials[] | select(.status == "ok")]
    | map({id, a: .median, b: .guard.median}) as $all
    | [$all[] | . as $t | select([$all[] | select(.a >= $t.a and .b >= $t.b and (.a > $t.a or .b > $t.b))] | length == 0) | .id]' "$report")
  expect_eq "$(jq -c '.pareto' "$report")" "$pareto" "pareto set (tolerance $tolerance)"
  # Every ok trial below (1 - tolerance) x the baseline's guard score is excluded, with a note.
  excluded=$(jq -c --argjson tol "$tolerance" '.baseline.guard.median as $b
    | [.trials[] | select(.status == "ok" and .guard.median < (1 - $tol / 100) * $b) | .id]' "$report")
  expect_eq "$(jq -c '.guard_excluded' "$report")" "$excluded" "guard_excluded (tolerance $tolerance)"
  expect_eq "$(jq --argjson x "$excluded" '[.trials[] | select(.id as $i | $x | index($i)) | select(.guard_note == null)] | length' "$report")" 0 \
    "excluded trials without a guard note"
  winner=$(jq '.winner.trial_id' "$report")
  expect_eq "$(jq --argjson w "$winner" 'index($w)' <<<"$excluded")" null "winner $winner fails the guard"
  [ "$tolerance" = 0 ] && [ "$excluded" = "[]" ] && fail "tolerance 0 excluded nothing: the guard was not exercised"
done
echo ok
