#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The confirmation round says what it is doing, one progress line per unit
# (which contender, which round of how many, its figure), in the search's style, on the same
# stream as the search's trial lines. On the simulated seed drive (bounded: --max-trials 8):
# every (round, contender) unit the report holds has exactly one line, with the report's figure.
source "$(dirname "$0")/lib.bash"

"$DISKTUNE" tune --max-trials 8 --journal "$WORK/j" --report "$WORK/r.json" >"$WORK/out.txt" 2>"$WORK/err.txt" ||
  fail "tune exited $? ($(tail -3 "$WORK/err.txt"))"
r="$WORK/r.json"
jq -e '.confirmation != null and (.confirmation.results | length) >= 2' "$r" >/dev/null ||
  fail "no confirmation round with finalists to check: $(jq -c .confirmation "$r")"
grep -q '\[SIMULATED\] trial ' "$WORK/err.txt" || fail "the search's trial lines are not on stderr"
# The baseline is announced before it is measured (minutes on a real disk, silent before).
head -3 "$WORK/err.txt" | grep -q "^disktune: measuring the baseline (the settings as found): 3 trials of 3-10 samples of 3 simulated s each" ||
  fail "the baseline is not announced first: $(head -3 "$WORK/err.txt")"
# Off a terminal each trial line is followed by the time left, the baseline's time included.
grep -A1 '\[SIMULATED\] trial 1: ' "$WORK/err.txt" | grep -q "^  trial 1 of 8, [0-9].* simulated, about " ||
  fail "no progress line after trial 1: $(grep -A1 'trial 1: ' "$WORK/err.txt")"
# Units are counted over the round's planned rounds (6: "round 4/6" in its second call), which
# may end after 3 (.confirmation.rounds) when one contender is far ahead.
rounds=$(jq -r .confirmation.rounds "$r")
planned=$(jq -r .options.confirm_rounds "$r")
[ "$planned" -ge "$rounds" ] || fail "rounds $rounds of $planned planned"
n=$(jq -r '.confirmation.results | length' "$r")
expected=0
for ((i = 0; i < n; i++)); do
  who=$([ "$i" = 0 ] && echo baseline || echo "finalist $i/$((n - 1))")
  for ((k = 1; k <= rounds; k++)); do
    sample=$(jq -r --argjson i "$i" --argjson k "$k" '.confirmation.results[$i].samples[$k - 1] // empty' "$r")
    [ -n "$sample" ] || continue  # a contender that failed is not measured again
    figure=$(printf '%.2f' "$sample")
    count=$(grep -cE "^  \[SIMULATED\] confirm round $k/$planned, $who: ok +$figure MB/s" "$WORK/err.txt" || true)
    expect_eq "$count" 1 "progress lines of round $k/$planned, $who ($figure MB/s)"
    expected=$((expected + 1))
  done
done
expect_eq "$(grep -c 'confirm round [0-9]*/' "$WORK/err.txt")" "$expected" "confirmation progress lines in all"
echo "ok: $expected progress lines for $rounds rounds of $n contenders"
