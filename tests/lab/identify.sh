#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lab (a, d): `disktune identify --json` agrees with `hdparm -I` on the ata_piix and the AHCI disk.
source "$(dirname "$0")/lib.bash"

run_lab --run '
for d in sda sdb; do
  hdparm -I /dev/$d >hdparm-I-$d.txt 2>hdparm-I-$d.err
  disktune identify /dev/$d --json >identify-$d.json
done'

for d in sda sdb; do
  expected=$("$LAB_DIR/hdparm_I_json" "$OUT/hdparm-I-$d.txt")
  echo "$d hdparm -I: $expected"
  fields=$(jq -r 'keys_unsorted | join(" ")' <<<"$expected")
  for f in $fields; do
    check "$d $f" same "$d $f" "$(jq -c ".$f" "$OUT/identify-$d.json")" "$(jq -c ".$f" <<<"$expected")"
  done
  check "$d identify is live, not simulated" same simulated "$(jq -c '[.source, .simulated]' "$OUT/identify-$d.json")" '["live",false]'
done
# The two drivers, as the guest set them up: MDMA2 on ata_piix, UDMA5 on AHCI (SATA).
check "sda (ata_piix) runs MDMA2" same mdma "$(jq -c '[.mdma_active, .udma_active]' "$OUT/identify-sda.json")" '[2,null]'
check "sdb (ahci) runs UDMA5 and says SATA" same sata "$(jq -c '[.udma_active, .is_sata]' "$OUT/identify-sdb.json")" '[5,true]'
finish
