#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Apply, verify and restore on a loop device: a tune's winner (a real one: an IOPS-capped device
# started at max_sectors_kb 128) is applied from its report to the drive found by its
# identity (the loop device's backing file, not its kernel name), verified, changed behind
# its back (verify names the knob, expected and actual, exit 1), refused on another drive,
# and rolled back by `restore` to the value before the first apply, read back. Bounded bytes.
source "$(dirname "$0")/lib.bash"

require_loop
attach_iops_capped_loop 64  # a real answer: max_sectors_kb 128 reads a quarter of the best
tune_capped_winner
grep -qF "disktune: next: '$DISKTUNE apply $WORK/r.json' sets the winner now" "$WORK/tune.err" ||
  fail "the tune does not say what comes next: $(tail -3 "$WORK/tune.err")"
expect_eq "$(jq -r .device.backing_file "$WORK/r.json")" "$WORK/disk.img" "the report's backing file"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the tune"

verify() {  # verify ARGS...: run disktune verify; its exit code in `code`, output in $WORK/v.out
  code=0
  "$DISKTUNE" verify "$@" >"$WORK/v.out" 2>"$WORK/v.err" || code=$?
}

# Before the apply: drift, and the live value is the one before the tune.
verify "$WORK/r.json"
expect_eq "$code" 1 "verify before apply ($(cat "$WORK/v.out" "$WORK/v.err"))"
grep -q "max_sectors_kb: expected $winner, actual 128  DRIFT: back at the value its tune found (the baseline); no apply journal at /.*; the report records that its tune put back what it found" "$WORK/v.out" ||
  fail "verify before apply: $(cat "$WORK/v.out")"

# apply, no DEVICE named: found by its backing file.
"$DISKTUNE" apply "$WORK/r.json" >"$WORK/a.out" 2>"$WORK/a.err" || fail "apply exited $? ($(cat "$WORK/a.err"))"
journal=$(sed -n 's/.*; journal \(.*\); .[^ ]*disktune restore.*/\1/p' "$WORK/a.out")
[ -n "$journal" ] && [ -f "$journal" ] || fail "apply names no journal: $(cat "$WORK/a.out")"
cleanup_steps+=("rm -f '$journal' '$journal'.*")
grep -q "applied max_sectors_kb=$winner on $dev" "$WORK/a.out" || fail "apply said: $(cat "$WORK/a.out")"
expect_eq "$(cat "$q/max_sectors_kb")" "$winner" "max_sectors_kb after apply"

verify "$WORK/r.json"
expect_eq "$code" 0 "verify after apply ($(cat "$WORK/v.out"))"
grep -q "max_sectors_kb: expected $winner, actual $winner  ok" "$WORK/v.out" || fail "verify after apply: $(cat "$WORK/v.out")"
mkdir "$WORK/conf" && cp "$WORK/r.json" "$WORK/conf/"
verify --config "$WORK/conf" --json
expect_eq "$code" 0 "verify --config after apply"
expect_eq "$(jq -r '.status, .drives[0].device, .drives[0].settings[0].status' "$WORK/v.out" | tr '\n' ' ')" \
  "ok $dev ok " "verify --json after apply"

# Changed behind its back: exit 1, the knob named with expected and actual.
echo 256 >"$q/max_sectors_kb"
verify "$WORK/r.json"
expect_eq "$code" 1 "verify after a change by hand"
grep -q "max_sectors_kb: expected $winner, actual 256  DRIFT: cause unknown" "$WORK/v.out" ||
  fail "verify after a change by hand: $(cat "$WORK/v.out")"
verify "$WORK/r.json" --json
expect_eq "$(jq -r '.drives[0].settings[0] | "\(.setting) \(.expected) \(.actual) \(.status) \(.cause)"' "$WORK/v.out")" \
  "max_sectors_kb $winner 256 drift null" "verify --json after a change by hand (no evidence: cause null)"

# A kernel coupling named as the cause: a report that set read_ahead_kb 1024, then a write of
# max_sectors_kb 1280, which raises read_ahead_kb to 2560 on this kernel (6.18).
ra_before=$(cat "$q/read_ahead_kb")
# (read_ahead_kb 1024 put in the space's read_ahead_kb values: verify refuses a change its tune never searched)
jq '.winner.changes.read_ahead_kb = 1024 | .winner.settings.read_ahead_kb = 1024
  | .space.dimensions = [.space.dimensions[] | select(.setting != "read_ahead_kb")] + [{setting: "read_ahead_kb", values: [128, 1024]}]' \
  "$WORK/r.json" >"$WORK/r-ra.json"
echo 1024 >"$q/read_ahead_kb"
echo 1280 >"$q/max_sectors_kb"
if [ "$(cat "$q/read_ahead_kb")" = 2560 ]; then
  verify "$WORK/r-ra.json"
  expect_eq "$code" 1 "verify after a max_sectors_kb write"
  grep -q "read_ahead_kb: expected 1024, actual 2560  DRIFT: .*read_ahead_kb reads 2560 = 2 x max_sectors_kb 1280: a write to max_sectors_kb raises read_ahead_kb" "$WORK/v.out" ||
    fail "verify does not name the max_sectors_kb coupling: $(cat "$WORK/v.out")"
else
  echo "note: this kernel did not raise read_ahead_kb on a max_sectors_kb write ($(cat "$q/read_ahead_kb")): coupling check not applicable"
fi
echo 256 >"$q/max_sectors_kb"
echo "$ra_before" >"$q/read_ahead_kb"

# Another drive (same size, other backing file) named as DEVICE: refused, nothing written.
cp "$WORK/disk.img" "$WORK/other.img"
other=$(losetup -f --show "$WORK/other.img")
own_loop "$other"
other_before=$(queue_snapshot "$other")
code=0
"$DISKTUNE" apply "$WORK/r.json" "$other" >"$WORK/o.out" 2>"$WORK/o.err" || code=$?
expect_eq "$code" 2 "apply to another drive ($(cat "$WORK/o.err"))"
grep -q "is another drive: backing file" "$WORK/o.err" || fail "the refusal does not say why: $(cat "$WORK/o.err")"
expect_eq "$(queue_snapshot "$other")" "$other_before" "the other drive's settings"

# Two loop devices over the one backing file: which one the report meant cannot be known.
twin=$(losetup -f --show "$WORK/disk.img")
own_loop "$twin"
twin_before=$(queue_snapshot "$twin")
code=0
"$DISKTUNE" apply "$WORK/r.json" >"$WORK/t.out" 2>"$WORK/t.err" || code=$?
expect_eq "$code" 2 "apply with two loop devices over its backing file ($(cat "$WORK/t.err"))"
grep -q "several devices have the report's identity .*: name the DEVICE" "$WORK/t.err" || fail "apply said: $(cat "$WORK/t.err")"
# The twin named: they share the file's apply journal, which holds $dev's values found.
code=0
"$DISKTUNE" apply "$WORK/r.json" "$twin" >"$WORK/t.out" 2>"$WORK/t.err" || code=$?
expect_eq "$code" 2 "apply to the twin while an apply is in effect on $dev ($(cat "$WORK/t.err"))"
grep -qF "an apply is in effect on $dev, another loop device over $WORK/disk.img" "$WORK/t.err" ||
  fail "apply to the twin said: $(cat "$WORK/t.err")"
# Nor may --force restore the first device's values (the shared journal's) onto the twin.
dev_applied=$(queue_snapshot "$dev")
code=0
"$DISKTUNE" restore "$twin" --force >"$WORK/t.out" 2>"$WORK/t.err" || code=$?
expect_eq "$code" 2 "restore --force of the twin ($(cat "$WORK/t.err"))"
grep -qF "holds the values of $dev, another loop device over $WORK/disk.img still attached" "$WORK/t.err" ||
  fail "restore --force of the twin said: $(cat "$WORK/t.err")"
expect_eq "$(queue_snapshot "$dev")" "$dev_applied" "the first device after the twin's restore --force"
# Its own --journal: applied, and the restore command it prints (with that --journal) undoes it.
"$DISKTUNE" apply "$WORK/r.json" "$twin" --journal "$WORK/twin.journal" >"$WORK/t.out" 2>"$WORK/t.err" ||
  fail "apply to the twin with its own --journal exited $? ($(cat "$WORK/t.err"))"
hint=$(sed -n "s/.*; '\([^' ]*disktune restore [^']*\)' puts back.*/\1/p" "$WORK/t.out")
expect_eq "$hint" "$DISKTUNE restore $twin --journal $WORK/twin.journal" "the restore command apply --journal prints"
$hint >"$WORK/t.out" 2>"$WORK/t.err" || fail "'$hint' exited $? ($(cat "$WORK/t.err"))"
# A journal path the shell must quote: the printed command quotes it, and pasted it works.
"$DISKTUNE" apply "$WORK/r.json" "$twin" --journal "$WORK/tw in \$(id).journal" >"$WORK/t.out" 2>"$WORK/t.err" ||
  fail "apply with a spaced --journal exited $? ($(cat "$WORK/t.err"))"
hint=$(sed -n "s/.*; undo with: \([^ ]*disktune restore .*\), which puts back.*/\1/p" "$WORK/t.out")
[ -n "$hint" ] || fail "no quoted restore command: $(cat "$WORK/t.out")"
eval "$hint" >"$WORK/t.out" 2>"$WORK/t.err" || fail "'$hint' exited $? ($(cat "$WORK/t.err"))"
grep -qF "from $WORK/tw in \$(id).journal" "$WORK/t.err" || fail "the pasted command restored from elsewhere: $(cat "$WORK/t.err")"
twin_after=$(queue_snapshot "$twin")
losetup -d "$twin"
expect_eq "$twin_after" "$twin_before" "the second loop device's settings"

# A second apply keeps the values from before the first; restore goes back to them.
"$DISKTUNE" apply "$WORK/r.json" "$dev" >"$WORK/a2.out" 2>"$WORK/a2.err" || fail "second apply exited $?"
grep -q "keeping the values recorded before it" "$WORK/a2.err" || fail "second apply: $(cat "$WORK/a2.err")"
"$DISKTUNE" restore "$dev" >"$WORK/rs.out" 2>"$WORK/rs.err" || fail "restore exited $? ($(cat "$WORK/rs.err"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after restore"
grep -q "max_sectors_kb=128 .* (the apply is undone" "$WORK/rs.err" || fail "restore said: $(cat "$WORK/rs.err")"
code=0
"$DISKTUNE" restore "$dev" >/dev/null 2>"$WORK/rs2.err" || code=$?
expect_eq "$code" 0 "a second restore ($(cat "$WORK/rs2.err"))"
grep -q "nothing to restore on $dev: the apply recorded in .* was undone at" "$WORK/rs2.err" || fail "second restore: $(cat "$WORK/rs2.err")"
verify "$WORK/r.json"
expect_eq "$code" 1 "verify after restore"
grep -q "expected $winner, actual 128  DRIFT: back at the value its tune found (the baseline); 'disktune restore' at .* put back the values from before the apply" "$WORK/v.out" ||
  fail "verify after restore: $(cat "$WORK/v.out")"

# The drive absent: reported, exit 1, no crash.
losetup -d "$dev"
verify "$WORK/r.json"
expect_eq "$code" 1 "verify with the drive absent"
grep -q "ABSENT: the drive is absent" "$WORK/v.out" || fail "verify with the drive absent: $(cat "$WORK/v.out" "$WORK/v.err")"
losetup "$dev" "$WORK/disk.img" || true  # so the cleanup's detach and put-back find it
echo "ok: winner max_sectors_kb=$winner applied, verified, drift named, restored (${SECONDS} s)"
