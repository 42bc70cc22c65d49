#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# verify names a drift's cause only from a record it read: after `apply --journal FILE` and
# `restore --journal FILE` on a loop device, `verify --journal FILE` names the restore, and
# verify without it (the drive's default apply journal, absent) says it found none there
# instead of "no apply is recorded"; a tune running on the device is named as the holder of
# its lock, not taken for one that ended; a --journal that is a FIFO is refused at once.
source "$(dirname "$0")/lib.bash"

require_loop
attach_readahead_loop 32
# A tune's report records that it put back what it found ("restored"), as every completed one does.
loop_report "$dev" "$WORK/disk.img" "{\"read_ahead_kb\": $ra}" | jq '.restored = true' >"$WORK/r.json"
journal=$WORK/apply.journal

verify() {  # verify ARGS...: disktune verify, its exit code in `code`, stdout in $WORK/v.out
  code=0
  timeout 20 "$DISKTUNE" verify "$@" >"$WORK/v.out" 2>"$WORK/v.err" || code=$?
}
line() { grep "read_ahead_kb: expected $ra" "$WORK/v.out" || true; }

"$DISKTUNE" apply "$WORK/r.json" --journal "$journal" >"$WORK/a.out" 2>"$WORK/a.err" || fail "apply exited $? ($(cat "$WORK/a.err"))"
grep -qF "journal $journal;" "$WORK/a.out" || fail "apply did not use --journal: $(cat "$WORK/a.out")"
verify "$WORK/r.json" --journal "$journal"
expect_eq "$code" 0 "verify --journal after the apply ($(cat "$WORK/v.out" "$WORK/v.err"))"
"$DISKTUNE" restore "$dev" --journal "$journal" >/dev/null 2>"$WORK/rs.err" || fail "restore exited $? ($(cat "$WORK/rs.err"))"
expect_eq "$(cat "$q/read_ahead_kb")" "$found" "read_ahead_kb after the restore"

# The journal apply and restore were given: the restore is named, with the journal it is read from.
verify "$WORK/r.json" --journal "$journal"
expect_eq "$code" 1 "verify --journal after the restore ($(cat "$WORK/v.err"))"
line | grep -qF "actual $found  DRIFT: back at the value its tune found (the baseline); 'disktune restore' at " &&
  line | grep -qF "put back the values from before the apply (apply journal $journal)" ||
  fail "verify --journal does not name the restore: $(cat "$WORK/v.out")"

# Without --journal: the default apply journal is absent. Said as such, and no apply or restore
# claimed; the report's own record of its tune's end is named as the report's.
verify "$WORK/r.json"
expect_eq "$code" 1 "verify without --journal after the restore ($(cat "$WORK/v.err"))"
line | grep -q "actual $found  DRIFT: back at the value its tune found (the baseline); no apply journal at /.*\.apply\.journal; the report records that its tune put back what it found" ||
  fail "verify without --journal: $(cat "$WORK/v.out")"
grep -q "no apply is recorded\|'disktune restore' at" "$WORK/v.out" && fail "verify claims a record it did not read: $(cat "$WORK/v.out")"
verify "$WORK/r.json" --json
expect_eq "$(jq -r '.drives[0].settings[0].cause' "$WORK/v.out")" null "verify --json's cause without a record read"

# A FIFO as --journal: refused at once (exit 2), never opened.
mkfifo "$WORK/fifo"
verify "$WORK/r.json" --journal "$WORK/fifo"
expect_eq "$code" 2 "verify --journal FIFO ($(cat "$WORK/v.err"))"
grep -q "FIFO" "$WORK/v.err" || fail "verify --journal FIFO: $(cat "$WORK/v.err")"
verify "$WORK/r.json" "$WORK/r.json" --journal "$journal"
expect_eq "$code" 2 "verify --journal with two reports ($(cat "$WORK/v.err"))"

# A tune running on the device: verify names it (the holder of the device lock) and claims no ended tune.
setsid "$DISKTUNE" tune "$dev" --only read_ahead_kb --duration 2 --repeats 5 --max-repeats 5 --noise-repeats 1 \
  --journal "$WORK/tune.journal" >"$WORK/tune.out" 2>"$WORK/tune.err" &
tune=$!
cleanup_steps+=("kill -TERM -- -$tune 2>/dev/null; wait $tune 2>/dev/null")
for _ in $(seq 100); do
  grep -q "FLOCK .*WRITE $tune " /proc/locks && break
  sleep 0.1
done
grep -q "FLOCK .*WRITE $tune " /proc/locks || fail "the tune holds no lock ($(tail -3 "$WORK/tune.err"))"
verify "$WORK/r.json"
kill -TERM -- -"$tune"
wait "$tune" 2>/dev/null || true
expect_eq "$code" 1 "verify during a tune ($(cat "$WORK/v.err"))"
line | grep -qF "a disktune command holds the device now: pid $tune (" && line | grep -qF "tune $dev" ||
  fail "verify during a tune does not name it: $(cat "$WORK/v.out")"
grep -q "put back what it found" "$WORK/v.out" && fail "verify during a tune says it ended: $(cat "$WORK/v.out")"
expect_eq "$(cat "$q/read_ahead_kb")" "$found" "read_ahead_kb after the stopped tune"
echo "ok: restore named from --journal, none claimed without it, a running tune named (${SECONDS} s)"
