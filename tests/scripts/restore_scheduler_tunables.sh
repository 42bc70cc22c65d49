#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The original scheduler's own tunables survive a kill -9: a tune of a loop device under
# mq-deadline with read_expire off its default, killed with its trial child while a trial's
# other scheduler is applied (a switch resets the tunables to the elevator's defaults), then
# `disktune restore`: the scheduler and read_expire read back as found.
source "$(dirname "$0")/lib.bash"

attach_deadline_loop
grep -qw none "$q/scheduler" || skip "no none scheduler"
before=$(queue_snapshot "$dev")

kill_tune_in_trial "$dev" --only scheduler --max-trials 4 --duration 0.2 --repeats 2 --max-repeats 2 \
  --journal "$WORK/journal"
# Whatever the trial left, the device now holds another scheduler, as a kill mid-trial leaves it.
# A switch can fail with EBUSY while the killed child's last requests drain: retry it.
switch_to() {
  for _ in $(seq 50); do echo "$1" 2>/dev/null >"$q/scheduler" && return 0; sleep 0.1; done
  fail "could not switch $dev to $1"
}
switch_to none
switch_to mq-deadline
switch_to none

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
