#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lab: `disktune tune sda sdb sdc` in a guest with two disks on one PIIX channel (master and
# slave, scripts/ata-lab --ide-slave) and one on AHCI: the two on the channel are one group,
# tuned one after another with the channel named as the reason; the AHCI disk runs beside them.
source "$(dirname "$0")/lib.bash"

run_lab --ide-slave --disk-mib 64 --timeout 300 --run '
ls /dev/sd* >disks.txt
for d in sda sdb sdc; do cat /sys/block/$d/queue/read_ahead_kb >ra-before-$d; done
rc=0
disktune tune /dev/sda /dev/sdb /dev/sdc --only read_ahead_kb --max-trials 2 --duration 0.5 --repeats 2 \
  --max-repeats 3 --noise-repeats 1 --time-budget 30 --report "/out/{drive}.json" --journal "/out/{drive}.journal" \
  --summary /out/summary.json >multi.out 2>multi.err || rc=$?
echo $rc >multi.rc
for d in sda sdb sdc; do cat /sys/block/$d/queue/read_ahead_kb >ra-after-$d; done'

s=$OUT/summary.json
echo "== guest disks: $(tr '\n' ' ' <"$OUT/disks.txt")"; cat "$OUT/multi.out"
check "tune exit 0 or 6" same rc "$(sed 's/^6$/0/' "$OUT/multi.rc")" 0
check "sda and sdb (one PIIX channel) are one group, sdc (AHCI) another" same groups \
  "$(jq -c '[.groups[].drives]' "$s")" '[["sda","sdb"],["sdc"]]'
check "the reason names the channel" same reason "$(jq -r '.groups[0].reasons[0]' "$s")" \
  "sda and sdb: on one ATA channel (ata1)"
check "sdb started after sda ended" jq -e '(.drives | map({(.key): .}) | add) as $d | $d.sdb.start_s >= $d.sda.end_s' "$s"
check "the table says why" grep -q "one after another: sda and sdb: on one ATA channel (ata1)" "$OUT/multi.out"
for d in sda sdb sdc; do
  check "$d: read_ahead_kb as before" same ra "$(cat "$OUT/ra-after-$d")" "$(cat "$OUT/ra-before-$d")"
  check "$d: report of the live disk" same live "$(jq -c '[.device.simulated, .restored]' "$OUT/$d.json")" '[false,true]'
done
finish
