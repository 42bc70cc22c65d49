#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lab (7d): power cut during a trial. Boot 1 tunes the ata_piix disk with the journal on a data disk
# and QEMU is killed (SIGKILL) while a trial is in flight; boot 2, on the same disks, tunes again:
# the original settings come back from the journal, the trial is quarantined as crashed, the run completes.
source "$(dirname "$0")/lib.bash"

# One setting, so that every trial applies its own read_ahead_kb value and a sampler can tell them apart;
# trials of 4 one-second samples, so that the kill lands well inside one.
# --max-trials 4: the crashed trial and three more (short; a second boot of every value adds 70 s).
TUNE_ARGS="--only read_ahead_kb --strategy one-at-a-time --duration 1 --repeats 3 --max-repeats 3 --max-trials 4"
for phase in cut resume; do
  { echo "PHASE=$phase TUNE_ARGS=\"$TUNE_ARGS\""; cat "$LAB_DIR/guest/snap.sh" "$LAB_DIR/guest/power-cut.sh"; } >"$WORK/$phase.sh"
done
lab=(--disk-dir "$WORK/disks" --data-disk "$WORK/disks/data.img")

OUT="$WORK/boot1"
run_lab "${lab[@]}" --power-cut-on POWER-CUT-NOW --timeout 240 --script "$WORK/cut.sh"
OUT="$WORK/boot2"
run_lab "${lab[@]}" --timeout 300 --script "$WORK/resume.sh"

jq_true() { jq -e "$@" >/dev/null; }
# records FILE: the journal's records (DTJ1 <length> <crc32> <json> lines) as one JSON array.
records() { sed -n 's/^.*DTJ1 [0-9]* [0-9a-f]* //p' "$1" | jq -s -c .; }
cut_intent=$(records "$WORK/boot1/power-cut" | jq -c '.[0]')
in_flight=$(jq -c .settings <<<"$cut_intent")
after_cut=$(records "$OUT/journal-after-cut")
r="$OUT/report.json"
boot1=$(cat "$OUT/boot-id-1") boot2=$(cat "$OUT/boot-id-2")
echo "power cut during: $in_flight (boot $boot1); second boot $boot2"
echo "== resumed tune (exit $(cat "$OUT/tune.rc")):"; cat "$OUT/tune.err" "$OUT/tune.out"

check "the power cut landed in a trial: the journal ends with its intent, no result" same last \
  "$(jq -c '.[-1] | [.type, .settings]' <<<"$after_cut")" "[\"intent\",$in_flight]"
check "the trial in flight was not the baseline (its result was journaled before)" jq_true \
  'any(.[]; .type == "result" and .baseline)' <<<"$after_cut"
check "the second boot has another boot id" test "$boot1" != "$boot2"
check "the intent carries the first boot's id" same boot "$(jq -r .boot_id <<<"$cut_intent")" "$boot1"
check "the power cut lost the settings (booted != before), so the restore is visible" \
  test "$(cat "$OUT/booted.txt")" != "$(cat "$OUT/before.txt")"
check "disktune restored the original settings from the journal" \
  grep -q "restored the original settings recorded in /data/sda.journal" "$OUT/tune.err"
check "disktune resumed with one trial in flight" grep -q "; 1 trial in flight when it stopped" "$OUT/tune.err"

# 6 (too noisy: TCG timings under a loaded host) ends the run as completely as 0 does.
check "tune exit 0 or 6" same rc "$(sed 's/^6$/0/' "$OUT/tune.rc")" 0
check "report: completed (or too noisy) and restored" same completed \
  "$(jq -c '[.completed or .too_noisy, .restored]' "$r")" '[true,true]'
check "the trial in flight is the one crashed trial, quarantined for the reboot" same crashed \
  "$(jq -c '[.trials[] | select(.status == "crashed") | .settings]' "$r")" "[$in_flight]"
check "its detail names the restart" jq_true 'any(.trials[]; .status == "crashed" and (.detail | test("boot id")))' "$r"
check "it is not the winner" jq_true --argjson x "$in_flight" '.winner.settings != $x' "$r"
check "it is not confirmed either" jq_true --argjson x "$in_flight" \
  '[.confirmation.results[]?.settings] | index([$x]) == null' "$r"
check "other trials ran and completed" jq_true '[.trials[] | select(.status == "ok")] | length >= 2' "$r"

# The queue sampled every 0.1 s during the second run ("read_ahead_kb max_sectors_kb" lines). Trials
# apply only their changes (read_ahead_kb) to the original settings, so while a trial's value is in
# effect max_sectors_kb shows whether the original settings were put back before the trials.
original=$(jq -r '.baseline.settings | "\(.read_ahead_kb) \(.max_sectors_kb)"' "$r")
booted=$(awk '$1 == "read_ahead_kb" { ra = $2 } $1 == "max_sectors_kb" { ms = $2 } END { print ra, ms }' "$OUT/booted.txt")
during=$(awk -v o="${original% *}" -v b="${booted% *}" '$1 != o && $1 != b' "$OUT/queue-seen.txt" | sort -u | tr '\n' ';')
x_ra=$(jq -r .read_ahead_kb <<<"$in_flight")
echo "original: $original, booted: $booted; sampled during trials: $during (in flight at the power cut: $x_ra)"
check "the sampler saw trials' read_ahead_kb values" test -n "$during"
check "the original max_sectors_kb differs from the boot's" test "${original#* }" != "${booted#* }"
check "during every trial max_sectors_kb was the original (restored from the journal first)" same ms \
  "$(awk -v o="${original#* }" '$2 != o' <<<"${during//;/$'\n'}")" ""
check "the in-flight value differs from the boot's, so the sampler can tell" test "$x_ra" != "${booted% *}"
check "the crashed value $x_ra was never applied again" same never "$(awk -v x="$x_ra" '$1 == x' "$OUT/queue-seen.txt")" ""

check "the journal ends with an end record: restored, second boot" same end \
  "$(records "$OUT/journal-final" | jq -c '.[-1] | [.type, .restored, .boot_id]')" "[\"end\",true,\"$boot2\"]"
check "every setting (hdparm, sysfs) as before the first run" same settings "$(diff "$OUT/before.txt" "$OUT/after.txt")" ""
finish
