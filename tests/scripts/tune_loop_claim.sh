#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A disk found not in use is held for the run: a mount attempted during a tune fails (the
# exclusive claim), another node of it is refused as held by that tune, a loop device set up
# over it (which no claim stops) is said as it appears, and the settings are restored afterwards. Under --allow-mounted (no claim)
# a use that appears during the run is said in the log and the report's integrity_note. The
# file system is made on the image before the loop device exists; every mount is read-only.
source "$(dirname "$0")/lib.bash"

attach_ext4_loop 64M
mkdir "$WORK/mnt"
cleanup_steps=("umount '$WORK/mnt' 2>/dev/null" "${cleanup_steps[@]}")  # unmount before detaching
before=$(queue_snapshot "$dev")
long=(--only read_ahead_kb --max-trials 6 --duration 0.5 --repeats 2 --max-repeats 2)

# wait_for_trials LOG: until the run's log shows its baseline (the claim is held by then).
wait_for_trials() {
  for _ in $(seq 150); do grep -q 'baseline' "$1" 2>/dev/null && return 0; sleep 0.1; done
  fail "the tune never reached its baseline: $(tail -5 "$1")"
}

"$DISKTUNE" tune "$dev" "${long[@]}" --journal "$WORK/j" >"$WORK/tune.txt" 2>&1 &
tune_pid=$!
cleanup_steps=("kill $tune_pid 2>/dev/null; wait $tune_pid 2>/dev/null" "${cleanup_steps[@]}")
wait_for_trials "$WORK/tune.txt"
if mount -o ro "$dev" "$WORK/mnt" 2>"$WORK/mount.txt"; then
  umount "$WORK/mnt"
  fail "a mount of $dev succeeded during its tune: the disk was not held"
fi
grep -qi 'busy' "$WORK/mount.txt" || fail "the mount failed for another reason than a busy device: $(cat "$WORK/mount.txt")"
# Another name of the disk (a node made elsewhere): refused as held by this disktune command,
# not as "claimed by the kernel" (its own claim is no use of the disk).
mknod "$WORK/alias" b "$(printf '%d' "0x$(stat -c '%t' "$dev")")" "$(printf '%d' "0x$(stat -c '%T' "$dev")")"
code=0
timeout 30 "$DISKTUNE" plan "$WORK/alias" >"$WORK/alias.txt" 2>&1 || code=$?
expect_eq "$code" 2 "plan through another node during the tune ($(cat "$WORK/alias.txt"))"
grep -q 'in use by another disktune command' "$WORK/alias.txt" || fail "the refusal does not name the tune: $(cat "$WORK/alias.txt")"
# A claim stops a mount, not a loop device set up over the disk: that is said as it appears.
stacked=$(losetup -f --show -r "$dev")
own_loop "$stacked" first
kill -0 "$tune_pid" 2>/dev/null || fail "the tune ended before the mount was tried: the check proved nothing"
code=0
wait "$tune_pid" || code=$?
[ "$code" = 0 ] || [ "$code" = 6 ] || fail "tune exited $code: $(tail -5 "$WORK/tune.txt")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the held run"
grep -q "note: $(basename "$dev") backs $(basename "$stacked") .*(appeared during the run)" "$WORK/tune.txt" ||
  fail "the loop device set up over the held disk was not said: $(cat "$WORK/tune.txt")"
losetup -d "$stacked"
# Released on exit: the disk mounts now.
mount -o ro "$dev" "$WORK/mnt" || fail "$dev cannot be mounted after the tune: the claim outlived it"
umount "$WORK/mnt"

# --allow-mounted holds no claim: a mount during the run is noticed and said.
"$DISKTUNE" tune "$dev" --allow-mounted "${long[@]}" --journal "$WORK/j2" --report "$WORK/r.json" \
  >"$WORK/out.txt" 2>"$WORK/allowed.txt" &
tune_pid=$!
cleanup_steps=("kill $tune_pid 2>/dev/null; wait $tune_pid 2>/dev/null" "${cleanup_steps[@]}")
wait_for_trials "$WORK/allowed.txt"
mount -o ro "$dev" "$WORK/mnt" || fail "a mount under --allow-mounted failed: $(tail -3 "$WORK/allowed.txt")"
code=0
wait "$tune_pid" || code=$?
[ "$code" = 0 ] || [ "$code" = 6 ] || fail "tune --allow-mounted exited $code: $(tail -5 "$WORK/allowed.txt")"
grep -q "note: $(basename "$dev") is mounted on $WORK/mnt (appeared during the run)" "$WORK/allowed.txt" ||
  fail "the new mount was not said: $(cat "$WORK/allowed.txt")"
jq -e --arg m "$WORK/mnt" '.integrity_note | contains("is mounted on " + $m + " (appeared during the run)")' "$WORK/r.json" >/dev/null ||
  fail "report integrity_note: $(jq -c .integrity_note "$WORK/r.json")"
umount "$WORK/mnt"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the --allow-mounted run"
echo "ok: the mount during the held tune failed; under --allow-mounted it was said"
