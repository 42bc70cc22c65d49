#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A change the kernel refuses after another was written (scheduler=kyber written, then
# nr_requests=100000000 refused): apply exits 3 naming the refused write as the apply's
# failure (it read "restore the original settings (write ...)", as if the put-back had
# failed), and every value found is back (the scheduler, its tunables), read back.
source "$(dirname "$0")/lib.bash"

truncate -s 16M "$WORK/disk.img"
attach_loop "$WORK/disk.img"
q=/sys/block/$(basename "$dev")/queue
grep -qw mq-deadline "$q/scheduler" && grep -qw kyber "$q/scheduler" || skip "needs mq-deadline and kyber"
found=$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")
cleanup_steps+=("echo $found >'$q/scheduler'")
echo mq-deadline >"$q/scheduler"
echo 4000 >"$q/iosched/write_expire"  # off its default: a scheduler switch would lose it
before=$(queue_snapshot "$dev")
loop_report "$dev" "$WORK/disk.img" '{"scheduler": "kyber", "nr_requests": 100000000}' >"$WORK/r.json"
code=0
timeout 20 "$DISKTUNE" apply "$WORK/r.json" >"$WORK/a.out" 2>"$WORK/a.err" || code=$?
for journal in /var/lib/disktune/loop*"$(basename "$WORK")"*.apply.journal; do
  [ -e "$journal" ] && cleanup_steps+=("rm -f '$journal' '$journal'.*")
done
expect_eq "$code" 3 "apply of a refused change ($(cat "$WORK/a.out" "$WORK/a.err"))"
grep -q "apply scheduler=kyber nr_requests=100000000 on $dev failed: write queue/nr_requests=100000000" "$WORK/a.err" ||
  fail "the refusal is not named as the apply's: $(cat "$WORK/a.err")"
grep -q "restore the original settings" "$WORK/a.err" && fail "the apply's failure reads as a restore's: $(cat "$WORK/a.err")"
grep -q "the values found were put back and read back" "$WORK/a.err" || fail "no put-back said: $(cat "$WORK/a.err")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the refused apply"

# The same refusal while an earlier apply is in effect: that apply stays in effect, and
# 'disktune restore' still reaches the values from before it (the failed apply's put-back was
# recorded as a restore: restore said "nothing to restore" and left the first apply's values).
ra=$(cat "$q/read_ahead_kb")
new_ra=$((ra == 128 ? 256 : 128))
loop_report "$dev" "$WORK/disk.img" "{\"read_ahead_kb\": $new_ra}" >"$WORK/good.json"
"$DISKTUNE" apply "$WORK/good.json" >"$WORK/g.out" 2>"$WORK/g.err" || fail "apply read_ahead_kb=$new_ra: $(cat "$WORK/g.err")"
applied=$(queue_snapshot "$dev")
code=0
timeout 20 "$DISKTUNE" apply "$WORK/r.json" >"$WORK/a2.out" 2>"$WORK/a2.err" || code=$?
expect_eq "$code" 3 "the refused apply over an apply in effect ($(cat "$WORK/a2.err"))"
grep -q "stays in effect" "$WORK/a2.err" || fail "the earlier apply is not said to stay in effect: $(cat "$WORK/a2.err")"
expect_eq "$(queue_snapshot "$dev")" "$applied" "queue settings after the refused apply over an apply"
code=0
"$DISKTUNE" verify "$WORK/good.json" >"$WORK/v.out" 2>&1 || code=$?
expect_eq "$code" 0 "verify of the apply in effect ($(cat "$WORK/v.out"))"
"$DISKTUNE" restore "$dev" >"$WORK/r.out" 2>&1 || fail "restore after the refused apply: $(cat "$WORK/r.out")"
expect_eq "$(cat "$q/read_ahead_kb")" "$ra" "read_ahead_kb after restore (the value from before the first apply)"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after restore"
echo "ok: refused write named, values found back (${SECONDS} s)"
