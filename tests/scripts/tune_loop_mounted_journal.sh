#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A disk in use, tuned in place. An ext4 file system made on a loop device
# and mounted read-write holds disktune's own journal (--journal under the mount point), so
# the file system writes to the device under test while it is tuned: tune --allow-mounted
# --only read_ahead_kb completes with no trial blamed for those writes (the data checksum is
# off; the evidence left counts no write), and plan --allow-mounted lists the knobs refused
# on a disk in use (on the simulated seed drive, whose ATA knobs are otherwise searched: a
# loop device has none).
source "$(dirname "$0")/lib.bash"
trap 'exit 143' INT TERM HUP  # a signal runs on_exit too: unmount, then detach

require_loop
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
truncate -s 64M "$WORK/disk.img"
attach_loop "$WORK/disk.img"
mkfs.ext4 -q -F "$dev" || skip "mkfs.ext4 failed on $dev"
mkdir "$WORK/mnt"
mount "$dev" "$WORK/mnt" || skip "cannot mount $dev"
cleanup_steps=("umount '$WORK/mnt'" "${cleanup_steps[@]}")  # unmount before detaching
name=$(basename "$dev")
written() { awk '{ print $7 }' "/sys/block/$name/stat"; }  # sectors written
before=$(queue_snapshot "$dev")
sync
writes_before=$(written)

"$DISKTUNE" tune "$dev" --allow-mounted --only read_ahead_kb,multcount --max-trials 1 \
  --journal "$WORK/mnt/j" >"$WORK/refused.txt" 2>&1 && fail "--only multcount was accepted on a disk in use"
code=$?
expect_eq "$code" 2 "exit code of --only multcount with --allow-mounted"
grep -q -- '--only multcount with --allow-mounted: refused on a disk in use: .*EIO' "$WORK/refused.txt" ||
  fail "no reason given: $(cat "$WORK/refused.txt")"
[ ! -e "$WORK/mnt/j" ] || fail "the refused run wrote a journal"

tune_completed "$DISKTUNE" tune "$dev" --allow-mounted --only read_ahead_kb --max-trials 4 --duration 0.2 \
  --repeats 2 --max-repeats 2 --report "$WORK/r.json" --journal "$WORK/mnt/disktune.journal" \
  >"$WORK/out.txt" 2>"$WORK/err.txt" || fail "tune did not complete ($(tail -5 "$WORK/err.txt"))"
sync
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the run"
[ -s "$WORK/mnt/disktune.journal" ] || fail "the journal is not on the mounted file system"
# Not vacuous: the file system did write to the device under test during the run.
[ "$(written)" -gt "$writes_before" ] || fail "nothing was written to $dev during the run"
trials=$(jq '.trials | length' "$WORK/r.json")
[ "$trials" -ge 2 ] || fail "only $trials trials measured"
jq -e '[.trials[] | select(.status != "ok")] | length == 0' "$WORK/r.json" >/dev/null ||
  fail "a trial was blamed: $(jq -c '[.trials[] | select(.status != "ok") | {status, detail}]' "$WORK/r.json")"
jq -e '.integrity_note | contains("data checksum check off") and contains("none of them sees")' \
  "$WORK/r.json" >/dev/null || fail "report integrity_note: $(jq -c .integrity_note "$WORK/r.json")"

# plan --allow-mounted: the loop device has no ATA knob to refuse (unsupported), the
# simulated seed drive has all five, searched without --allow-mounted and refused with it.
"$DISKTUNE" plan "$dev" --allow-mounted --json >"$WORK/plan-loop.json" || fail "plan of $dev failed"
jq -e '.space.unsupported | map(.setting) | index("multcount") != null' "$WORK/plan-loop.json" >/dev/null ||
  fail "plan of $dev does not list multcount as not searched"
"$DISKTUNE" plan sim: --json >"$WORK/plan-sim.json" || fail "plan sim: failed"
"$DISKTUNE" plan sim: --allow-mounted --json >"$WORK/plan-sim-in-use.json" || fail "plan sim: --allow-mounted failed"
for knob in multcount io_support unmaskirq using_dma xfermode; do
  jq -e --arg k "$knob" '.space.dimensions | map(.setting) | index($k) != null' "$WORK/plan-sim.json" >/dev/null ||
    fail "plan sim: does not search $knob (the refusal check would pass vacuously)"
  jq -e --arg k "$knob" '.space.unsupported[] | select(.setting == $k) | .reason | startswith("refused on a disk in use: ")' \
    "$WORK/plan-sim-in-use.json" >/dev/null || fail "plan sim: --allow-mounted does not refuse $knob"
  jq -e --arg k "$knob" '.space.pruned[] | select(.reason | startswith("refused on a disk in use: " + $k + " (")) | .count > 0' \
    "$WORK/plan-sim-in-use.json" >/dev/null || fail "plan sim: --allow-mounted does not prune $knob's values"
done
"$DISKTUNE" plan sim: --allow-mounted | grep -q '^  multcount: refused on a disk in use: ' ||
  fail "the plan text does not show the refusal"
# tune --allow-mounted of the simulated seed drive: its report refuses the ATA knobs, and no
# trial changes one (readahead is all it searches).
"$DISKTUNE" tune sim: --allow-mounted --max-trials 4 --report "$WORK/sim.json" --journal "$WORK/sim.journal" >"$WORK/sim-out.txt" 2>&1 ||
  fail "tune sim: --allow-mounted failed ($(tail -3 "$WORK/sim-out.txt"))"
ata='{multcount, io_support, unmaskirq, using_dma, xfermode}'
jq -e '[.space.unsupported[] | select(.reason | startswith("refused on a disk in use: "))] | length == 5' \
  "$WORK/sim.json" >/dev/null || fail "the report of tune sim: --allow-mounted does not refuse the five ATA knobs"
jq -e "(.trials | length) >= 2 and ([.trials[].settings | $ata] | unique) == [.baseline.settings | $ata]" \
  "$WORK/sim.json" >/dev/null || fail "a trial of tune sim: --allow-mounted changed an ATA knob"
grep -q 'data-safe knobs only: multcount, io_support, unmaskirq, using_dma, xfermode refused on a disk in use' \
  "$WORK/sim-out.txt" || fail "the progress log does not name the refused knobs"
echo "ok: $trials trials, $(( $(written) - writes_before )) sectors written by the file system during the run"
