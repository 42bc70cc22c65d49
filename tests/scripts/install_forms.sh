#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install --form: every form of an ATA drive's report under --root, each
# read by the program that uses it: the hdparm.conf block by Debian's own reader (beside a
# block of the user's, which is kept byte for byte), the TuneD profile by TuneD's loader
# (its regex matching the drive's udev properties and no other drive's). A second install
# changes nothing; uninstall gives back the user's hdparm.conf byte for byte and leaves no
# file. Refused, nothing written: a loop device's report for hdparm-conf and tuned (neither
# can name it stably), an unknown form, another --exe for the shared unit, a damaged block.
# A temporary file an install killed before its rename is removed. No device is touched.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/debian_hdparm.bash"
command -v jq >/dev/null || skip "jq not installed"

# An ATA drive's report: a simulated tune's, with the identity of a real disk (install reads
# only the report; it never opens a device).
"$DISKTUNE" tune sim: --max-trials 3 --journal "$WORK/j" --report "$WORK/sim.json" >"$WORK/tune.out" 2>&1 ||
  fail "simulated tune exited $?: $(tail -3 "$WORK/tune.out")"
byid=ata-IBM-DJNA-352500_GW0GWF05809
jq --arg byid "/dev/disk/by-id/$byid" '.device.simulated = false | .device.path = "/dev/sda" |
    .device.stable_path = $byid | .winner.changes = {"multcount": 4, "readahead": 512}' \
  "$WORK/sim.json" >"$WORK/ata.json"
key=IBM-DJNA-352500_GW0GWF05809
root=$WORK/root
mkdir -p "$root/etc"
printf '# the user'"'"'s own\n/dev/hda {\n\tdma = on\n}\n' >"$root/etc/hdparm.conf"
cp "$root/etc/hdparm.conf" "$WORK/user.conf"
chmod 0640 "$root/etc/hdparm.conf" && chown 1000:6 "$root/etc/hdparm.conf"  # the user's mode, owner and group
# What an install killed between mkstemp and rename leaves, an hour old.
mkdir -p "$root/etc/disktune" && touch -d '1 hour ago' "$root/etc/disktune/.$key.json.AbC123"

install_all() { "$DISKTUNE" install "$WORK/ata.json" --root "$root" --exe /usr/sbin/disktune --form tuned,udev,hdparm-conf,systemd "$@"; }
install_all >"$WORK/i1.out" 2>&1 || fail "install exited $?: $(cat "$WORK/i1.out")"
[ ! -e "$root/etc/disktune/.$key.json.AbC123" ] || fail "the stale temporary file was left: $(cat "$WORK/i1.out")"
grep -q "left by an interrupted install" "$WORK/i1.out" || fail "the stale file's removal was not said: $(cat "$WORK/i1.out")"
for f in "etc/disktune/$key.json" "etc/udev/rules.d/69-disktune-$key.rules" etc/systemd/system/disktune-apply.service \
         usr/lib/systemd/system-sleep/disktune "etc/tuned/disktune-$key/tuned.conf"; do
  [ -f "$root/$f" ] || fail "install wrote no $f: $(cat "$WORK/i1.out")"
done
head -c "$(stat -c %s "$WORK/user.conf")" "$root/etc/hdparm.conf" | cmp -s - "$WORK/user.conf" ||
  fail "the user's block was changed: $(cat "$root/etc/hdparm.conf")"
expect_eq "$(stat -c '%a %u:%g' "$root/etc/hdparm.conf")" "640 1000:6" "hdparm.conf's mode and owner after install"

# Debian's reader: the block applies to the drive through its by-id name, the user's to hda.
if (require_debian_hdparm) 2>/dev/null; then
  debian_hdparm_read "$root/etc/hdparm.conf" "/dev/sda /dev/sdb /dev/hda" "/dev/sda" "$byid=../../sda" >"$WORK/reader"
  grep -qxF 'hdparm_options /dev/sda: [-m4 -a512]' "$WORK/reader" || fail "Debian's reader: $(cat "$WORK/reader")"
  grep -qxF 'hdparm_options /dev/sdb: []' "$WORK/reader" || fail "the block reached another disk: $(cat "$WORK/reader")"
  grep -qxF 'hdparm_options /dev/hda: [-d1]' "$WORK/reader" || fail "the user's block was lost: $(cat "$WORK/reader")"
  grep -qxF -- '-q -m4 -a512 /dev/sda' "$WORK/reader" || fail "the udev helper ran: $(cat "$WORK/reader")"
else
  echo "note: Debian's hdparm reader cannot run here; the block was not read by it"
fi

# TuneD's loader: the profile's disk unit, matched by ID_SERIAL only.
if python=$(tuned_python); then
  printf 'DEVNAME=/dev/sda\nDEVTYPE=disk\nID_BUS=ata\nID_SERIAL=%s\n' "$key" >"$WORK/drive"
  printf 'DEVNAME=/dev/sdb\nDEVTYPE=disk\nID_BUS=ata\nID_SERIAL=%sX\n' "$key" >"$WORK/other"
  "$python" "$(dirname "$0")/tuned_profile_check.py" "$root/etc/tuned" "disktune-$key" "$WORK/drive" "$WORK/other" \
    >"$WORK/tuned" 2>"$WORK/tuned.log" || fail "TuneD's loader refused the profile: $(cat "$WORK/tuned.log")"
  grep -qxF "unit disktune-disk-$key type=disk devices=* devices_udev_regex=^(ID_SERIAL=$key)\$ priority=-1" "$WORK/tuned" ||
    fail "TuneD's unit: $(cat "$WORK/tuned")"
  grep -qxE '  readahead = 256(\.0)? KiB' "$WORK/tuned" || fail "TuneD's readahead: $(cat "$WORK/tuned")"
  grep -qxF "drive matches disktune-disk-$key" "$WORK/tuned" || fail "TuneD does not match the drive: $(cat "$WORK/tuned")"
  grep -qxF "other does not match disktune-disk-$key" "$WORK/tuned" || fail "TuneD matches another drive: $(cat "$WORK/tuned")"
else
  echo "note: TuneD's Python modules are missing; the profile was not loaded by TuneD"
fi

# A second install with the same inputs: the same tree, one block.
snapshot() { (cd "$root" && find . -type f -print0 | sort -z | xargs -0 sha256sum; find . -type l | sort); }
snapshot >"$WORK/tree1"
install_all >"$WORK/i2.out" 2>&1 || fail "second install exited $?: $(cat "$WORK/i2.out")"
snapshot | diff -u "$WORK/tree1" - >&2 || fail "a second install changed the tree (diff above)"
expect_eq "$(grep -c '^# BEGIN disktune install' "$root/etc/hdparm.conf")" 1 "blocks in hdparm.conf after two installs"

# The shared unit keeps the --exe of the drives installed with it.
jq '.device.serial = "OTHER1" | .device.stable_path = "/dev/disk/by-id/ata-IBM-DJNA-352500_OTHER1"' "$WORK/ata.json" >"$WORK/other.json"
set +e
"$DISKTUNE" install "$WORK/other.json" --root "$root" --exe /opt/disktune >"$WORK/exe.out" 2>&1
code=$?
set -e
expect_eq "$code" 2 "install with another --exe for the shared unit (exit)"
grep -q "ExecStart=/usr/sbin/disktune" "$WORK/exe.out" || fail "the refusal does not name the unit's binary: $(cat "$WORK/exe.out")"
snapshot | diff -u "$WORK/tree1" - >&2 || fail "a refused install wrote (diff above)"

# Refused, nothing written: forms a loop device's report cannot take, an unknown form.
jq '.device.path = "/dev/loop7" | .device.stable_path = null | .device.serial = "" | .device.backing_file = "/srv/disk.img"' \
  "$WORK/ata.json" >"$WORK/loop.json"
refused() {  # refused WHAT PATTERN ARGS...
  local what=$1 pattern=$2 code=0
  shift 2
  "$DISKTUNE" install "$@" >"$WORK/refused.out" 2>&1 || code=$?
  expect_eq "$code" 2 "$what (exit)"
  grep -q -- "$pattern" "$WORK/refused.out" || fail "$what: $(cat "$WORK/refused.out")"
  snapshot | diff -u "$WORK/tree1" - >&2 || fail "$what wrote (diff above)"
}
refused "hdparm-conf for a loop device" "only to /dev/sd\[a-z\] and /dev/hd\[a-z\] (85-hdparm.rules), not to loop" "$WORK/loop.json" --root "$root" --form hdparm-conf
refused "tuned for a loop device" "only by its kernel name" "$WORK/loop.json" --root "$root" --form tuned
refused "an unknown form" "unknown form 'cron'" "$WORK/ata.json" --root "$root" --form udev,cron
refused "a form given twice" "given twice" "$WORK/ata.json" --root "$root" --form udev,udev

# A block whose END line was edited away is refused, not guessed at.
cp "$root/etc/hdparm.conf" "$WORK/good.conf"
sed -i "/^# END disktune install $key\$/d" "$root/etc/hdparm.conf"
snapshot >"$WORK/tree1"
refused "a damaged block" "has no '# END disktune install" "$WORK/ata.json" --root "$root" --form hdparm-conf
cp "$WORK/good.conf" "$root/etc/hdparm.conf"

# Two installs into one root at once: one waits for the other, both blocks stay (without a
# lock, 8 of 25 such runs lost one).
for round in 1 2 3 4 5 6 7 8; do
  race=$WORK/race-root
  rm -rf "$race" && mkdir -p "$race/etc"
  "$DISKTUNE" install "$WORK/ata.json" --root "$race" --form udev,hdparm-conf >"$WORK/race1.out" 2>&1 &
  first=$!
  "$DISKTUNE" install "$WORK/other.json" --root "$race" --form udev,hdparm-conf >"$WORK/race2.out" 2>&1 ||
    fail "round $round: the second install exited $?: $(cat "$WORK/race2.out")"
  wait "$first" || fail "round $round: the first install exited $?: $(cat "$WORK/race1.out")"
  expect_eq "$(grep -c '^# BEGIN disktune install' "$race/etc/hdparm.conf")" 2 "round $round: blocks after two installs at once"
done
rm -rf "$race"

# An hdparm.conf too large to read whole is refused, never replaced by the block alone.
big=$WORK/big-root
mkdir -p "$big/etc" && truncate -s 300M "$big/etc/hdparm.conf"
code=0
"$DISKTUNE" install "$WORK/ata.json" --root "$big" --form hdparm-conf >"$WORK/big.out" 2>&1 || code=$?
expect_eq "$code" 2 "install over a 300 MiB hdparm.conf (exit)"
expect_eq "$(stat -c %s "$big/etc/hdparm.conf")" "$((300 << 20))" "the large hdparm.conf's size after a refused install"
rm -rf "$big"

# uninstall: the user's hdparm.conf back byte for byte, nothing else left.
"$DISKTUNE" uninstall "$WORK/ata.json" --root "$root" >"$WORK/u.out" 2>&1 || fail "uninstall exited $?: $(cat "$WORK/u.out")"
cmp "$root/etc/hdparm.conf" "$WORK/user.conf" || fail "hdparm.conf after uninstall: $(cat "$root/etc/hdparm.conf")"
left=$(cd "$root" && find . \( -type f -o -type l \) ! -path ./etc/hdparm.conf)
[ -z "$left" ] || fail "uninstall left: $left"
[ ! -e "$root/etc/tuned/disktune-$key" ] || fail "uninstall left the TuneD profile directory"
echo "ok: install --form writes every form, each read by its own tool; uninstall takes exactly them back"
