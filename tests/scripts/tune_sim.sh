#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Acceptance: `disktune tune` on the built-in simulated seed drive finds DMA + UDMA, >= 3.5x.
source "$(dirname "$0")/lib.bash"

start=$(date +%s)
"$DISKTUNE" tune --journal "$WORK/j" --report "$WORK/report.json" --boot-local "$WORK/boot.local" >"$WORK/out.txt" 2>"$WORK/err.txt" ||
  fail "tune exited $? ($(tail -3 "$WORK/err.txt"))"
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -le 30 ] || fail "tune took ${elapsed}s (limit 30s)"

grep -q SIMULATED "$WORK/out.txt" || fail "stdout does not say the drive is simulated"
grep -q SIMULATED "$WORK/err.txt" || fail "progress does not say the drive is simulated"
grep -Eq '^hdparm .*-X6[4-6].*-d1' "$WORK/out.txt" || fail "no boot.local hdparm line with a UDMA mode and -d1 on stdout"
bash -n "$WORK/boot.local" || fail "boot.local does not pass bash -n"

r="$WORK/report.json"
expect_eq "$(jq -r .device.simulated "$r")" true "device.simulated"
expect_eq "$(jq -r .winner.settings.using_dma "$r")" 1 "winner using_dma"
jq -e '.winner.settings.xfermode | startswith("udma")' "$r" >/dev/null || fail "winner xfermode is not UDMA"
jq -e '.winner.speedup >= 3.5' "$r" >/dev/null || fail "speedup $(jq .winner.speedup "$r") < 3.5"
# The baseline reproduces the seed walkthrough's 3.83 MB/s within 10 %.
jq -e '.baseline.median > 3.45 and .baseline.median < 4.21' "$r" >/dev/null ||
  fail "baseline $(jq .baseline.median "$r") MB/s is not ~3.83"
expect_eq "$(jq -r .restored "$r")" true "restored"
# Each baseline trial runs in a child of its own: their medians are three draws of the noise,
# not one draw repeated (a child's opens counted in its own copy of memory: noise floor 0).
expect_eq "$(jq '.baseline.aa_samples | unique | length' "$r")" 3 "distinct baseline trial medians"
jq -e '.noise_floor_pct > 0' "$r" >/dev/null || fail "the simulated noise floor is $(jq .noise_floor_pct "$r")"
# A confirmation call after the first measures new samples: no contender's samples repeat.
jq -e '[.confirmation.results[] | (.samples | length) == (.samples | unique | length)] | all' "$r" >/dev/null ||
  fail "confirmation samples repeat: $(jq -c '[.confirmation.results[].samples]' "$r")"
echo "ok: speedup $(jq .winner.speedup "$r") in ${elapsed}s"

# Two simulated drives in one run (docs/multi-drive.md): a worker each, both reports, a summary.
cap="$TEST_DATA/identify/hdparm-I_maxtor-4a250j0_cur-chs-65535x1_mail-wrapped.txt"
mkdir "$WORK/multi"
"$DISKTUNE" tune sim: "sim:$cap" --max-trials 3 --report "$WORK/multi" --journal "$WORK/multi/{drive}.journal" \
  --summary "$WORK/multi/summary.json" >"$WORK/multi.out" 2>"$WORK/multi.err" || fail "two drives: exit $? ($(tail -3 "$WORK/multi.err"))"
s=$WORK/multi/summary.json
expect_eq "$(jq -c '[.exit_code, [.drives[] | .key, .exit_code, (.winner | type)]]' "$s")" \
  '[0,["sim",0,"object","sim-hdparm-I_maxtor-4a250j0_cur-chs-65535x1_mail-wrapped",0,"object"]]' "summary of two drives"
for key in sim sim-hdparm-I_maxtor-4a250j0_cur-chs-65535x1_mail-wrapped; do
  expect_eq "$(jq -r .completed "$WORK/multi/$key.json")" true "$key's report"
  grep -q "^$key " "$WORK/multi.out" || fail "the table lacks $key: $(cat "$WORK/multi.out")"
done
expect_eq "$(jq -c '[.drives[].simulated]' "$s")" '[true,true]' "simulated drives in the summary"
grep -q "^SIMULATED drives (figures from the simulator, no hardware): sim, sim-hdparm-I_maxtor" "$WORK/multi.out" ||
  fail "the summary table does not say the drives are simulated: $(cat "$WORK/multi.out")"
grep -Eq "^sim +1 +0 +[^ ]+ +[0-9]+\.[0-9]{2}x " "$WORK/multi.out" || fail "speedup not as the winner line's (3.83x): $(cat "$WORK/multi.out")"

# One drive's error stops no other: a capture that is no identify data fails its worker (2),
# the other drive completes with its winner, the machine exit code is the worst (2).
echo "no identify data here" >"$WORK/bad.txt"
mkdir "$WORK/fail"
code=0
"$DISKTUNE" tune sim: "sim:$WORK/bad.txt" --max-trials 3 --report "$WORK/fail" --journal "$WORK/fail/{drive}.journal" \
  --summary "$WORK/fail/summary.json" >"$WORK/fail.out" 2>"$WORK/fail.err" || code=$?
expect_eq "$code" 2 "exit code with one drive failing"
expect_eq "$(jq -c '[.exit_code, [.drives[] | .exit_code, (.winner | type)]]' "$WORK/fail/summary.json")" \
  '[2,[0,"object",2,"null"]]' "summary with one drive failing"
jq -e '.drives[1].outcome | test("no identify data")' "$WORK/fail/summary.json" >/dev/null ||
  fail "the failed drive's outcome lacks its reason: $(jq -c '.drives[1]' "$WORK/fail/summary.json")"
