#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# apply after a tune was killed in a trial (max_sectors_kb still at a trial's value): apply
# took those as "the values found", so `restore` put back the tune's originals and then the
# trial's value. It now refuses (exit 2) until `disktune restore` has put the tune's originals
# back (again after a resumed tune is killed in a trial), and refuses a tune journal given as
# --journal; afterwards apply, then restore, end at the values from before the tune.
source "$(dirname "$0")/lib.bash"

head -c 16777216 /dev/urandom >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
cleanup_steps+=("echo $(cat "$q/max_sectors_kb") >'$q/max_sectors_kb'")
cleanup_steps+=("echo $(cat "$q/read_ahead_kb") >'$q/read_ahead_kb'")
tune_journal=/var/lib/disktune/$(basename "$dev").journal
[ ! -e "$tune_journal" ] || skip "$tune_journal exists: another run's"
cleanup_steps+=("rm -f '$tune_journal' '$tune_journal'.*")
before=$(queue_snapshot "$dev")
setsid "$DISKTUNE" tune "$dev" --only max_sectors_kb --duration 0.5 --repeats 2 --max-repeats 2 --noise-repeats 1 \
  >"$WORK/t.out" 2>"$WORK/t.err" &
pid=$!
cleanup_steps+=("kill -9 -- -$pid 2>/dev/null")
for _ in $(seq 300); do grep -q 'trial [2-9]:' "$WORK/t.err" && break; sleep 0.05; done
kill -9 -- -"$pid"
wait "$pid" 2>/dev/null || true
[ "$(queue_snapshot "$dev")" != "$before" ] || skip "the tune was not stopped in a trial's settings"
loop_report "$dev" "$WORK/disk.img" '{"read_ahead_kb": 512}' >"$WORK/r.json"

applied() {  # applied ARGS...: disktune apply r.json ARGS; exit code in `code`
  code=0
  timeout 20 "$DISKTUNE" apply "$WORK/r.json" "$@" >"$WORK/a.out" 2>"$WORK/a.err" || code=$?
  local journal
  journal=$(sed -n 's/.*; journal \(.*\); .[^ ]*disktune restore.*/\1/p' "$WORK/a.out")
  [ -z "$journal" ] || cleanup_steps+=("rm -f '$journal' '$journal'.*")
}
stopped=$(queue_snapshot "$dev")
# verify names the tune journal that owes the restore as the drift's cause (it said "cause unknown").
set +e; timeout 20 "$DISKTUNE" verify "$WORK/r.json" >"$WORK/v.out" 2>"$WORK/v.err"; vcode=$?; set -e
expect_eq "$vcode" 1 "verify after the killed tune ($(cat "$WORK/v.out" "$WORK/v.err"))"
grep -qF "the tune journaled in $tune_journal did not end (killed?)" "$WORK/v.out" ||
  fail "verify does not name the tune that owes a restore: $(cat "$WORK/v.out")"
applied
expect_eq "$code" 2 "apply after a stopped tune ($(cat "$WORK/a.out" "$WORK/a.err"))"
grep -qF "$tune_journal" "$WORK/a.err" && grep -q "disktune restore $dev" "$WORK/a.err" ||
  fail "the refusal names no tune journal or restore: $(cat "$WORK/a.err")"
expect_eq "$(queue_snapshot "$dev")" "$stopped" "queue settings after the refused apply"

"$DISKTUNE" restore "$dev" >/dev/null 2>"$WORK/rs.err" || fail "restore exited $? ($(cat "$WORK/rs.err"))"
# A resumed tune killed in a trial again owes a restore again: apply counted any restore record
# as the settings being back, and took the trial's values as the values found.
records=$(journal_records "$tune_journal" | wc -l)
setsid "$DISKTUNE" tune "$dev" --only max_sectors_kb --duration 0.5 --repeats 2 --max-repeats 2 --noise-repeats 1 \
  >"$WORK/t2.out" 2>"$WORK/t2.err" &
pid=$!
cleanup_steps+=("kill -9 -- -$pid 2>/dev/null")
for _ in $(seq 300); do
  journal_records "$tune_journal" | tail -n +"$((records + 1))" | grep -q '"type":"intent"' && break
  sleep 0.05
done
kill -9 -- -"$pid"
wait "$pid" 2>/dev/null || true
journal_records "$tune_journal" | tail -n +"$((records + 1))" | grep -q '"type":"intent"' ||
  skip "the resumed tune began no trial within 15 s ($(tail -2 "$WORK/t2.err"))"
applied
expect_eq "$code" 2 "apply after a restore and a resumed tune killed in a trial ($(cat "$WORK/a.out" "$WORK/a.err"))"
"$DISKTUNE" restore "$dev" >/dev/null 2>"$WORK/rs.err" || fail "restore exited $? ($(cat "$WORK/rs.err"))"
applied "$dev" --journal "$tune_journal"
expect_eq "$code" 2 "apply --journal TUNE-JOURNAL ($(cat "$WORK/a.out" "$WORK/a.err"))"
grep -q "not an apply journal" "$WORK/a.err" || fail "apply --journal TUNE-JOURNAL said: $(cat "$WORK/a.err")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after restore and a refused apply"
applied
expect_eq "$code" 0 "apply after the restore ($(cat "$WORK/a.err"))"
"$DISKTUNE" restore "$dev" >/dev/null 2>"$WORK/rs.err" || fail "restore exited $? ($(cat "$WORK/rs.err"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after apply and restore"
echo "ok (${SECONDS} s)"
