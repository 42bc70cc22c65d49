#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A tune of a mounted disk (--allow-mounted) does not compare
# data checksums, whose data its file system may change, and says so in the report and the
# table. The file system is made on the image before the loop device exists and mounted
# read-only: nothing writes to the device under test.
source "$(dirname "$0")/lib.bash"

attach_ext4_loop 64M
# Mounted in another mount namespace: this one's mountinfo does not show it, the kernel's claim
# (an exclusive open is busy) does.
mkdir "$WORK/mnt" "$WORK/ns-mnt"
unshare -m --propagation private bash -c "mount -o ro '$dev' '$WORK/ns-mnt' && touch '$WORK/ns-mounted' && exec sleep 120" &
ns_pid=$!
cleanup_steps=("kill $ns_pid 2>/dev/null; wait $ns_pid 2>/dev/null" "${cleanup_steps[@]}")
for _ in $(seq 100); do [ -e "$WORK/ns-mounted" ] && break; sleep 0.05; done
[ -e "$WORK/ns-mounted" ] || skip "cannot mount $dev in a private mount namespace"
grep -q "$(basename "$dev")" /proc/self/mountinfo && fail "the namespace's mount shows here: the check would prove nothing"
code=0
timeout 30 "$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 1 --journal "$WORK/j-ns" >"$WORK/ns.txt" 2>&1 || code=$?
expect_eq "$code" 2 "tune of a disk mounted in another namespace ($(cat "$WORK/ns.txt"))"
grep -q "is claimed by the kernel" "$WORK/ns.txt" || fail "the refusal does not say why: $(cat "$WORK/ns.txt")"
# plan probes the queue as a tune does: refused too, the queue untouched.
ns_before=$(queue_snapshot "$dev")
code=0
timeout 30 "$DISKTUNE" plan "$dev" >"$WORK/ns.txt" 2>&1 || code=$?
expect_eq "$code" 2 "plan of a disk in use ($(cat "$WORK/ns.txt"))"
grep -q "refusing to plan $dev:" "$WORK/ns.txt" || fail "the refusal does not name plan: $(cat "$WORK/ns.txt")"
expect_eq "$(queue_snapshot "$dev")" "$ns_before" "queue after plan of a disk in use"
kill "$ns_pid"; wait "$ns_pid" 2>/dev/null || true
# refused_under_loop NODE: a read-only loop device set up over NODE (a node of $dev) makes the
# tune of $dev exit 2 naming it: no mount, no holder, no exclusive claim; its backing_file does.
refused_under_loop() {
  local stacked code=0
  stacked=$(losetup -f --show -r "$1")
  own_loop "$stacked" first
  timeout 30 "$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 1 --journal "$WORK/j-stack" >"$WORK/stack.txt" 2>&1 || code=$?
  expect_eq "$code" 2 "tune of a disk a loop device is set up over through $1 ($(cat "$WORK/stack.txt"))"
  grep -q "$(basename "$dev") backs $(basename "$stacked")" "$WORK/stack.txt" ||
    fail "the refusal does not name the loop device: $(cat "$WORK/stack.txt")"
  losetup -d "$stacked"
}
refused_under_loop "$dev"
# Through another node of the disk (mknod elsewhere): its backing_file is that path.
mknod "$WORK/node" b "$(printf '%d' "0x$(stat -c '%t' "$dev")")" "$(printf '%d' "0x$(stat -c '%T' "$dev")")"
refused_under_loop "$WORK/node"
mount -o ro "$dev" "$WORK/mnt" || skip "cannot mount $dev"
cleanup_steps=("umount '$WORK/mnt'" "${cleanup_steps[@]}")  # unmount before detaching
before=$(queue_snapshot "$dev")

"$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 1 --duration 0.2 --repeats 2 --max-repeats 2 \
  --report "$WORK/r.json" --journal "$WORK/j" >"$WORK/refused.txt" 2>&1 && fail "a mounted disk was tuned without --allow-mounted"
grep -q "refusing to tune $dev: .*(--allow-mounted to tune it anyway)" "$WORK/refused.txt" ||
  fail "the refusal does not name tune: $(cat "$WORK/refused.txt")"
tune_completed "$DISKTUNE" tune "$dev" --allow-mounted --only read_ahead_kb --max-trials 1 --duration 0.2 --repeats 2 --max-repeats 2 \
  --report "$WORK/r.json" --journal "$WORK/j" >"$WORK/out.txt" 2>"$WORK/err.txt" ||
  fail "tune did not complete ($(tail -5 "$WORK/err.txt"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the run"
jq -e '.integrity_note | contains("data checksum check off") and contains("read errors, the kernel log and the read-back")' \
  "$WORK/r.json" >/dev/null || fail "report integrity_note: $(jq -c .integrity_note "$WORK/r.json")"
grep -q '^note: data checksum check off: the data is in use' "$WORK/out.txt" || fail "the table does not say the checksum check is off"
grep -q 'data checksum check off' "$WORK/err.txt" || fail "the progress log does not say the checksum check is off"
# apply of that report, made to change read_ahead_kb to a value its space holds (a 1-trial run on a mounted disk may stop or
# keep the baseline: nothing to apply then), is refused the same way, naming apply, writing nothing.
jq '.winner.changes = {"read_ahead_kb": ([.space.dimensions[] | select(.setting == "read_ahead_kb") | .values[]] - [.baseline.settings.read_ahead_kb] | last)} | .winner.keep_baseline = false | .too_noisy = false | .completed = true' "$WORK/r.json" >"$WORK/change.json"
code=0
"$DISKTUNE" apply "$WORK/change.json" "$dev" --journal "$WORK/apply.journal" >"$WORK/apply.txt" 2>&1 || code=$?
expect_eq "$code" 2 "apply to a mounted disk ($(cat "$WORK/apply.txt"))"
grep -q "refusing to apply to $dev: .*(--allow-mounted to apply to it anyway)" "$WORK/apply.txt" ||
  fail "the refusal does not name apply: $(cat "$WORK/apply.txt")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the refused apply"
echo "ok: $(jq -r .integrity_note "$WORK/r.json")"
