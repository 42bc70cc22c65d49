#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Lab (PIO guest, libata dma=0): 32-bit I/O beats 16-bit; multcount 0 breaks reads until -m16.
source "$(dirname "$0")/lib.bash"

cat "$LAB_DIR/guest/settings-matrix.sh" "$LAB_DIR/guest/c-timings.sh" "$LAB_DIR/guest/pio-facts.sh" >"$WORK/guest.sh"
run_lab --pio --disk-mib 128 --script "$WORK/guest.sh"
source "$LAB_DIR/matrix_checks.bash"
column -t -s $'\t' "$OUT/matrix.tsv"
cat "$OUT/timings.tsv" "$OUT/m0.tsv"

common_matrix_checks
check "sda: hdparm -c0 and -c1 work on ata_piix in PIO" same c "$(rc_of sda io_support 0)$(rc_of sda io_support 1)" 00
median() { awk -v c="$1" '$1 == c { print $2 }' "$OUT/timings.tsv" | sort -g | sed -n 2p; }
c0=$(median 0) c1=$(median 1)
echo "hdparm -t median: 16-bit $c0 MB/s, 32-bit $c1 MB/s"
# 1.1x, not docs/architecture.md's 18 vs 31-43 MB/s: TCG slows the whole guest when the host is busy and
# shrinks the gap (12.8 vs 11.0 MB/s, 1.16x, measured while a build ran beside it).
check "32-bit I/O beats 16-bit by at least 1.1x ($c1 vs $c0 MB/s)" awk -v a="$c1" -v b="$c0" 'BEGIN { exit !(b > 0 && a >= 1.1 * b) }'

step() { awk -F'\t' -v s="$1" '$1 == s { print $'"$2"' }' "$OUT/m0.tsv"; }
check "hdparm -m0 accepted (SET MULTIPLE reaches the drive)" same m0 "$(step set-m0 2)" 0
for r in read-1 read-2 read-3; do
  check "$r after -m0 fails with EIO" same eio "$(step $r 2)/$(step $r 3 | grep -c 'Input/output error')" 1/1
done
check "libata logged the failed READ MULTIPLE" grep -q 'failed command: READ MULTIPLE' "$OUT/m0-dmesg.txt"
check "hdparm -m16 restores" same m16 "$(step set-m16 2)" 0
check "reads work again after -m16" same read "$(step read-after 2)" 0
check "data unchanged" same sum "$(step sum-after 3)" "$(step sum-before 3)"
finish
