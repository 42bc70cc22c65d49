# SPDX-License-Identifier: GPL-2.0-or-later
# Guest script: disktune tune each disk named in $DISKS with $TUNE_ARGS; snapshot settings and data
# before and after. Output per disk D: before-D.txt, after-D.txt, sum-before-D, sum-after-D,
# report-D.json, tune-D.out, tune-D.err, tune-D.rc, tune-D.seconds, read-after-D.rc.
# Needs guest/snap.sh before it.
set -o pipefail
for d in $DISKS; do
  snap $d >before-$d.txt
  dd if=/dev/$d bs=1M count=16 iflag=direct 2>/dev/null | sha256sum >sum-before-$d
  start=$(date +%s)
  rc=0
  disktune tune /dev/$d $TUNE_ARGS --report report-$d.json --boot-local boot-$d.local \
    >tune-$d.out 2>tune-$d.err || rc=$?
  echo $rc >tune-$d.rc
  echo $(($(date +%s) - start)) >tune-$d.seconds
  snap $d >after-$d.txt
  rc=0; dd if=/dev/$d bs=1M count=16 iflag=direct 2>/dev/null | sha256sum >sum-after-$d || rc=$?
  echo $rc >read-after-$d.rc
done
