# SPDX-License-Identifier: GPL-2.0-or-later
# Guest function (put before the scripts that use it): snap DISK prints every setting of DISK that
# hdparm reads ("name = value" lines), the block-queue files, one "file value" line each, the
# active scheduler's iosched/ tunables and the SCSI device's queue_depth (NCQ).
snap() {
  hdparm /dev/$1 2>/dev/null | grep ' = '
  for f in read_ahead_kb scheduler nr_requests max_sectors_kb nomerges rq_affinity; do
    echo "$f $(cat /sys/block/$1/queue/$f)"
  done
  [ ! -d /sys/block/$1/queue/iosched ] || grep -H . /sys/block/$1/queue/iosched/* | sed 's|.*/iosched/|iosched/|'
  echo "queue_depth $(cat /sys/block/$1/device/queue_depth 2>/dev/null || echo none)"
}
