#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A device smaller than one measurement chunk (2 MiB, as bench and the trials read) is
# refused at once with that reason: exit 2 within seconds, no journal,
# no capability probe, every queue setting as before.
source "$(dirname "$0")/lib.bash"

truncate -s 1M "$WORK/tiny.img"
attach_loop "$WORK/tiny.img"
before=$(queue_snapshot "$dev")
for cmd in tune bench; do
  journal=()
  [ "$cmd" = tune ] && journal=(--journal "$WORK/$cmd.journal")
  set +e
  SECONDS=0
  timeout -k 5 20 "$DISKTUNE" $cmd "$dev" --duration 0.2 "${journal[@]}" >"$WORK/out" 2>"$WORK/err"
  got=$?
  set -e
  expect_eq "$got" 2 "$cmd on a 1 MiB device ($(cat "$WORK/err"))"
  grep -q "less than one measurement chunk (2 MiB)" "$WORK/err" || fail "$cmd: the reason is not given: $(cat "$WORK/err")"
  [ "$SECONDS" -le 5 ] || fail "$cmd took $SECONDS s to refuse a 1 MiB device"
  [ ! -e "$WORK/$cmd.journal" ] || fail "$cmd created a journal for a device it cannot measure"
  expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after $cmd"
done
echo ok
