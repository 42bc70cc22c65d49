#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Record before you probe, for every command that probes: `disktune plan`
# probes nr_requests under each scheduler (many writes to queue/); kill -9 at random points of
# 8 runs on a loop device under mq-deadline with nr_requests and read_expire off their
# defaults. After each kill the next command that opens the device (`disktune restore`, odd
# runs; another `plan`, even runs) puts the scheduler, nr_requests and read_expire back.
source "$(dirname "$0")/lib.bash"

attach_deadline_loop
echo 40 >"$q/nr_requests" || skip "nr_requests not writable"
state() { queue_snapshot "$dev" | tr '\n' ' '; echo "read_expire $(cat "$q/iosched/read_expire")"; }
original=$(state)
# How long a whole plan takes here: the kills land inside it.
start=$(date +%s%N)
"$DISKTUNE" plan "$dev" >/dev/null 2>"$WORK/err" || fail "plan: $(cat "$WORK/err")"
span_ms=$((($(date +%s%N) - start) / 1000000))
expect_eq "$(state)" "$original" "settings after a whole plan"

RANDOM=7
changed=0
for i in $(seq 8); do
  "$DISKTUNE" plan "$dev" >/dev/null 2>"$WORK/err" &
  pid=$!
  sleep "$(awk -v ms=$((5 + RANDOM % (span_ms > 10 ? span_ms : 10))) 'BEGIN { print ms / 1000 }')"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ "$(state)" != "$original" ] && changed=$((changed + 1))
  if ((i % 2)); then
    "$DISKTUNE" restore "$dev" --journal "$WORK/no-journal" >"$WORK/out" 2>&1 ||
      [ "$(state)" = "$original" ] || fail "restore after kill $i: $(cat "$WORK/out")"
  else
    "$DISKTUNE" plan "$dev" >/dev/null 2>"$WORK/out" || fail "plan after kill $i: $(cat "$WORK/out")"
  fi
  expect_eq "$(state)" "$original" "settings after kill $i and the next command"
done
((changed >= 1)) || fail "none of 8 kills landed while the probe had the device changed"
echo "ok: 8 kills within ${span_ms} ms, $changed left the device changed, every one put back"
