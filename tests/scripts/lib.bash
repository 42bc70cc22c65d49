# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the script tests (sourced). DISKTUNE, SHARED_DATA and TEST_DATA come from ctest.
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

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }

# require_loop: skip unless loop devices can be created (root, losetup).
require_loop() {
  [ "$(id -u)" -eq 0 ] || skip "needs root to create a loop device"
  command -v losetup >/dev/null || skip "losetup not installed"
}

# attach_loop IMAGE: set `dev` to a new loop device over IMAGE, detached on every exit path.
attach_loop() {
  require_loop
  dev=$(losetup -f --show "$1") || skip "losetup could not create a loop device"
  cleanup_steps+=("losetup -d '$dev'")
}

# queue_snapshot DEVICE: every block-layer value disktune may change on it (sysfs queue files
# and the BLKRAGET readahead), one per line.
queue_snapshot() {
  local q=/sys/block/$(basename "$1")/queue
  cat "$q/read_ahead_kb" "$q/scheduler" "$q/nr_requests" "$q/max_sectors_kb"
  echo "getra $(blockdev --getra "$1")"
}
