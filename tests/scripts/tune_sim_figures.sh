#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One figure per quantity: on SIMULATED tunes, the winner's and the baseline's
# figures and the speedup agree in the JSON report, the table's summary line, the table row it
# quotes and the snippet header; keeping the baseline has speedup 1.
source "$(dirname "$0")/lib.bash"

fmt() { printf '%.2f' "$1"; }

# check_run NAME: $WORK/NAME.json, NAME.out (table on stdout) and NAME.sh (boot.local).
check_run() {
  local r="$WORK/$1.json" out="$WORK/$1.out" snippet="$WORK/$1.sh"
  jq -e '.confirmation != null and .winner.confirmed' "$r" >/dev/null || fail "$1: no confirmation round (precondition)"
  expect_eq "$(jq -r .winner.figures_from "$r")" "confirmation round" "$1: winner.figures_from"
  local base median speedup keep
  base=$(jq -r '.confirmation.results[0].median' "$r")
  keep=$(jq -r .winner.keep_baseline "$r")
  median=$(jq -r .winner.median "$r")
  speedup=$(jq -r .winner.speedup "$r")
  expect_eq "$(jq -r .winner.baseline_median "$r")" "$base" "$1: winner.baseline_median vs the round's baseline"
  if [ "$keep" = true ]; then
    expect_eq "$speedup" 1 "$1: speedup of keeping the baseline"
    expect_eq "$median" "$base" "$1: kept baseline's median vs the round's baseline"
  else
    expect_eq "$median" "$(jq -r '.winner.trial_id as $id | .confirmation.results[] | select(.id == $id) | .median' "$r")" \
      "$1: winner median vs its confirmation result"
    jq -e '(.winner.speedup - .winner.median / .winner.baseline_median) | fabs < 1e-9' "$r" >/dev/null ||
      fail "$1: speedup $speedup is not median / baseline"
  fi
  # The table's confirmation rows: the marked one is the answer, "base" the baseline.
  local rows marked base_row
  rows=$(sed -n '/^confirmation round (/,/^\(winner\|keep the baseline\):/p' "$out")
  marked=$(grep -E '^ *\* ' <<<"$rows" | awk '{print $4}') || fail "$1: no marked confirmation row"
  base_row=$(grep -E '^ *(\* )?base ' <<<"$rows" | sed -E 's/^ *(\* )?base +ok +([0-9.]+).*/\2/')
  expect_eq "$(grep -cE '^ *\* ' "$out")" 1 "$1: rows marked in the table"
  expect_eq "$base_row" "$(fmt "$base")" "$1: confirmation base row"
  if [ "$keep" = true ]; then
    expect_eq "$marked" "$(fmt "$base")" "$1: marked row (the baseline)"
    grep -qxF "keep the baseline: no configuration was significantly faster than $(fmt "$base") MB/s (confirmation round)" "$out" ||
      fail "$1: summary line: $(tail -1 "$out")"
    grep -qF "# baseline: $(fmt "$base") MB/s" "$snippet" || fail "$1: snippet baseline: $(grep '^# baseline' "$snippet")"
  else
    expect_eq "$marked" "$(fmt "$median")" "$1: marked row"
    grep -qE "^winner: .*: $(fmt "$median") MB/s, $(fmt "$speedup")x baseline $(fmt "$base") MB/s \(confirmation round\)$" "$out" ||
      fail "$1: summary line: $(grep '^winner' "$out")"
    grep -qF "# baseline: $(fmt "$base") MB/s" "$snippet" || fail "$1: snippet baseline: $(grep '^# baseline' "$snippet")"
    grep -qE "^# winner: +$(fmt "$median") MB/s .*, $(fmt "$speedup")x the baseline" "$snippet" ||
      fail "$1: snippet winner: $(grep '^# winner' "$snippet")"
  fi
}

# A winner decided in the confirmation round (the seed drive's multcount ladder).
"$DISKTUNE" tune --journal "$WORK/j1" --report "$WORK/win.json" --boot-local "$WORK/win.sh" --max-trials 6 \
  >"$WORK/win.out" 2>"$WORK/win.err" || fail "tune exited $? ($(tail -3 "$WORK/win.err"))"
check_run win
# Keeping the baseline after a confirmation round: readahead's 3 % within 3 % noise (seed 4
# sends a finalist to the round, which does not confirm it).
echo '{"noise_pct": 3}' >"$WORK/noisy.json"
"$DISKTUNE" tune --journal "$WORK/j2" --report "$WORK/keep.json" --boot-local "$WORK/keep.sh" --sim-profile "$WORK/noisy.json" \
  --seed 4 --only readahead --max-trials 4 >"$WORK/keep.out" 2>"$WORK/keep.err" ||
  fail "tune exited $? ($(tail -3 "$WORK/keep.err"))"
jq -e .winner.keep_baseline "$WORK/keep.json" >/dev/null || fail "keep: the winner is not the baseline (precondition)"
check_run keep
echo "ok: winner $(jq .winner.speedup "$WORK/win.json")x, kept baseline speedup $(jq .winner.speedup "$WORK/keep.json")"
