#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The queue knobs of current kernels on a loop device: plan lists nomerges, rq_affinity and
# each scheduler's read-side tunables (only under their scheduler, write-side ones left alone),
# queue_depth unsupported (no SCSI device);
# a bounded tune over them restores every value as found; so does `disktune restore` after a
# kill -9 mid-trial. Every value starts off its default, so a reset would show.
source "$(dirname "$0")/lib.bash"

attach_deadline_loop
for s in bfq kyber none; do grep -qw "$s" "$q/scheduler" || skip "no $s scheduler"; done
echo 1 >"$q/nomerges"
echo 2 >"$q/rq_affinity"
echo 8 >"$q/iosched/fifo_batch"
before=$(queue_snapshot "$dev")
knobs=scheduler,nomerges,rq_affinity,fifo_batch,read_expire,low_latency,slice_idle,read_lat_nsec

"$DISKTUNE" plan "$dev" >"$WORK/plan.txt" 2>&1 || fail "plan failed: $(tail -3 "$WORK/plan.txt")"
grep -q '^  nomerges: 0 1 2$' "$WORK/plan.txt" || fail "plan lacks nomerges 0-2: $(cat "$WORK/plan.txt")"
grep -q '^  rq_affinity: 0 1 2$' "$WORK/plan.txt" || fail "plan lacks rq_affinity 0-2"
grep -q '^  fifo_batch: 1 4 8 16 64$' "$WORK/plan.txt" || fail "plan lacks fifo_batch with the value as found"
grep -q '^  read_lat_nsec: ' "$WORK/plan.txt" || fail "plan lacks kyber's read_lat_nsec"
grep -q 'x low_latency only under bfq' "$WORK/plan.txt" || fail "plan does not say low_latency exists only under bfq"
grep -q 'iosched/write_expire (mq-deadline): ' "$WORK/plan.txt" || fail "plan does not say why write_expire is left alone"
# A loop device has no SCSI device: queue_depth is unsupported, the missing file its reason.
grep -q '^  queue_depth: unsupported: .*device/queue_depth' "$WORK/plan.txt" || fail "plan does not report queue_depth unsupported"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue after plan (its probes write nr_requests and switch schedulers)"

set +e
"$DISKTUNE" tune "$dev" --only "$knobs" --max-trials 6 --duration 0.2 --repeats 2 --max-repeats 2 \
  --report "$WORK/r.json" --journal "$WORK/j1" >"$WORK/tune.txt" 2>"$WORK/tune.err"
code=$?
set -e
[ "$code" -le 1 ] || [ "$code" = 6 ] || fail "tune exited $code ($(tail -5 "$WORK/tune.err"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "every queue value after the tune"
jq -e '.space.dimensions | map(.setting) | index("low_latency") != null' "$WORK/r.json" >/dev/null ||
  fail "the report's space lacks low_latency"
jq -e '[.trials[].settings | select(.scheduler != "bfq" and has("low_latency"))] | length == 0' "$WORK/r.json" >/dev/null ||
  fail "a trial set low_latency under another scheduler than bfq"

kill_tune_in_trial "$dev" --only scheduler,nomerges,fifo_batch,low_latency --strategy exhaustive \
  --duration 0.2 --repeats 2 --max-repeats 2 --journal "$WORK/j2"
# Whatever the trial left, change everything, as a second tool might.
echo 0 >"$q/nomerges"
echo 0 >"$q/rq_affinity"
echo bfq >"$q/scheduler"
echo 0 >"$q/iosched/low_latency"
set +e
"$DISKTUNE" restore "$dev" --journal "$WORK/j2" >"$WORK/restore.txt" 2>&1
code=$?
set -e
expect_eq "$code" 0 "restore exit code ($(tail -3 "$WORK/restore.txt"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "every queue value after kill -9 and restore"
echo ok
