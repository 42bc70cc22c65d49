#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A journal recorded for one drive is never applied to another, not even with --force
# (--force covers only a renamed device or another kernel). Two SIMULATED drives.
source "$(dirname "$0")/lib.bash"

other="sim:$TEST_DATA/identify/hdparm-i_conner-cfs1275a_kernel-geometry.txt"
"$DISKTUNE" tune sim: --journal "$WORK/j" --max-trials 2 --duration 0.5 >/dev/null 2>"$WORK/err-tune" ||
  fail "tune of the seed drive exited $? ($(tail -1 "$WORK/err-tune"))"

for action in restore tune; do
  set +e; "$DISKTUNE" "$action" "$other" --journal "$WORK/j" --force >/dev/null 2>"$WORK/err-$action"; code=$?; set -e
  expect_eq "$code" 2 "$action with another drive's journal and --force"
  grep -q "journal $WORK/j belongs to another drive: model 'IBM-DJNA-352500' (journal) vs '" "$WORK/err-$action" ||
    fail "$action: no message naming the other drive: $(cat "$WORK/err-$action")"
done
grep -q "not even with --force" "$WORK/err-restore" || fail "restore: $(cat "$WORK/err-restore")"
# The same drive's journal is still restorable.
"$DISKTUNE" restore sim: --journal "$WORK/j" >/dev/null 2>"$WORK/err-same" ||
  fail "restore of the seed drive from its own journal exited $? ($(cat "$WORK/err-same"))"
echo ok
