#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The emulated disk's timing, measured through the kernel: fio on a read-only loop device with
# direct I/O over emudisk's file (scripts/emulated-disk), against what the model's constants
# predict. hdd: 4 KiB random reads at queue depth 1 take the mean seek plus half a revolution
# (plus command overhead and transfer) within 5 %, once the path's own time per read (measured on
# buffer hits) is taken off; at queue depth 32 the drive's reordering
# gains IOPS when nr_requests lets the reads through; sequential 1 MiB reads stream at the zone's
# media rate. ssd: parallel units and the link's ceiling. Also: nothing can be written, and
# the content is a fixed pattern. Bounded: about 20 s of fio.
source "$(dirname "$0")/lib.bash"
# fio_read RW BS QD [FIO-OPTIONS...]: one job on $dev; prints its JSON read section.
fio_read() {
  local rw=$1 bs=$2 qd=$3
  shift 3
  fio --name=emu --filename="$dev" --readonly --direct=1 --ioengine=libaio --rw="$rw" --bs="$bs" \
    --iodepth="$qd" --output-format=json "$@" | jq '.jobs[0].read'
}
# within ACTUAL EXPECTED PCT WHAT: fail unless |ACTUAL/EXPECTED - 1| <= PCT %.
within() {
  awk -v a="$1" -v e="$2" -v p="$3" 'BEGIN { d = (a / e - 1) * 100; if (d < 0) d = -d; exit !(d <= p) }' ||
    fail "$4: measured $1, model $2 (more than $3 % apart)"
  echo "ok: $4: measured $1, model $2"
}

# hdd with one zone (160 MiB/s everywhere), so a random byte is a uniformly random track.
attach_emulated hdd --profile hdd --inner-mib-s 160
expect_eq "$(cat "$q/rotational")" 1 "queue/rotational of the emulated hdd"
# The path's own time per read (loop device, FUSE, the emulator's timer), measured on this device:
# 4 KiB reads in order at QD1 come from the drive's read-ahead buffer, which the model serves in
# its command overhead (0.1 ms) plus 4 KiB at the interface's 300 MiB/s.
hit=$(fio_read read 4k 1 --number_ios=2000 | jq '.clat_ns.mean / 1e6')
hit_model=$(awk 'BEGIN { print 0.1 + 4096 / (300 * 1048576) * 1000 }')
awk -v h="$hit" -v m="$hit_model" 'BEGIN { exit !(h >= m * 0.98) }' ||
  fail "hdd QD1 4 KiB reads in order: mean $hit ms, below the model's buffer hit of $hit_model ms"
path_ms=$(awk -v h="$hit" -v m="$hit_model" 'BEGIN { print h - m }')
echo "hdd QD1 4 KiB reads in order (buffer hits): mean $hit ms, model $hit_model ms: the path adds $path_ms ms"
qd1=$(fio_read randread 4k 1 --number_ios=400 --randseed=11)
mean_ms=$(jq '.clat_ns.mean / 1e6' <<<"$qd1")
# Mean seek 1 + (15 - 1) * 8/15 ms, half a revolution 30000/7200 ms; overhead 0.1 ms; 4 KiB at
# 160 MiB/s. The rotational wait is uniform over 8.33 ms (SD 2.4 ms): over 400 reads its mean
# has a standard error of 0.12 ms (1 %).
seek_rot=$(awk 'BEGIN { print 1 + 14 * 8 / 15 + 30000 / 7200 }')
model=$(awk -v s="$seek_rot" 'BEGIN { print s + 0.1 + 4096 / (160 * 1048576) * 1000 }')
drive_ms=$(awk -v m="$mean_ms" -v p="$path_ms" 'BEGIN { print m - p }')
echo "hdd QD1 4 KiB random reads: mean $mean_ms ms, less the path's $path_ms ms: $drive_ms ms"
within "$drive_ms" "$model" 5 "hdd QD1 4 KiB random read, mean completion latency less the path [ms]"
echo "    (mean seek plus half a revolution alone: $seek_rot ms)"

echo 4 >"$q/nr_requests"
narrow=$(fio_read randread 4k 32 --runtime=3 --time_based --randseed=12 | jq .iops)
echo 64 >"$q/nr_requests"
wide=$(fio_read randread 4k 32 --runtime=3 --time_based --randseed=13 | jq .iops)
echo "hdd QD32 4 KiB random reads: nr_requests 4 $narrow IOPS, nr_requests 64 $wide IOPS"
awk -v n="$narrow" -v w="$wide" 'BEGIN { exit !(w >= 1.3 * n) }' ||
  fail "the drive's reordering did not act: nr_requests 64 gave $wide IOPS, 4 gave $narrow"

seq_mib=$(fio_read read 1M 16 --size=128M | jq '.bw / 1024')
within "$seq_mib" 160 5 "hdd sequential 1 MiB reads at QD16 [MiB/s]"

# Reads are the emulator's fixed pattern, the same every time; writes are refused.
cmp <(dd if="$dev" bs=4096 skip=12345 count=2 iflag=direct status=none) \
  <(dd if="$dev" bs=4096 skip=12345 count=2 iflag=direct status=none) || fail "two reads of one block differ"
[ "$(dd if="$dev" bs=4096 skip=12345 count=1 iflag=direct status=none | tr -d '\0' | wc -c)" -gt 0 ] ||
  fail "the emulated disk reads as zeros"
if (: >>"$WORK/hdd/mnt/disk.img") 2>/dev/null; then fail "emudisk's file opened for writing"; fi
if dd if=/dev/zero of="$dev" bs=4096 count=1 oflag=direct status=none 2>/dev/null; then fail "the loop device took a write"; fi

# Zones: the default hdd reads 160 MiB/s on its outer tracks and 80 MiB/s on its inner ones.
attach_emulated zoned --profile hdd --capacity-gib 16
inner=$(fio_read read 1M 16 --size=64M --offset=$(((16 << 30) - (64 << 20))) | jq '.bw / 1024')
within "$inner" 80.3 5 "hdd inner-zone sequential reads [MiB/s]"

attach_emulated ssd --profile ssd
expect_eq "$(cat "$q/rotational")" 0 "queue/rotational of the emulated ssd"
one=$(fio_read randread 4k 1 --number_ios=3000 --randseed=14)
one_us=$(jq '.clat_ns.mean / 1e3' <<<"$one")
# 10 us overhead + 250 us read + 4 KiB at 550 MiB/s; FUSE and the loop device add their own.
awk -v m="$one_us" 'BEGIN { exit !(m >= 260 * 0.98 && m <= 260 + 250) }' ||
  fail "ssd QD1 4 KiB random read: mean $one_us us, model 267 us (+ at most 250 us of FUSE and loop)"
four=$(fio_read randread 4k 4 --number_ios=6000 --randseed=15 | jq .iops)
echo "ssd 4 KiB random reads: QD1 mean $one_us us ($(jq .iops <<<"$one") IOPS), QD4 $four IOPS"
awk -v f="$four" -v o="$(jq .iops <<<"$one")" 'BEGIN { exit !(f >= 2 * o) }' ||
  fail "the ssd's 4 units did not serve in parallel: QD4 $four IOPS"
link=$(fio_read read 1M 16 --size=256M | jq '.bw / 1024')
within "$link" 550 5 "ssd sequential 1 MiB reads at QD16, the link's ceiling [MiB/s]"
