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
