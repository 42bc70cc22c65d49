#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One command per device, whatever path names it: while a tune runs on a
# loop device, tune, restore, identify, plan and bench through a second node made with mknod
# (another inode, the same major:minor) or a symlink are refused at once naming the holder's
# pid, and none of them changes a queue setting.
source "$(dirname "$0")/lib.bash"

require_loop
truncate -s 64M "$WORK/disk.img"
attach_loop "$WORK/disk.img"
mknod "$WORK/node" b "$((16#$(stat -L -c %t "$dev")))" "$((16#$(stat -L -c %T "$dev")))"
ln -s "$dev" "$WORK/link"
before=$(queue_snapshot "$dev")
untouched() { queue_snapshot "$dev" | sed -n 2,4p; }  # scheduler, nr_requests, max_sectors_kb

# The tune only changes read_ahead_kb: every other queue value must stay as it is.
"$DISKTUNE" tune "$dev" --only read_ahead_kb --duration 0.5 --repeats 1 --max-repeats 1 --max-trials 2 \
  --journal "$WORK/first.journal" >"$WORK/tune.out" 2>"$WORK/tune.err" &
tune_pid=$!
cleanup_steps=("kill $tune_pid 2>/dev/null; wait $tune_pid" "${cleanup_steps[@]}")
for _ in $(seq 300); do grep -q 'journal ' "$WORK/tune.err" && break; kill -0 $tune_pid 2>/dev/null || break; sleep 0.1; done
grep -q 'journal ' "$WORK/tune.err" || fail "the first tune did not start: $(cat "$WORK/tune.err")"
kill -0 $tune_pid || fail "the first tune ended before the test ran"
settled=$(untouched)

# A sampler of nr_requests and the scheduler while the other commands are refused.
( while kill -0 $tune_pid 2>/dev/null; do untouched | tr '\n' ' '; echo; sleep 0.005; done ) >"$WORK/samples" &
sampler=$!

refused() {  # refused ARGS...: exit 2 within seconds, naming the device and the holder's pid
  set +e; timeout -k 5 20 "$DISKTUNE" "$@" >"$WORK/out" 2>"$WORK/err"; local got=$?; set -e
  [ "$got" = 2 ] || fail "disktune $* ran next to a running tune: exit $got ($(cat "$WORK/err"))"
  grep -q "in use by another disktune command: pid $tune_pid (.*tune" "$WORK/err" ||
    fail "disktune $*: the refusal does not name the holder: $(cat "$WORK/err")"
}
start=$(date +%s)
refused tune "$WORK/node" --only read_ahead_kb --duration 0.2 --journal "$WORK/second.journal"
refused tune "$WORK/link" --only read_ahead_kb --duration 0.2 --journal "$WORK/third.journal"
refused identify "$WORK/node"
refused plan "$WORK/node"
refused plan "$WORK/link" --json
refused bench "$WORK/node" --duration 0.2 --repeats 1
refused restore "$WORK/node" --journal "$WORK/second.journal"
[ $(( $(date +%s) - start )) -le 10 ] || fail "the refusals took more than 10 s"
kill -0 $tune_pid || fail "the first tune ended before every refusal was checked (the test proves nothing)"
expect_eq "$(untouched)" "$settled" "queue settings after the refused commands"
kill $sampler 2>/dev/null || true; wait $sampler 2>/dev/null || true
distinct=$(sort -u "$WORK/samples" | grep -c . || true)
[ "$distinct" -le 1 ] || fail "a queue setting changed while the commands were refused: $(sort -u "$WORK/samples")"
[ -e "$WORK/second.journal" ] && fail "a refused tune created its journal"

for _ in $(seq 1200); do kill -0 $tune_pid 2>/dev/null || break; sleep 0.1; done
kill -0 $tune_pid 2>/dev/null && fail "the first tune did not end within 120 s"
set +e; wait $tune_pid; status=$?; set -e
# 0, or 6 (too noisy: a memory-speed loop device's noise can exceed the 2 % gain): completed.
[ "$status" = 0 ] || [ "$status" = 6 ] || fail "the first tune's exit $status ($(tail -3 "$WORK/tune.err"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the tune"
# Once the holder is gone the device is free again, through any of its names.
timeout -k 5 20 "$DISKTUNE" plan "$WORK/node" >/dev/null || fail "plan through the second node fails after the tune ended"
echo ok
