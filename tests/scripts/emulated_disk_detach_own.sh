#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/emulated-disk detach touches only what its DIR attached, as the kernel says: a copy of
# an attached DIR's state files, or a DIR whose disk was put away and whose loop device and
# FUSE device number went to another DIR since, leaves that other disk alone (detach used to
# take the files' word and detach it); a plain loop device under DIR's mount point stays; a
# saved queue line is written back only for a known attribute with a value of its form (a
# name of ../.. wrote any file as root); DIR given with a trailing slash, as a relative path or
# holding a space is put away (detach used to leave the mount and exit 0); after emudisk was
# killed -9 no mount is left; a second detach says that nothing is attached and exits 0.
source "$(dirname "$0")/lib.bash"
emulated=$(cd "$(dirname "$0")/../.." && pwd)/scripts/emulated-disk

# still_attached DEV NAME WHAT: DEV is still a loop device over the FUSE mount on $WORK/NAME/mnt.
still_attached() {
  local mount_mm
  mount_mm=$(findmnt -n -o MAJ:MIN --mountpoint "$WORK/$2/mnt" | tr -d ' ')
  [ -n "$mount_mm" ] || fail "$3: the FUSE mount on $WORK/$2/mnt is gone"
  expect_eq "$(losetup -n -O BACK-MAJ:MIN "$1" 2>/dev/null | tr -d ' ')" "$mount_mm" "$3: $1's backing file system"
}

# put_away NAME ARG WHAT: `detach ARG` (from $WORK) exits 0 and leaves no mount on $WORK/NAME/mnt
# and no loop device over it.
put_away() {
  local mount_mm
  mount_mm=$(findmnt -n -o MAJ:MIN --mountpoint "$WORK/$1/mnt" | tr -d ' ')
  (cd "$WORK" && "$emulated" detach "$2") 2>"$WORK/detach.err" || fail "$3: detach exited $? ($(cat "$WORK/detach.err"))"
  if findmnt --mountpoint "$WORK/$1/mnt" >/dev/null; then fail "$3: the FUSE mount on $WORK/$1/mnt is left"; fi
  if [ -n "$mount_mm" ] && losetup -l -n -O BACK-MAJ:MIN | tr -d ' ' | grep -qx "$mount_mm"; then
    fail "$3: a loop device over $WORK/$1/mnt is left"
  fi
}

# A copy of an attached DIR's state files (not of its mount) is not that DIR.
attach_emulated orig --profile ssd
orig=$dev
echo 4 >"$q/max_sectors_kb"
mkdir -p "$WORK/copy/mnt"
find "$WORK/orig" -maxdepth 1 -type f -exec cp -a {} "$WORK/copy/" \;
"$emulated" detach "$WORK/copy" 2>"$WORK/copy.err" || true
still_attached "$orig" orig "after detach of a copied DIR"
expect_eq "$(cat "$q/max_sectors_kb")" 4 "max_sectors_kb of the original after detach of a copy"
kill -0 "$(cat "$WORK/orig/emudisk.pid")" || fail "detach of a copy stopped the original's emudisk"

# A saved queue line is written back only for a known attribute with a value of its form; the
# others are refused by line, and the known lines are still restored.
saved_max=$(awk '$1 == "max_sectors_kb" { print $2 }' "$WORK/orig/queue.saved")
printf '%s\n' "../../../../../../../../..$WORK/escaped 1" "read_ahead_kb abc" "scheduler bogus-sched" \
  "nomerges 1 2" >>"$WORK/orig/queue.saved"
if "$emulated" detach "$WORK/orig" 2>"$WORK/orig.err"; then fail "detach with refused queue lines exited 0"; fi
[ ! -e "$WORK/escaped" ] || fail "detach wrote a file named by a queue line: $WORK/escaped"
for line in "../../../../../../../../..$WORK/escaped 1" "read_ahead_kb abc" "scheduler bogus-sched" "nomerges 1 2"; do
  grep -qF "refused: $line" "$WORK/orig.err" || fail "no refusal naming '$line': $(cat "$WORK/orig.err")"
done
expect_eq "$(cat "$q/max_sectors_kb")" "$saved_max" "max_sectors_kb restored beside refused lines"
if losetup "$orig" >/dev/null 2>&1; then fail "$orig left after detach with refused queue lines"; fi
if findmnt --mountpoint "$WORK/orig/mnt" >/dev/null; then fail "the FUSE mount left after detach with refused queue lines"; fi

# A DIR whose disk was put away, its state files back (a stale DIR): the loop device and the
# FUSE device number it recorded may now be another DIR's, which it must leave alone.
attach_emulated stale --profile ssd
mkdir -p "$WORK/stale.files"
find "$WORK/stale" -maxdepth 1 -type f -exec cp -a {} "$WORK/stale.files/" \;
put_away stale "$WORK/stale" "detach of the stale DIR's disk"
attach_emulated fresh --profile ssd
echo 4 >"$q/max_sectors_kb"
cp -a "$WORK/stale.files"/. "$WORK/stale/"
echo "stale recorded $(cat "$WORK/stale/device") $(cat "$WORK/stale/device.id"), fresh is $dev $(losetup -n -O BACK-MAJ:MIN,BACK-INO "$dev" | tr -s ' ')"
"$emulated" detach "$WORK/stale" 2>"$WORK/stale.err" || true
still_attached "$dev" fresh "after detach of a stale DIR"
expect_eq "$(cat "$q/max_sectors_kb")" 4 "max_sectors_kb of another DIR's disk after detach of a stale DIR"
put_away fresh "$WORK/fresh" "detach of the fresh DIR"

# A plain disk.img under the mount point, attached before emudisk mounted over it, has the same
# backing_file; its file system answers with another device: not DIR's.
mkdir -p "$WORK/under/mnt"
head -c $((8 << 20)) /dev/zero >"$WORK/under/mnt/disk.img"
attach_loop "$WORK/under/mnt/disk.img"
plain=$dev
attach_emulated under --profile ssd
put_away under "$WORK/under" "detach over a plain disk.img"
expect_eq "$(cat "/sys/block/${plain#/dev/}/loop/backing_file" 2>/dev/null)" "$WORK/under/mnt/disk.img" "the plain loop device after detach"

# DIR as given: a trailing slash, a relative path, a space.
attach_emulated "with space" --profile ssd
put_away "with space" "$WORK/with space/" "DIR with a space and a trailing slash"
attach_emulated rel --profile ssd
put_away rel rel "a relative DIR"
attach_emulated dotted --profile ssd
put_away dotted "./dotted/../dotted//" "DIR with ./, .. and //"

# emudisk killed -9 (its mount stays, its connection dead): detach cleans up what is DIR's own.
attach_emulated crashed --profile ssd
# Should the detach below leave it (the check fails then), the test still removes what it made.
cleanup_steps=("! emulated_left '$dev' crashed || losetup -d '$dev'" "${cleanup_steps[@]}")
pid=$(cat "$WORK/crashed/emudisk.pid")
kill -9 "$pid"
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
# Past FUSE's attribute timeout (libfuse's 1 s): the kernel then has no word on the file's device
# or inode for the loop device (LOOP_GET_STATUS64 fails), as for any detach run later.
sleep 1.5
put_away crashed "$WORK/crashed" "detach after emudisk was killed -9"
if emulated_left "$dev" crashed; then fail "$dev left after emudisk was killed -9"; fi
# And a second time: nothing attached, said so, exit 0.
"$emulated" detach "$WORK/crashed" 2>"$WORK/twice.err" || fail "a second detach exited $?: $(cat "$WORK/twice.err")"
grep -q "nothing attached" "$WORK/twice.err" || fail "a second detach did not say that nothing is attached: $(cat "$WORK/twice.err")"
echo "ok: a copied and a stale DIR leave another's disk alone, queue lines checked, DIR as given, after kill -9, twice"
