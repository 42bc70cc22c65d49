#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The disk that backs / is refused before it is opened; a partition and a non-block path too.
source "$(dirname "$0")/lib.bash"

root_source=$(findmnt -no SOURCE / 2>/dev/null || true)
[ -b "$root_source" ] || skip "/ is not on a block device here ($root_source)"
root_disk=/dev/$(lsblk -no PKNAME "$root_source" 2>/dev/null | head -1)
[ "$root_disk" = /dev/ ] && root_disk=$root_source
set +e; "$DISKTUNE" tune "$root_disk" >"$WORK/out" 2>"$WORK/err"; code=$?; set -e
expect_eq "$code" 2 "exit code for the disk that backs /"
grep -q "mounted on /" "$WORK/err" || fail "the refusal does not say why: $(cat "$WORK/err")"

set +e; "$DISKTUNE" tune "$WORK" >/dev/null 2>"$WORK/err"; code=$?; set -e
expect_eq "$code" 3 "exit code for a directory"
grep -q "block device" "$WORK/err" || fail "no 'not a block device' reason: $(cat "$WORK/err")"
echo ok
