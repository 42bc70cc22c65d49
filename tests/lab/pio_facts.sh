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
# Each -c1 run is paired with the -c0 run just before it (c-timings.sh interleaves them): TCG slows
# the whole guest when the host is busy and that changes from minute to minute, so only runs next to
# each other share the same host load. CI saw whole-run medians (of three) at 17.60 vs 16.23 MB/s (1.08x) while
# every pair had 32-bit ahead (26.51/17.14, 17.60/16.23, 17.57/11.86); a build beside it once shrank
# the medians to 12.8 vs 11.0 MB/s. The check: the median of the pairs' ratios at least 1.1x (16-bit
# and 32-bit alike give 1.0x), not docs/architecture.md's 18 vs 31-43 MB/s on a quiet host.
ratios=$(awk '$1 == 0 { z = $2 } $1 == 1 && z > 0 { printf "%.3f\n", $2 / z; z = 0 }' "$OUT/timings.tsv" | sort -g)
pairs=$(wc -l <<<"$ratios")
median_ratio=$(sed -n "$(((pairs + 1) / 2))p" <<<"$ratios")
echo "hdparm -t 32-bit/16-bit ratio of each adjacent pair: $(echo $ratios) (median $median_ratio)"
check "five adjacent 16-bit/32-bit pairs timed" same pairs "$pairs" 5
check "32-bit I/O beats 16-bit by at least 1.1x (median of the adjacent pairs' ratios: $median_ratio)" \
  awk -v r="$median_ratio" 'BEGIN { exit !(r >= 1.1) }'

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
