#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A report's change the device cannot hold in the state apply would leave it in (a scheduler
# tunable under another scheduler: fifo_batch of a tune on mq-deadline, the device on `none` now)
# is refused naming it, exit 3, nothing written, no journal; it was dropped silently and
# "applied (every value read back)" claimed, exit 0. A winner that is itself such a state
# (read_expire with a scheduler=none change) is refused as the report is read, exit 2.
source "$(dirname "$0")/lib.bash"

truncate -s 16M "$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
grep -qw mq-deadline "$q/scheduler" || skip "no mq-deadline scheduler"
found=$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")
cleanup_steps+=("echo $found >'$q/scheduler'")
echo none >"$q/scheduler"
before=$(queue_snapshot "$dev")

unheld() {  # unheld CHANGES_JSON SETTING [BASELINE_JSON]: apply refuses the report making CHANGES_JSON, naming SETTING
  loop_report "$dev" "$WORK/disk.img" "$1" "${3:-{\}}" >"$WORK/r.json"
  local code=0
  timeout 20 "$DISKTUNE" apply "$WORK/r.json" >"$WORK/a.out" 2>"$WORK/a.err" || code=$?
  journal=$(sed -n 's/.*; journal \(.*\); .[^ ]*disktune restore.*/\1/p' "$WORK/a.out")
  [ -z "$journal" ] || cleanup_steps+=("rm -f '$journal' '$journal'.*")
  expect_eq "$code" 3 "apply of $1 ($(cat "$WORK/a.out" "$WORK/a.err"))"
  grep -q "$WORK/r.json: .*$2=.* is a tunable of mq-deadline" "$WORK/a.err" || fail "apply of $1 said: $(cat "$WORK/a.err")"
  expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the refused apply of $1"
}
# The tune read mq-deadline; the device runs none now: the report is whole, the device is not.
unheld '{"fifo_batch": 3}' fifo_batch '{"scheduler": "mq-deadline", "fifo_batch": 16}'
# A winner that switches to none and sets mq-deadline's read_expire is no configuration a tune
# applies: refused as the report is read (exit 2), before any device is looked at.
loop_report "$dev" "$WORK/disk.img" '{"scheduler": "none", "read_expire": 300}' '{"scheduler": "mq-deadline", "read_expire": 500}' >"$WORK/r.json"
code=0
timeout 20 "$DISKTUNE" apply "$WORK/r.json" >"$WORK/a.out" 2>"$WORK/a.err" || code=$?
expect_eq "$code" 2 "apply of a report switching to none with read_expire ($(cat "$WORK/a.err"))"
grep -q "winner.changes.read_expire 300: a tunable of mq-deadline, and the winner runs none" "$WORK/a.err" ||
  fail "apply of none with read_expire said: $(cat "$WORK/a.err")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the refused report"
echo "ok: unheld changes refused (${SECONDS} s)"
