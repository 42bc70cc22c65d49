# SPDX-License-Identifier: GPL-2.0-or-later
# Guest script: try each hdparm knob and sysfs queue knob on /dev/sda and /dev/sdb, record the outcome.
# Output: matrix.tsv with "disk  knob  value  exit  message" lines (value restored after each try).
set +e
try() { # try DISK KNOB VALUE COMMAND...
  disk=$1 knob=$2 value=$3; shift 3
  "$@" >/dev/null 2>/tmp/try.err; rc=$?
  msg=$(grep -v '^$' /tmp/try.err | tr '\n' ' ' | cut -c1-160)
  printf '%s\t%s\t%s\t%s\t%s\n' "$disk" "$knob" "$value" "$rc" "$msg" >>/out/matrix.tsv
}
sysfs_try() { # sysfs_try DISK FILE VALUE
  f=/sys/block/$1/queue/$2
  old=$(cat "$f" | sed 's/.*\[\(.*\)\].*/\1/')
  msg=$( { echo "$3" >"$f"; } 2>&1 ); rc=$?
  now=$(cat "$f")
  printf '%s\t%s\t%s\t%s\t%s now=%s\n' "$1" "sysfs:$2" "$3" "$rc" "$msg" "$now" >>/out/matrix.tsv
  echo "$old" >"$f" 2>/dev/null
}
for d in sda sdb; do
  dev=/dev/$d
  hdparm $dev >/out/before-$d.txt 2>&1
  mult=$(hdparm -m $dev | awk '/multcount/ { print $3 }')
  io=$(hdparm -c $dev | awk '/IO_support/ { print $3 }')
  try $d io_support 0 hdparm -c0 $dev; try $d io_support 1 hdparm -c1 $dev; try $d io_support 3 hdparm -c3 $dev
  hdparm -c"$io" $dev >/dev/null 2>&1
  try $d multcount 8 hdparm --yes-i-know-what-i-am-doing -m8 $dev
  try $d multcount 16 hdparm --yes-i-know-what-i-am-doing -m16 $dev
  hdparm --yes-i-know-what-i-am-doing -m"$mult" $dev >/dev/null 2>&1
  try $d using_dma 0 hdparm -d0 $dev; try $d using_dma 1 hdparm -d1 $dev
  try $d xfermode udma2 hdparm -X udma2 $dev; try $d xfermode mdma2 hdparm -X mdma2 $dev
  try $d xfermode pio4 hdparm -X pio4 $dev
  try $d unmaskirq 0 hdparm -u0 $dev; try $d unmaskirq 1 hdparm -u1 $dev
  try $d readahead 512 hdparm -a512 $dev; hdparm -a256 $dev >/dev/null
  for f in read_ahead_kb:512 nr_requests:32 max_sectors_kb:64 nomerges:1 rq_affinity:2; do
    sysfs_try $d ${f%%:*} ${f#*:}
  done
  for s in $(sed 's/[][]//g' /sys/block/$d/queue/scheduler); do sysfs_try $d scheduler $s; done
  cat /sys/block/$d/queue/scheduler /sys/block/$d/queue/nr_requests /sys/block/$d/queue/max_hw_sectors_kb >/out/queue-$d.txt
  hdparm $dev >/out/after-$d.txt 2>&1
  for a in xfer_mode dma_mode pio_mode; do echo "$a $(cat /sys/class/ata_device/dev*/$a 2>/dev/null | tr '\n' ' ')"; done >/out/ata-modes.txt
done
