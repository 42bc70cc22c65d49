#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/emulated-disk puts an EMULATED disk away whatever state it is in: with emudisk stopped
# (SIGSTOP) under reads in flight, detach aborts the FUSE connection first and returns within
# seconds (it used to hang in the queue write, in state D, blocking every reader of the queue);
# the queue settings found at attach come back; attach refuses a directory in use; detach
# leaves alone a loop device that is not over its directory's file; emudisk runs in its own
# session, and a loop device whose emudisk unmounted is still detached.
source "$(dirname "$0")/lib.bash"
attach_emulated emu --profile=ssd
emulated=$(dirname "$0")/../../scripts/emulated-disk
expect_eq "$(cat "$q/rotational")" 0 "rotational of --profile=ssd (one word)"
if "$emulated" attach "$WORK/emu" --profile hdd 2>"$WORK/again.err"; then fail "a second attach into the same directory"; fi
grep -q "holds an emulated disk already" "$WORK/again.err" || fail "second attach: $(cat "$WORK/again.err")"

saved=$(cat "$WORK/emu/queue.saved")
echo kyber >"$q/scheduler"
echo 16 >"$q/nr_requests"
fio --name=inflight --filename="$dev" --readonly --direct=1 --ioengine=libaio --rw=randread --bs=4k --iodepth=16 \
  --runtime=30 --time_based >/dev/null 2>&1 &
fio_pid=$!
cleanup_steps+=("kill $fio_pid 2>/dev/null")
sleep 1
kill -STOP "$(cat "$WORK/emu/emudisk.pid")"
start=$SECONDS
timeout 20 "$emulated" detach "$WORK/emu" || fail "detach of a stopped emudisk failed or hung (rc $?)"
echo "detach of a stopped emudisk took $((SECONDS - start)) s"
wait "$fio_pid" 2>/dev/null || true  # its reads failed when the connection was aborted
while read -r name value; do
  now=$(cat "$q/$name")
  [ "$name" != scheduler ] || now=$(sed 's/.*\[\(.*\)\].*/\1/' <<<"$now")
  expect_eq "$now" "$value" "queue/$name after detach"
done <<<"$saved"
if losetup -l -n -O BACK-FILE | grep -q "$WORK/emu"; then fail "a loop device over the emulated file is left"; fi
if grep -q " $WORK/emu/mnt " /proc/mounts; then fail "the FUSE mount is left"; fi

# emudisk runs in its own session, so a signal to the caller's process group (Ctrl-C, timeout)
# does not stop it before the caller's trap detaches; and one that did stop it (its mount gone,
# the loop's backing_file then reads "/disk.img") still leaves a device detach knows as its own.
attach_emulated term --profile hdd
pid=$(cat "$WORK/term/emudisk.pid")
[ "$(ps -o sid= -p "$pid" | tr -d ' ')" != "$(ps -o sid= -p $$ | tr -d ' ')" ] || fail "emudisk shares the caller's session"
saved=$(cat "$WORK/term/queue.saved")
echo 4 >"$q/max_sectors_kb"
kill -TERM "$pid"
for _ in $(seq 50); do grep -q " $WORK/term/mnt " /proc/mounts || break; sleep 0.1; done
"$emulated" detach "$WORK/term" 2>"$WORK/term.err" || fail "detach after emudisk's own unmount: $(cat "$WORK/term.err")"
if emulated_left "$dev" term; then fail "detach left $dev after emudisk unmounted ($(cat "$WORK/term.err"))"; fi
expect_eq "$(cat "$q/max_sectors_kb")" "$(awk '$1 == "max_sectors_kb" { print $2 }' <<<"$saved")" "max_sectors_kb after detach"

# A device file that names another loop device: detach leaves that one alone.
head -c $((8 << 20)) /dev/zero >"$WORK/other.img"
attach_loop "$WORK/other.img"
mkdir -p "$WORK/forged"
echo "$dev" >"$WORK/forged/device"
echo "scheduler none" >"$WORK/forged/queue.saved"
before=$(cat "/sys/block/$(basename "$dev")/queue/scheduler")
"$emulated" detach "$WORK/forged" 2>"$WORK/forged.err"
expect_eq "$(cat "/sys/block/$(basename "$dev")/queue/scheduler")" "$before" "scheduler of a loop device not ours"
losetup "$dev" >/dev/null || fail "detach detached a loop device that was not its own"
grep -q "is not over $WORK/forged/mnt/disk.img" "$WORK/forged.err" || fail "no word on the loop device left alone"
# A plain file named disk.img under the mount point exists before emudisk has mounted: attach
# waits for the mount, not for the file (a clean CI run attached the plain file once).
mkdir -p "$WORK/shadowed/mnt"
head -c $((8 << 20)) /dev/zero >"$WORK/shadowed/mnt/disk.img"
printf '#!/bin/sh\nsleep 1\nexec %q "$@"\n' "$EMUDISK" >"$WORK/slow-emudisk"
chmod +x "$WORK/slow-emudisk"
cleanup_steps+=("'$emulated' detach '$WORK/shadowed'")
shadowed=$("$emulated" attach "$WORK/shadowed" --emudisk "$WORK/slow-emudisk" --profile ssd) || fail "attach over a shadowed disk.img"
expect_eq "$(losetup -n -O BACK-MAJ:MIN "$shadowed" | tr -d ' ')" "$(findmnt -n -o MAJ:MIN --mountpoint "$WORK/shadowed/mnt" | tr -d ' ')" \
  "the backing file's device (emudisk's mount, not the plain file beneath it)"
"$emulated" detach "$WORK/shadowed"
echo "ok: detach under a stopped emudisk, queue restored, a busy directory and a foreign device refused, a shadowed file not attached"
