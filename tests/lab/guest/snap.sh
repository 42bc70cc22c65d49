# SPDX-License-Identifier: GPL-2.0-or-later
# Guest function (put before the scripts that use it): snap DISK prints every setting of DISK that
# hdparm reads ("name = value" lines) and the block-queue files, one "file value" line each.
snap() {
  hdparm /dev/$1 2>/dev/null | grep ' = '
  for f in read_ahead_kb scheduler nr_requests max_sectors_kb nomerges rq_affinity; do
    echo "$f $(cat /sys/block/$1/queue/$f)"
  done
}
