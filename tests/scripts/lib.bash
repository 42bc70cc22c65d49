# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the script tests (sourced). DISKTUNE and TEST_DATA come from ctest.
set -euo pipefail

: "${DISKTUNE:?run through ctest}"
WORK=$(mktemp -d)
cleanup_steps=()
on_exit() {
  local status=$?
  for step in "${cleanup_steps[@]}"; do eval "$step" || true; done
  rm -rf "$WORK"
  exit $status
}
trap on_exit EXIT
# A signal alone (Ctrl-C, kill) would skip the EXIT trap and leak loop devices and mounts. (CTest's
# timeout sends SIGKILL, which no trap sees: CMake 3.25 cannot ask for SIGTERM first.)
trap 'exit 130' INT; trap 'exit 143' TERM HUP

# tune_completed CMD...: run a tune; true when it completed: an answer (0) or too noisy for
# one (6: a memory-speed loop device's noise often exceeds the 2 % gain the winner rule needs).
# Only for tests that check the trials, restores and journals, which a run without an answer
# has as well; a test that checks the answer uses a device whose rates it sets (throttle.bash).
tune_completed() {
  local code=0
  "$@" || code=$?
  [ "$code" = 0 ] || [ "$code" = 6 ] || { echo "tune exited $code" >&2; return 1; }
}
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# tuned_python: print the Python that imports TuneD's profile loader and disk plugin (Debian's
# tuned package installs them for /usr/bin/python3, which may not be the python3 on PATH); false when none.
tuned_python() {
  local candidate
  for candidate in /usr/bin/python3 python3; do
    if "$candidate" -c 'import tuned.profiles.loader, tuned.plugins.plugin_disk' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }

# require_loop: skip unless loop devices can be created (root, losetup).
require_loop() {
  [ "$(id -u)" -eq 0 ] || skip "needs root to create a loop device"
  command -v losetup >/dev/null || skip "losetup not installed"
}

# own_loop DEV [first]: detach loop device DEV on every exit path (before the other steps with
# `first`), but only while it is still over the backing file it has now: a test may detach it
# itself, and another command may take the number as soon as it is free (CI saw a concurrent
# attach reuse a freed number; detaching by number would take that device away).
own_loop() {
  local backing step
  backing=$(cat "/sys/block/${1#/dev/}/loop/backing_file")
  step="detach_if_over '$1' '$backing'"
  if [ "${2:-}" = first ]; then cleanup_steps=("$step" "${cleanup_steps[@]}"); else cleanup_steps+=("$step"); fi
}

# detach_if_over DEV BACKING: detach DEV when its backing file is BACKING (own_loop's step).
detach_if_over() {
  [ "$(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null)" = "$2" ] || return 0
  losetup -d "$1"
}

# attach_loop IMAGE: set `dev` to a new loop device over IMAGE, detached on every exit path.
attach_loop() {
  require_loop
  dev=$(losetup -f --show "$1") || skip "losetup could not create a loop device"
  own_loop "$dev"
}

# attach_ext4_loop SIZE: set `dev` to a new loop device over an image of SIZE holding an ext4
# made before the loop device exists (nothing writes to the device under test); skips without mkfs.ext4.
attach_ext4_loop() {
  require_loop
  command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
  truncate -s "$1" "$WORK/disk.img"
  mkfs.ext4 -q -F "$WORK/disk.img" || skip "mkfs.ext4 failed"
  attach_loop "$WORK/disk.img"
}

# attach_emulated NAME EMUDISK-OPTIONS...: set `dev` to an EMULATED disk (scripts/emulated-disk:
# emudisk, a drive model behind a FUSE file, under a read-only direct-I/O loop device) in
# $WORK/NAME, and `q` to its queue/ directory; put away (queue settings restored) on every exit
# path. Skips without root, /dev/fuse, the emudisk binary (EMUDISK, from ctest) or fio.
attach_emulated() {
  local name=$1 emulated
  shift
  require_loop
  [ -c /dev/fuse ] || skip "/dev/fuse is missing"
  [ -n "${EMUDISK:-}" ] && [ -x "$EMUDISK" ] || skip "emudisk not built (libfuse3-dev missing at configure time)"
  command -v fio >/dev/null || skip "fio not installed"
  emulated=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/emulated-disk
  cleanup_steps+=("'$emulated' detach '$WORK/$name'")
  dev=$("$emulated" attach "$WORK/$name" "$@") || skip "could not attach an emulated disk: see above"
  q=/sys/block/$(basename "$dev")/queue
}

# emulated_left DEV NAME: true when loop device DEV is still the one attach_emulated NAME made: its
# backing file is $WORK/NAME's disk.img, or "/disk.img" once emudisk's mount is gone. A device
# name alone proves nothing: another command (a tune, a second emulated disk) may take the loop
# number as soon as a detach frees it (CI saw "/dev/loop2 left" from a concurrent attach).
emulated_left() {
  local backing
  backing=$(cat "/sys/block/${1#/dev/}/loop/backing_file" 2>/dev/null) || return 1
  [ "$backing" = "$WORK/$2/mnt/disk.img" ] || [ "$backing" = /disk.img ]
}

# attach_readahead_loop MIB: set `dev` to a new loop device over an empty MIB MiB $WORK/disk.img,
# `q` to its queue/ directory, `found` to its read_ahead_kb (put back on every exit path: a loop
# device keeps its queue settings after it is detached) and `ra` to another value for a report
# to change it to.
attach_readahead_loop() {
  truncate -s "$1M" "$WORK/disk.img"
  attach_loop "$WORK/disk.img"
  q=/sys/block/$(basename "$dev")/queue
  found=$(cat "$q/read_ahead_kb")
  cleanup_steps+=("echo $found >'$q/read_ahead_kb'")
  ra=$((found == 1024 ? 2048 : 1024))
}

# attach_random_loop MIB: set `dev` to a new loop device over MIB MiB of random data in
# $WORK/disk.img (1 MiB repeated: cheap to make, never all in one page-cache window).
attach_random_loop() {
  head -c 1048576 /dev/urandom >"$WORK/block"
  for _ in $(seq "$1"); do cat "$WORK/block"; done >"$WORK/disk.img"
  attach_loop "$WORK/disk.img"
}

# attach_iops_capped_loop MIB: set `dev` to a new loop device over MIB MiB of random data,
# started at max_sectors_kb 128 and capped at 400 IOPS and 200 MB/s (this shell joins the
# throttle: unthrottle ends it), where 128 KiB requests read about a quarter of the best rate:
# a knob with a known optimum (tune_throttled_optimum.sh). `q` is its queue/ directory,
# `before` its queue_snapshot. A loop device keeps its queue settings after it is detached,
# so the max_sectors_kb found is put back on every exit path.
attach_iops_capped_loop() {
  attach_random_loop "$1"
  q=/sys/block/$(basename "$dev")/queue
  local found
  found=$(cat "$q/max_sectors_kb")
  cleanup_steps+=("echo $found >'$q/max_sectors_kb'")
  echo 128 >"$q/max_sectors_kb"
  before=$(queue_snapshot "$dev")
  throttle_loop "$dev" 200000000 400
}

# tune_capped_winner: on a loop device from attach_iops_capped_loop, a bounded tune of
# max_sectors_kb with its report in $WORK/r.json and journal in $WORK/tune.journal; the shell
# leaves the throttle after it. Sets `winner` (the answer's max_sectors_kb); fails without one.
tune_capped_winner() {
  "$DISKTUNE" tune "$dev" --only max_sectors_kb --duration 0.1 --repeats 2 --max-repeats 3 --noise-repeats 1 \
    --journal "$WORK/tune.journal" --report "$WORK/r.json" >"$WORK/tune.out" 2>"$WORK/tune.err" ||
    fail "tune exited $? ($(tail -3 "$WORK/tune.err"))"
  unthrottle
  winner=$(jq -r '.winner.changes.max_sectors_kb // empty' "$WORK/r.json")
  [ -n "$winner" ] || fail "the tune found no winner: $(jq -c .winner "$WORK/r.json")"
}

# attach_deadline_loop: set `dev` to a new 32 MiB loop device (image in $WORK) and `q` to its
# queue/ directory, under mq-deadline with read_expire 200 ms (off its default 500; a
# multiple of 4 ms, which every HZ keeps exactly). Skips without mq-deadline.
attach_deadline_loop() {
  truncate -s 32M "$WORK/deadline.img"
  attach_loop "$WORK/deadline.img"
  q=/sys/block/$(basename "$dev")/queue
  grep -qw mq-deadline "$q/scheduler" || skip "no mq-deadline scheduler"
  echo mq-deadline >"$q/scheduler"
  echo 200 >"$q/iosched/read_expire"
  expect_eq "$(cat "$q/iosched/read_expire")" 200 "read_expire as set"
}

# kill_tune_in_trial ARGS...: `disktune tune ARGS` in its own process group (stdout and stderr
# in $WORK/out.txt and err.txt), killed -9 with its trial child once a trial has started.
kill_tune_in_trial() {
  setsid "$DISKTUNE" tune "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" &
  local pid=$!
  cleanup_steps+=("kill -9 -- -$pid 2>/dev/null")
  for _ in $(seq 300); do
    grep -q 'trial [0-9]' "$WORK/err.txt" 2>/dev/null && break
    sleep 0.1
  done
  grep -q 'trial [0-9]' "$WORK/err.txt" || fail "no trial started ($(tail -3 "$WORK/err.txt"))"
  kill -9 -- -"$pid"
  wait "$pid" 2>/dev/null || true
  # A child that outlives its killed parent by design (the one that puts the settings back)
  # may still be writing them: the caller's own changes come after it has ended.
  for _ in $(seq 100); do pgrep -f -- "$DISKTUNE tune .*$WORK/" >/dev/null || break; sleep 0.1; done
}

# queue_snapshot DEVICE: every block-layer value disktune may change on it (sysfs queue files
# and the BLKRAGET readahead, the active scheduler's iosched/ tunables), one per line.
queue_snapshot() {
  local q=/sys/block/$(basename "$1")/queue
  cat "$q/read_ahead_kb" "$q/scheduler" "$q/nr_requests" "$q/max_sectors_kb" "$q/nomerges" "$q/rq_affinity"
  [ ! -d "$q/iosched" ] || grep -H . "$q"/iosched/* | sed 's|.*/iosched/|iosched/|'
  echo "getra $(blockdev --getra "$1")"
}

# throttle_loop DEVICE BPS [IOPS]: make DEVICE (a loop device this test attached) read like a
# disk: a cgroup v1 blkio cgroup caps reads at BPS bytes/s (and IOPS requests/s: the cap
# counts requests after splitting, so request size matters as on a real disk), and this shell
# (with every child it starts from now on) joins it. Call it from the test's main shell, not
# a subshell. Skips when cgroup v1 blkio is missing. unthrottle ends it; so does the exit.
# docs/architecture.md "A disk-speed device on demand".
throttle_loop() {
  local root=/sys/fs/cgroup/blkio mm
  [ -w "$root/cgroup.procs" ] || skip "cgroup v1 blkio not mounted at $root"
  unthrottle
  mm=$(lsblk -dno MAJ:MIN "$1" | tr -d ' ')
  throttle_cgroup=$root/disktune-test-$$-${#cleanup_steps[@]}
  mkdir "$throttle_cgroup"
  cleanup_steps+=("unthrottle")
  echo "$mm $2" >"$throttle_cgroup/blkio.throttle.read_bps_device"
  [ -z "${3:-}" ] || echo "$mm $3" >"$throttle_cgroup/blkio.throttle.read_iops_device"
  echo $$ >"$throttle_cgroup/cgroup.procs"
}

# unthrottle: this shell leaves the throttle cgroup, which is removed (once its processes
# have ended). Does nothing without one.
unthrottle() {
  [ -n "${throttle_cgroup:-}" ] || return 0
  echo $$ >/sys/fs/cgroup/blkio/cgroup.procs
  for _ in $(seq 25); do rmdir "$throttle_cgroup" 2>/dev/null && break; sleep 0.2; done
  throttle_cgroup=
}

# device_read_bytes DEVICE: bytes DEVICE has read (sectors read in /sys/block/NAME/stat x
# 512; a reused loop device keeps counting: take differences).
device_read_bytes() {
  echo $(($(awk '{ print $3 }' "/sys/block/$(basename "$1")/stat") * 512))
}

# device_holders DEVICE: the /proc paths of the processes that have DEVICE open, one a line.
device_holders() {
  local fd
  for fd in /proc/[0-9]*/fd/*; do
    if [ "$(readlink "$fd" 2>/dev/null)" = "$1" ]; then echo "${fd%/fd/*}"; fi
  done | sort -u
}

# loop_report DEVICE FILE CHANGES_JSON [BASELINE_JSON]: a completed schema-3 report of the loop
# device DEVICE over FILE whose winner makes CHANGES_JSON ('{"read_ahead_kb": 512}'), on stdout:
# input for apply and verify without a tune. Its baseline is the device's queue as it is now
# (read_ahead_kb, max_sectors_kb, nr_requests, the active scheduler), BASELINE_JSON over it; its
# space lists each changed setting with the baseline's value and the change, as a tune's would
# (apply refuses a winner its space does not hold).
loop_report() {
  local size q
  size=$(blockdev --getsize64 "$1")
  q=/sys/block/$(basename "$1")/queue
  jq -n --arg p "$1" --arg f "$2" --argjson s "$size" --argjson c "$3" --argjson over "${4:-{\}}" \
    --argjson ra "$(cat "$q/read_ahead_kb")" --argjson ms "$(cat "$q/max_sectors_kb")" \
    --argjson nr "$(cat "$q/nr_requests")" --arg sched "$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")" '
    ({read_ahead_kb: $ra, max_sectors_kb: $ms, nr_requests: $nr, scheduler: $sched} + $over) as $base |
    {schema_version: 3, completed: true,
     device: {path: $p, model: "", serial: "", firmware: "", simulated: false, size_bytes: $s, wwid: null, backing_file: $f},
     space: {dimensions: [$c | to_entries[] | {setting: .key, values: ([$base[.key], .value] | map(select(. != null)) | unique)}]},
     baseline: {settings: $base}, winner: {keep_baseline: false, changes: $c}}'
}

# journal_records JOURNAL: its records' JSON, one per line (a torn or absent tail left out).
journal_records() { [ ! -e "$1" ] || cut -d' ' -f4- "$1" | jq -c -R 'fromjson? | select(.type != null)'; }
