# SPDX-License-Identifier: GPL-2.0-or-later
# Checks on matrix.tsv (guest/settings-matrix.sh) shared by the DMA and PIO lab tests (sourced).

# rc_of DISK KNOB VALUE / msg_of DISK KNOB VALUE: exit status / stderr of that try.
rc_of() { awk -F'\t' -v d="$1" -v k="$2" -v v="$3" '$1 == d && $2 == k && $3 == v { print $4 }' "$OUT/matrix.tsv"; }
msg_of() { awk -F'\t' -v d="$1" -v k="$2" -v v="$3" '$1 == d && $2 == k && $3 == v { print $5 }' "$OUT/matrix.tsv"; }

# refused_by_sat DISK MODE: hdparm -X got sense key 5 (ILLEGAL REQUEST), ASC 0x24 (invalid field in CDB).
refused_by_sat() { [[ $(msg_of "$1" xfermode "$2") =~ sb\[\]:\ +70\ 00\ 05(\ [0-9a-f]{2}){9}\ 24 ]]; }

common_matrix_checks() {
  local d v f
  for d in sda sdb; do
    for v in 0 1; do
      check "$d: hdparm -d$v fails with ENOTTY" same d "$(rc_of $d using_dma $v)" 25
      check "$d: hdparm -u$v fails with ENOTTY" same u "$(rc_of $d unmaskirq $v)" 25
    done
    for v in udma2 mdma2 pio4; do check "$d: hdparm -X $v refused (invalid field in CDB)" refused_by_sat $d $v; done
    for v in 8 16; do check "$d: SET MULTIPLE $v (hdparm -m$v) accepted" same m "$(rc_of $d multcount $v)" 0; done
    check "$d: hdparm -a512 works" same a "$(rc_of $d readahead 512)" 0
    for f in read_ahead_kb:512 nr_requests:32 max_sectors_kb:64 nomerges:1 rq_affinity:2; do
      check "$d: queue/${f%%:*} takes ${f#*:}" same q "$(rc_of $d sysfs:${f%%:*} ${f#*:})" 0
    done
    check "$d: hdparm settings as before" same settings "$(cat "$OUT/after-$d.txt")" "$(cat "$OUT/before-$d.txt")"
  done
}
