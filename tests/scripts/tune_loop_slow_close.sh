#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A device that turns very slow during a trial: the trial's child is killed (stalled), the
# settings are restored, and the report is written before the tune's last close of the
# device, which waits for the killed child's readahead to drain (bdev_release truncates the
# device's page cache): at 2 IOPS that took minutes in state D, unkillable, with no report
# (adversarial review). Bounded: the throttle is lifted as soon as the report is there.
source "$(dirname "$0")/lib.bash"

require_loop
head -c $((64 << 20)) /dev/urandom >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
before=$(queue_snapshot "$dev")
throttle_loop "$dev" 20971520 400
cg=$throttle_cgroup
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
"$DISKTUNE" tune "$dev" --only read_ahead_kb --strategy one-at-a-time --max-trials 3 --duration 1 \
  --journal "$WORK/j" --report "$WORK/r.json" >"$WORK/out" 2>"$WORK/err" &
tune=$!
cleanup_steps=("kill -9 $tune 2>/dev/null || true" "${cleanup_steps[@]}")
unthrottle_now() { echo "$mm 1073741824" >"$cg/blkio.throttle.read_bps_device"; echo "$mm 1000000" >"$cg/blkio.throttle.read_iops_device"; }
cleanup_steps=("unthrottle_now 2>/dev/null || true" "${cleanup_steps[@]}")
# Slow the device to 2 reads a second once the first search trial is under way.
for _ in $(seq 300); do grep -q "trial 1" "$WORK/err" 2>/dev/null && break; sleep 0.1; done
grep -q "trial 1" "$WORK/err" || fail "no search trial started: $(tail -3 "$WORK/err")"
sleep 0.5
echo "$mm 20480" >"$cg/blkio.throttle.read_bps_device"
echo "$mm 2" >"$cg/blkio.throttle.read_iops_device"
# The run ends (the journal's end record) and the report must follow while the device is slow.
got=
for _ in $(seq 1200); do
  [ -s "$WORK/r.json" ] && { got=yes; break; }
  kill -0 "$tune" 2>/dev/null || break
  sleep 0.1
done
state=$(awk '{print $3}' "/proc/$tune/stat" 2>/dev/null || echo gone)
unthrottle_now
code=0
wait "$tune" || code=$?
[ -n "$got" ] || fail "no report while the device was slow (the tune was in state $state; exit $code): $(tail -3 "$WORK/err")"
jq -e '.restored == true' "$WORK/r.json" >/dev/null || fail "the report does not say restored: $(jq -c '{restored, restore_detail}' "$WORK/r.json")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the slow trial"
echo "ok: report written while the last close waited (state $state), exit $code"
