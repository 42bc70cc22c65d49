#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The original scheduler's own tunables survive a kill -9: a tune of a loop device under
# mq-deadline with read_expire off its default, killed with its trial child while a trial's
# other scheduler is applied (a switch resets the tunables to the elevator's defaults), then
# `disktune restore`: the scheduler and read_expire read back as found.
source "$(dirname "$0")/lib.bash"

require_loop
truncate -s 32M "$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
grep -qw mq-deadline "$q/scheduler" || skip "no mq-deadline scheduler"
grep -qw none "$q/scheduler" || skip "no none scheduler"
echo mq-deadline >"$q/scheduler"
echo 200 >"$q/iosched/read_expire"
expect_eq "$(cat "$q/iosched/read_expire")" 200 "read_expire as set"
before=$(queue_snapshot "$dev")

setsid "$DISKTUNE" tune "$dev" --only scheduler --max-trials 4 --duration 0.2 --repeats 2 --max-repeats 2 \
  --journal "$WORK/journal" >"$WORK/out.txt" 2>"$WORK/err.txt" &
pid=$!
cleanup_steps+=("kill -9 -- -$pid 2>/dev/null")
for _ in $(seq 300); do
  grep -q 'trial [0-9]' "$WORK/err.txt" 2>/dev/null && break
  sleep 0.1
done
grep -q 'trial [0-9]' "$WORK/err.txt" || fail "no trial started ($(tail -3 "$WORK/err.txt"))"
kill -9 -- -"$pid"
set +e; wait "$pid"; set -e
# Whatever the trial left, the device now holds another scheduler, as a kill mid-trial leaves it.
echo none >"$q/scheduler"
echo mq-deadline >"$q/scheduler"
echo none >"$q/scheduler"

set +e
"$DISKTUNE" restore "$dev" --journal "$WORK/journal" >"$WORK/restore.txt" 2>&1
code=$?
set -e
expect_eq "$code" 0 "restore exit code ($(tail -3 "$WORK/restore.txt"))"
expect_eq "$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")" mq-deadline "scheduler after restore"
expect_eq "$(cat "$q/iosched/read_expire")" 200 "mq-deadline's read_expire after restore"
expect_eq "$(queue_snapshot "$dev")" "$before" "every queue value after restore"
grep -q 'read_expire=200' "$WORK/restore.txt" || fail "restore does not say it restored the tunables: $(cat "$WORK/restore.txt")"
echo ok
