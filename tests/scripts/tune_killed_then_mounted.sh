#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A tune killed with its whole process group (no child left to restore) and the disk mounted
# afterwards: the next tune is refused as in use, and the refusal names the journal that holds
# the settings from before the killed run with the command that puts them back on the mounted
# disk; that command does. The file system is made before the loop device exists; the mount is
# read-only.
source "$(dirname "$0")/lib.bash"

attach_ext4_loop 64M
mkdir "$WORK/mnt"
cleanup_steps=("umount '$WORK/mnt' 2>/dev/null" "${cleanup_steps[@]}")  # unmount before detaching
before=$(queue_snapshot "$dev")

kill_tune_in_trial "$dev" --only read_ahead_kb,nr_requests --max-trials 20 --duration 0.3 --journal "$WORK/j"
mount -o ro "$dev" "$WORK/mnt"

set +e; "$DISKTUNE" tune "$dev" --journal "$WORK/j" >/dev/null 2>"$WORK/refused.txt"; code=$?; set -e
expect_eq "$code" 2 "exit code of a tune of the mounted disk"
grep -q "is mounted on $WORK/mnt" "$WORK/refused.txt" || fail "the refusal does not say why: $(cat "$WORK/refused.txt")"
restore="$DISKTUNE restore $dev --journal $WORK/j"  # the program as run: its hints run this binary
grep -qF "'$restore'" "$WORK/refused.txt" || fail "the refusal does not name the restore it owes: $(cat "$WORK/refused.txt")"

"$DISKTUNE" restore "$dev" --journal "$WORK/j" >/dev/null 2>"$WORK/restore.txt" || fail "restore: $(cat "$WORK/restore.txt")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the restore on the mounted disk"

# Once restored, nothing is owed: the refusal says only why.
set +e; "$DISKTUNE" tune "$dev" --journal "$WORK/j" >/dev/null 2>"$WORK/again.txt"; code=$?; set -e
expect_eq "$code" 2 "exit code of a tune of the mounted disk after the restore"
if grep -q "disktune restore" "$WORK/again.txt"; then fail "a restore is still named after it ran: $(cat "$WORK/again.txt")"; fi
echo ok
