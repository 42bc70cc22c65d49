#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance: each simulated fault effect attached to using_dma=1 (the value the
# unfaulted winner needs for its ~4x speedup) gets the right trial status and never reaches the winner.
source "$(dirname "$0")/lib.bash"

# tune NAME [ARGS...]: a simulated tune with seed 1, its own journal and report; prints the exit code.
tune() {
  local name=$1
  shift
  set +e
  "$DISKTUNE" tune sim: --seed 1 --journal "$WORK/j-$name" --report "$WORK/r-$name.json" "$@" \
    >"$WORK/out-$name.txt" 2>"$WORK/err-$name.txt"
  echo $?
  set -e
}
# with_value REPORT: the trials whose configuration holds using_dma=1, as compact JSON lines.
with_value() { jq -c '.trials[] | select(.settings.using_dma == 1)' "$1"; }

# The premise: without faults the value is in the winner, so a fault that slipped through would show.
expect_eq "$(tune reference)" 0 "exit code without faults"
expect_eq "$(jq -r .winner.settings.using_dma "$WORK/r-reference.json")" 1 "using_dma of the unfaulted winner"

# effect -> expected status and a pattern its detail must match (README "How a trial is judged").
declare -A status=([hang]=hang [eio]=error [corrupt]=unstable [revert]=unstable [reject]=error
                   [unsupported]=unsupported [slow]=ok)
declare -A detail=([hang]='^trial hung: timed out' [eio]='^read error during measurement: .*simulated eio fault'
                   [corrupt]='CRC-32 mismatch' [revert]='^ineffective: using_dma reads back 0 instead of 1'
                   [reject]='^rejected by the device: .*simulated reject fault'
                   [unsupported]='simulated unsupported fault.*Inappropriate ioctl' [slow]='^$')

for effect in hang eio corrupt revert reject unsupported slow; do
  echo "{\"faults\": [{\"when\": {\"using_dma\": 1}, \"effect\": \"$effect\"}]}" >"$WORK/p-$effect.json"
  start=$(date +%s.%N)
  # A simulated trial takes well under a second of wall time: 2 s bounds each hang (the
  # default timeout, 10 s, elsewhere).
  timeout=()
  [ "$effect" = hang ] && timeout=(--trial-timeout 2)
  code=$(tune "$effect" --sim-profile "$WORK/p-$effect.json" "${timeout[@]}")
  r="$WORK/r-$effect.json"
  expect_eq "$code" 0 "exit code with a $effect fault ($(tail -2 "$WORK/err-$effect.txt"))"
  expect_eq "$(jq -r '.completed and .restored' "$r")" true "$effect: completed and restored"
  expect_eq "$(jq -r .device.simulated "$r")" true "$effect: device.simulated"

  hit=$(with_value "$r" | wc -l)
  [ "$hit" -ge 1 ] || fail "$effect: no trial tried using_dma=1"
  wrong=$(with_value "$r" | jq -c --arg s "${status[$effect]}" --arg d "${detail[$effect]}" \
    'select(.status != $s or (.detail | test($d) | not)) | {id, status, detail}')
  [ -z "$wrong" ] || fail "$effect: trials with using_dma=1 not '${status[$effect]}' /${detail[$effect]}/: $wrong"
  # Only the faulty value is blamed: every trial without it is ok.
  blamed=$(jq -c '.trials[] | select(.settings.using_dma != 1 and .status != "ok") | {id, status, detail}' "$r")
  [ -z "$blamed" ] || fail "$effect: trials without using_dma=1 failed: $blamed"
  expect_eq "$(jq -r .winner.settings.using_dma "$r")" 0 "$effect: using_dma of the winner"
  expect_eq "$(jq -r '[.confirmation.results[]?.settings.using_dma] | all(. == 0)' "$r")" true \
    "$effect: no confirmation finalist holds using_dma=1"

  if [ "$effect" = hang ]; then
    # using_dma and xfermode are one coupled group (strategies/evaluator.hpp): each DMA pair
    # hangs once and is never applied again (README: a hung value is not applied again).
    again=$(jq -c '[.trials[] | {id, status, pair: [.settings.using_dma, .settings.xfermode]}] as $t
      | [$t[] | select(.status == "hang") as $h | $t[] | select(.id > $h.id and .pair == $h.pair) | .id]' "$r")
    expect_eq "$again" "[]" "hang: trials re-applying a hung using_dma/xfermode pair"
  fi
  if [ "$effect" = slow ]; then
    # Every configuration with the value measured in both runs is at most 0.35x its unfaulted
    # rate (the simulated drive's reads take 4x as long).
    ratios=$(jq -n -c --slurpfile f "$r" --slurpfile u "$WORK/r-reference.json" '
      [$f[0].trials[] | select(.settings.using_dma == 1) as $t
       | $u[0].trials[] | select(.settings == $t.settings) | $t.median / .median]')
    expect_eq "$(jq 'length > 0' <<<"$ratios")" true "slow: configurations measured in both runs"
    jq -e 'all(. < 0.35)' <<<"$ratios" >/dev/null || fail "slow: faulted/unfaulted rates $ratios not all < 0.35"
  fi
  echo "$effect: $hit trials with using_dma=1 all ${status[$effect]}, winner $(jq -c .winner.changes "$r")," \
    "$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)") s"
done
echo ok
