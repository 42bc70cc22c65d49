#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A real uninterruptible hang: a loop device over a FUSE file whose reads block on demand.
# disktune must see a child stuck in state D, mark the device wedged, leave it alone and exit 5
# within its limits; then the test aborts the FUSE connection to free everything. Two runs:
# "baseline" blocks from the start (explicit --stall-timeout), "search" blocks after trials
# (stall limit derived from the baseline's rate).
source "$(dirname "$0")/lib.bash"

[ "$(id -u)" -eq 0 ] || skip "needs root (FUSE mount, loop device, fusectl)"
[ -c /dev/fuse ] || skip "/dev/fuse is missing"
[ -n "${BLOCKFUSE:-}" ] && [ -x "$BLOCKFUSE" ] || skip "blockfuse not built (libfuse3-dev missing at configure time)"

trial_timeout=20
fuse_pid="" dev="" conn="" mnt="" flag=""
# Cleanup in dependency order: free the blocked requests first, or detaching or unmounting
# could wait on them.
release() {
  if [ -n "$conn" ] && [ -e "/sys/fs/fuse/connections/$conn/abort" ]; then
    echo 1 >"/sys/fs/fuse/connections/$conn/abort" || true
  fi
  if [ -n "$flag" ]; then rm -f "$flag"; fi
  if [ -n "$dev" ]; then losetup -d "$dev" || true; fi
  # After an abort the mount point answers ENOTCONN (mountpoint -q fails): ask /proc/mounts.
  if [ -n "$mnt" ] && grep -q " $mnt " /proc/mounts; then umount -l "$mnt" || true; fi
  if [ -n "$fuse_pid" ]; then
    kill "$fuse_pid" 2>/dev/null || true
    wait "$fuse_pid" 2>/dev/null || true
  fi
  fuse_pid="" dev="" conn="" mnt="" flag=""
}
cleanup_steps+=("release")

# setup NAME: mount blockfuse under $WORK/NAME and put a read-only loop device over its file.
setup() {
  mnt="$WORK/$1/mnt" flag="$WORK/$1/block"
  mkdir -p "$mnt"
  "$BLOCKFUSE" "$flag" "$mnt" -f 2>"$WORK/$1/fuse.err" &
  fuse_pid=$!
  for _ in $(seq 50); do [ -e "$mnt/disk.img" ] && break; sleep 0.1; done
  [ -e "$mnt/disk.img" ] || skip "FUSE mount failed: $(cat "$WORK/$1/fuse.err")"
  conn=$(stat -c %d "$mnt")
  if [ ! -d "/sys/fs/fuse/connections/$conn" ]; then
    mountpoint -q /sys/fs/fuse/connections || mount -t fusectl none /sys/fs/fuse/connections ||
      skip "cannot mount fusectl"
  fi
  [ -e "/sys/fs/fuse/connections/$conn/abort" ] || skip "no fusectl entry for connection $conn"
  # Direct I/O off: the loop device reads disk.img through read(), which FUSE (direct_io)
  # passes to blockfuse every time; disktune flushes the loop's page cache (BLKFLSBUF) first.
  dev=$(losetup -r -f --show --direct-io=off "$mnt/disk.img") || skip "losetup failed"
}

state_of() { sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null || echo gone; }

# finish NAME PID BLOCKED_MS: wait for disktune (never blindly: if it got stuck itself, fail and
# let the trap abort the connection), check exit 5, the report and the D-state child, then
# abort the FUSE connection and check that the child goes away.
finish() {
  local name=$1 pid=$2 blocked_ms=$3 code deadline=$((SECONDS + trial_timeout + 40)) seen_d=""
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do
    # A trial child blocked in a read of the loop device shows state D (killable or not).
    for c in $(pgrep -P "$pid" || true); do [ "$(state_of "$c")" = D ] && seen_d+=" $c"; done
    sleep 0.1
  done
  [ -n "$seen_d" ] || fail "$name: no child of disktune was ever seen in state D"
  kill -0 "$pid" 2>/dev/null && fail "$name: disktune still running (state $(state_of "$pid"))"
  set +e; wait "$pid"; code=$?; set -e
  local took_ms=$(($(date +%s%N) / 1000000 - blocked_ms))
  echo "$name: disktune ended ${took_ms} ms after reads started blocking (exit $code)"
  cat "$WORK/$name/err.txt"
  expect_eq "$code" 5 "$name: exit code of a wedged run"
  # Worst case: stall (<= timeout) + 2 s grace, then one watched restore (<= stall + 2 s).
  ((took_ms < (2 * trial_timeout + 10) * 1000)) || fail "$name: took ${took_ms} ms to give up"
  grep -q "is wedged" "$WORK/$name/err.txt" || fail "$name: no wedged message on stderr"
  local r="$WORK/$name/r.json" detail
  expect_eq "$(jq -r .wedged "$r")" true "$name: report wedged"
  detail=$(jq -r .wedged_detail "$r")
  # Either a child stayed in state D after SIGKILL, or the killed child's reads never
  # drained; then a keeper child makes the device's last close, which waits on them.
  child=$(sed -n 's/.*pid \([0-9]*\) still in state D.*/\1/p' <<<"$detail")
  # The one restore attempt can itself stick (a queue write waits for the stuck reads): that
  # child then holds the device open, so it, not the keeper, is what stays in state D.
  [ -n "$child" ] || child=$(jq -r .restore_detail "$r" | sed -n 's/.*pid \([0-9]*\) still in state D.*/\1/p')
  if [ -z "$child" ]; then
    grep -q "read(s) of $dev still in flight" <<<"$detail" || fail "$name: wedged_detail names no cause: $detail"
    child=$(sed -n 's/.*keeper pid \([0-9]*\) makes the.*/\1/p' <<<"$detail")
    [ -n "$child" ] || fail "$name: no keeper pid in wedged_detail: $detail"
  fi
  # What disktune left behind really is in uninterruptible sleep, on the device.
  expect_eq "$(state_of "$child")" D "$name: state of the process left behind ($child)"
  echo 1 >"/sys/fs/fuse/connections/$conn/abort"
  local s
  for _ in $(seq 100); do
    s=$(state_of "$child")
    [ "$s" = gone ] || [ "$s" = Z ] && break
    sleep 0.1
  done
  [ "$s" = gone ] || [ "$s" = Z ] || fail "$name: child $child still in state $s after the FUSE abort"
}

# Run 1: every read blocks from the start; the baseline's trial child stalls in a read.
mkdir "$WORK/baseline"
setup baseline
touch "$flag"
"$DISKTUNE" tune "$dev" --journal "$WORK/baseline/j" --duration 0.3 --repeats 2 --trial-timeout "$trial_timeout" --stall-timeout 3 \
  --report "$WORK/baseline/r.json" >"$WORK/baseline/out.txt" 2>"$WORK/baseline/err.txt" &
finish baseline $! "$(($(date +%s%N) / 1000000))"
# A buffered read waits killably, so the baseline child dies of SIGKILL, but its requests stay
# in flight: that is what marks the device wedged.
jq -r .wedged_detail "$WORK/baseline/r.json" | grep -q "^baseline: stalled: no progress for 3.0 s" ||
  fail "baseline: wedged_detail $(jq -r .wedged_detail "$WORK/baseline/r.json")"
expect_eq "$(jq '.trials | length' "$WORK/baseline/r.json")" 0 "baseline: trials after a wedged baseline"
release

# Run 2: blocking starts after three trials; the stall limit comes from the baseline's rate.
mkdir "$WORK/search"
setup search
"$DISKTUNE" tune "$dev" --journal "$WORK/search/j" --duration 0.3 --repeats 2 --trial-timeout "$trial_timeout" \
  --report "$WORK/search/r.json" >"$WORK/search/out.txt" 2>"$WORK/search/err.txt" &
tune_pid=$!
for _ in $(seq 600); do
  [ "$(grep -c 'trial [0-9]*:' "$WORK/search/err.txt" 2>/dev/null)" -ge 3 ] && break
  kill -0 "$tune_pid" 2>/dev/null || break
  sleep 0.05
done
[ "$(grep -c 'trial [0-9]*:' "$WORK/search/err.txt")" -ge 3 ] || fail "no trials before blocking: $(cat "$WORK/search/err.txt")"
touch "$flag"
finish search "$tune_pid" "$(($(date +%s%N) / 1000000))"
expect_eq "$(jq -r '.trials[-1].status' "$WORK/search/r.json")" wedged "search: the last trial"
expect_eq "$(jq '[.trials[] | select(.status == "wedged")] | length' "$WORK/search/r.json")" 1 "search: wedged trials"
echo ok
