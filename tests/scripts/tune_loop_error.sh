#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The error exit paths of a tune of a loop device put every queue setting back.
# 1. The journal's file system fills up in the middle of the search: exit 3, with a report.
# 2. The report's directory disappears during the run: exit 2 at the end, table still printed.
source "$(dirname "$0")/lib.bash"

require_loop
command -v mount >/dev/null || skip "mount not installed"
head -c 33554432 /dev/urandom >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
before=$(queue_snapshot "$dev")
sum_before=$(sha256sum <"$dev")

# wait_trials ERR N PID: wait until the run logging to ERR has finished N trials (the queue
# settings have been changed and put back N times); fail if it ends first.
wait_trials() {
  for _ in $(seq 300); do
    [ "$(grep -c '^  trial [1-9][0-9]*:' "$1" 2>/dev/null)" -ge "$2" ] && return 0
    kill -0 "$3" 2>/dev/null || fail "the run ended before $2 trials ($(tail -2 "$1"))"
    sleep 0.1
  done
  fail "no $2 trials after 30 s ($(tail -2 "$1"))"
}

# 1. Journal on a small tmpfs of its own, filled once 2 trials are done: the next journal
# record cannot be written (ENOSPC).
mkdir "$WORK/jfs"
mount -t tmpfs -o size=256k tmpfs "$WORK/jfs" || skip "cannot mount a tmpfs"
cleanup_steps+=("umount '$WORK/jfs'")
"$DISKTUNE" tune "$dev" --duration 0.2 --repeats 2 --max-repeats 3 --journal "$WORK/jfs/j" --report "$WORK/r-full.json" \
  >"$WORK/out-full.txt" 2>"$WORK/err-full.txt" &
pid=$!
wait_trials "$WORK/err-full.txt" 2 "$pid"
head -c 1048576 /dev/zero >"$WORK/jfs/fill" 2>/dev/null || true  # stops at ENOSPC
set +e; wait "$pid"; code=$?; set -e
expect_eq "$code" 3 "exit code when the journal cannot be written ($(tail -1 "$WORK/err-full.txt"))"
grep -q "journal $WORK/jfs/j: write: No space left on device" "$WORK/err-full.txt" ||
  fail "no message naming the journal write error: $(tail -2 "$WORK/err-full.txt")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the journal write error"
# The stop is reported like any other: the report says why and recommends nothing.
expect_eq "$(jq -r .completed "$WORK/r-full.json")" false "report completed after the journal write error"
expect_eq "$(jq -r .restored "$WORK/r-full.json")" true "report restored after the journal write error"
jq -r .stop_reason "$WORK/r-full.json" | grep -q "No space left on device" ||
  fail "stop_reason does not name the journal error: $(jq -r .stop_reason "$WORK/r-full.json")"
grep -q "^boot.local (no file is written: no answer):$" "$WORK/out-full.txt" || fail "no results table after the journal write error"
echo "journal full: exit 3 after $(grep -c "^  trial [1-9][0-9]*:" "$WORK/err-full.txt") trials, settings restored, ${SECONDS} s"
# The journal, with its torn last record, is still readable: restore from it works.
rm "$WORK/jfs/fill"
"$DISKTUNE" restore "$dev" --journal "$WORK/jfs/j" >/dev/null 2>"$WORK/err-restore.txt" ||
  fail "restore from the journal left by the failed run exited $? ($(tail -1 "$WORK/err-restore.txt"))"
grep -q "^disktune: restored .* on $dev from $WORK/jfs/j" "$WORK/err-restore.txt" ||
  fail "restore did not say what it restored: $(tail -1 "$WORK/err-restore.txt")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after restore"
umount "$WORK/jfs"
unset 'cleanup_steps[-1]'

# 2. Report into a directory removed after the first trial: the run completes and restores,
# then the report cannot be written.
mkdir "$WORK/out"
"$DISKTUNE" tune "$dev" --duration 0.2 --repeats 2 --max-repeats 3 --only read_ahead_kb --max-trials 4 --journal "$WORK/j-gone" \
  --report "$WORK/out/r.json" >"$WORK/out-gone.txt" 2>"$WORK/err-gone.txt" &
pid=$!
wait_trials "$WORK/err-gone.txt" 1 "$pid"
rm -r "$WORK/out"
set +e; wait "$pid"; code=$?; set -e
expect_eq "$code" 2 "exit code when the report cannot be written ($(tail -1 "$WORK/err-gone.txt"))"
grep -q "cannot write $WORK/out/r.json: directory $WORK/out: No such file or directory" "$WORK/err-gone.txt" ||
  fail "no message naming the report write error: $(tail -2 "$WORK/err-gone.txt")"
grep -q "^boot.local" "$WORK/out-gone.txt" || fail "the results table was not printed before the failed write"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the report write error"
echo "report directory gone: exit 2 after $(grep -c "^  trial [1-9][0-9]*:" "$WORK/err-gone.txt") trials, settings restored, ${SECONDS} s"

expect_eq "$(sha256sum <"$dev")" "$sum_before" "device content after both runs"
echo ok
