#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A report's change the device cannot hold in the state apply would leave it in (a scheduler
# tunable under another scheduler: fifo_batch with the device on `none`, or read_expire with a
# scheduler=none change) is refused naming it, exit 3, nothing written, no journal; it was
# dropped silently and "applied (every value read back)" claimed, exit 0.
source "$(dirname "$0")/lib.bash"

truncate -s 16M "$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
grep -qw mq-deadline "$q/scheduler" || skip "no mq-deadline scheduler"
found=$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")
cleanup_steps+=("echo $found >'$q/scheduler'")
echo none >"$q/scheduler"
before=$(queue_snapshot "$dev")

unheld() {  # unheld CHANGES_JSON SETTING: apply refuses the report making CHANGES_JSON, naming SETTING
  loop_report "$dev" "$WORK/disk.img" "$1" >"$WORK/r.json"
  local code=0
  timeout 20 "$DISKTUNE" apply "$WORK/r.json" >"$WORK/a.out" 2>"$WORK/a.err" || code=$?
  journal=$(sed -n 's/.*; journal \(.*\); .disktune restore.*/\1/p' "$WORK/a.out")
  [ -z "$journal" ] || cleanup_steps+=("rm -f '$journal' '$journal'.*")
  expect_eq "$code" 3 "apply of $1 ($(cat "$WORK/a.out" "$WORK/a.err"))"
  grep -q "$WORK/r.json: .*$2=.* is a tunable of mq-deadline" "$WORK/a.err" || fail "apply of $1 said: $(cat "$WORK/a.err")"
  expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the refused apply of $1"
}
unheld '{"fifo_batch": 3}' fifo_batch
unheld '{"scheduler": "none", "read_expire": 300}' read_expire
echo "ok: unheld changes refused (${SECONDS} s)"
