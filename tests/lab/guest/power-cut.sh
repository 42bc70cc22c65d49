# SPDX-License-Identifier: GPL-2.0-or-later
# Guest script for a power cut during a trial, in two boots on the same disks; the journal lives on
# the data disk ($DATA, scripts/ata-lab --data-disk). Needs guest/snap.sh before it, and
# PHASE and TUNE_ARGS set.
# PHASE=cut: give sda settings a boot does not (so a restore from the journal is visible), record
#   them (DATA/before.txt) and the boot id, start disktune tune, and as soon as the journal's
#   last record is an intent (a trial in flight) print POWER-CUT-NOW and that record: the host
#   kills QEMU then. Output on DATA: boot-id-1, before.txt, tune-1.out, tune-1.err.
# PHASE=resume: record the boot id (boot-id-2), the settings as booted (booted.txt) and the journal
#   as the power cut left it (journal-after-cut), run the same tune again while sampling
#   "read_ahead_kb max_sectors_kb" every 0.1 s (queue-seen.txt), then the settings after (after.txt) and the
#   journal (journal-final); report.json, tune.out, tune.err, tune.rc; copies of DATA's files.
set -o pipefail
journal=$DATA/sda.journal

if [ "$PHASE" = cut ]; then
  hdparm -c1 /dev/sda >/dev/null
  echo 256 >/sys/block/sda/queue/read_ahead_kb
  echo 512 >/sys/block/sda/queue/max_sectors_kb
  cat /proc/sys/kernel/random/boot_id >"$DATA/boot-id-1"
  snap sda >"$DATA/before.txt"
  sync
  disktune tune /dev/sda $TUNE_ARGS --journal "$journal" >"$DATA/tune-1.out" 2>"$DATA/tune-1.err" &
  pid=$!
  while kill -0 $pid 2>/dev/null; do
    last=$(tail -n 1 "$journal" 2>/dev/null || true)
    case $last in
      *'"type":"intent"'*) echo "POWER-CUT-NOW $last"; sleep 600 ;;
    esac
    sleep 0.2
  done
  rc=0; wait $pid || rc=$?
  echo "the tune ended (exit $rc) before a trial was in flight"; cat "$DATA/tune-1.err"
  exit 1
fi

cat /proc/sys/kernel/random/boot_id >boot-id-2
cp "$DATA/boot-id-1" "$DATA/before.txt" "$DATA/tune-1.err" .
cp "$journal" journal-after-cut
snap sda >booted.txt
q=/sys/block/sda/queue
while [ ! -e /tmp/tune-done ]; do echo "$(cat $q/read_ahead_kb) $(cat $q/max_sectors_kb)"; sleep 0.1; done >queue-seen.txt &
sampler=$!
rc=0
disktune tune /dev/sda $TUNE_ARGS --journal "$journal" --report report.json >tune.out 2>tune.err || rc=$?
echo $rc >tune.rc
touch /tmp/tune-done
wait $sampler
snap sda >after.txt
cp "$journal" journal-final
