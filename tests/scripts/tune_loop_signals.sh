#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT, SIGTERM and SIGHUP during a tune of a loop device: exit 1, queue settings restored, report written.
source "$(dirname "$0")/lib.bash"

require_loop
head -c 33554432 /dev/urandom >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
snapshot() { queue_snapshot "$dev"; }
before=$(snapshot)

for signal in INT TERM HUP; do
  "$DISKTUNE" tune "$dev" --duration 0.3 --repeats 2 --max-repeats 3 --max-trials 12 --report "$WORK/r-$signal.json" --journal "$WORK/j-$signal" \
    >"$WORK/out-$signal.txt" 2>"$WORK/err-$signal.txt" &
  pid=$!
  # Wait until a few trials have run (each changes a queue setting), then interrupt.
  for _ in $(seq 100); do
    [ "$(grep -c 'trial [0-9]*:' "$WORK/err-$signal.txt" 2>/dev/null)" -ge 4 ] && break
    sleep 0.1
  done
  kill -s "$signal" "$pid"
  set +e; wait "$pid"; code=$?; set -e
  expect_eq "$code" 1 "exit code after SIG$signal"
  expect_eq "$(snapshot)" "$before" "queue settings after SIG$signal"
  expect_eq "$(jq -r .restored "$WORK/r-$signal.json")" true "restored after SIG$signal"
  grep -q "stopped by signal" "$WORK/err-$signal.txt" || fail "no stop message after SIG$signal"
done

# Resume the run journaled in $1, its report $2, its stderr $3: exit 0, or 6 (too noisy: a
# memory-speed loop device's noise can exceed the 2 % gain), which completes too. --max-trials
# bounds it (journaled trials count; a resume keeps the run's bounds, so both runs give it): a
# full search here took minutes under load.
resume() {
  set +e
  "$DISKTUNE" tune "$dev" --duration 0.3 --repeats 2 --max-repeats 3 --max-trials 12 --report "$2" --journal "$1" >/dev/null 2>"$3"
  local code=$?
  set -e
  [ "$code" = 0 ] || [ "$code" = 6 ] || fail "resume of $1 exited $code ($(tail -3 "$3"))"
}

# The interrupted run resumes from its journal and completes, without re-running its trials.
resume "$WORK/j-INT" "$WORK/resumed.json" "$WORK/err-resume.txt"
grep -q "resuming" "$WORK/err-resume.txt" || fail "the second run did not resume the interrupted journal"
dupes=$(cut -d' ' -f4- "$WORK/j-INT" | jq -R -s '[split("\n")[] | fromjson? | select(.type=="result" and .baseline==false) | .settings | tojson] | group_by(.) | map(select(length > 1)) | length')
expect_eq "$dupes" 0 "trials measured twice across the interrupted and the resumed run"
expect_eq "$(snapshot)" "$before" "queue settings after the resumed run"

# The disk written between the interrupted run and its resume: the resume re-reads the data
# checksum and says so; no trial is then called corrupt for reading what the disk now holds.
dd if=/dev/urandom of="$dev" bs=64k count=1 oflag=direct conv=fsync status=none
resume "$WORK/j-HUP" "$WORK/written.json" "$WORK/err-written.txt"
grep -q "the disk's data changed since the interrupted run" "$WORK/err-written.txt" || fail "the resume did not say the data changed"
if grep -q "corruption" "$WORK/err-written.txt"; then fail "a trial after the resume was called corrupt: $(grep -m1 corruption "$WORK/err-written.txt")"; fi
expect_eq "$(jq '[.trials[] | select(.status == "ok")] | length >= 2' "$WORK/written.json")" true "ok trials after the resume"
expect_eq "$(snapshot)" "$before" "queue settings after the resume after a write"
echo ok
