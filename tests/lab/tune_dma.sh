#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lab (b, d): tune the ata_piix disk and the AHCI disk in a DMA guest; everything restored after.
source "$(dirname "$0")/lib.bash"
source "$LAB_DIR/tune_checks.bash"

# --max-repeats 4 bounds each trial's samples: the unbounded tune took 360-380 s of a 420 s limit
# on an idle machine; the limit keeps at least twice the time the run takes.
{ echo 'DISKS="sda sdb" TUNE_ARGS="--duration 0.5 --repeats 3 --max-repeats 4"'; cat "$LAB_DIR/guest/snap.sh" "$LAB_DIR/guest/tune.sh"; } >"$WORK/guest.sh"
run_lab --timeout 800 --script "$WORK/guest.sh"

for d in sda sdb; do
  r="$OUT/report-$d.json"
  echo "== $d: tune took $(cat "$OUT/tune-$d.seconds") s"; cat "$OUT/tune-$d.out"
  common_tune_checks "$d"
  for s in read_ahead_kb max_sectors_kb; do
    check "$d: $s was tuned (an ok trial changed it)" tuned "$r" "$s"
  done
  # On ata_piix nr_requests is 2, which no write produces and none takes: the space pairs each
  # scheduler with a value it accepts, so no scheduler trial is refused.
  check "$d: scheduler was tuned and no scheduler trial was refused" scheduler_trials_ran "$r"
  check "$d: nr_requests tuned, or reported unsupported with a reason" tuned_or_unsupported "$r" nr_requests
  # Needs the live ATA path (SG_IO / HDIO on libata): the kernel's refusal must be the reason.
  for s in using_dma unmaskirq; do
    check "$d: $s unsupported with the kernel's ENOTTY" unsupported_because "$r" $s 'Inappropriate ioctl|ENOTTY'
  done
  check "$d: xfermode unsupported with the kernel's refusal (SAT: invalid field in CDB) [needs the ATA path]" \
    unsupported_because "$r" xfermode 'invalid field|ILLEGAL REQUEST|sense'
done
# NCQ: the AHCI disk's device/queue_depth (QEMU offers 32) is searched from 1 up to it, and
# restored (common_tune_checks compares the snap, which holds it); ata_piix has no NCQ (1).
check "sdb: queue_depth searched as 1, 2, 4, ..., the depth as found (AHCI NCQ)" same depth \
  "$(depth_ladder "$OUT/report-sdb.json")" "$(grep '^queue_depth ' "$OUT/before-sdb.txt" | awk '{d=$2; s="["; for (v = 1; v < d; v *= 2) s = s v ","; print s d "]"}')"
# d: on AHCI only the block layer is tuned.
check "sdb: no ok trial changes an ATA setting" same ata "$(ata_changes_in_ok_trials "$OUT/report-sdb.json")" '[]'
check "sdb: the winner changes only block-layer settings" same winner \
  "$(jq -c '[.winner.changes | keys[] | select(IN('"$BLOCK_SETTINGS"') | not)]' "$OUT/report-sdb.json")" '[]'
finish
