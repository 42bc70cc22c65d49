#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The TuneD fragments (the emitter's golden outputs, which tuned_profile_test.cpp holds equal
# to TunedProfileEmitter's text) loaded by TuneD's own profile loader into a profile that
# includes another with its own [disk]: the units TuneD creates, in its order, with the
# devices, udev regex and options its disk and sysfs plugins take, and which udev property
# sets the regex matches. No daemon, no D-Bus, no device is touched.
source "$(dirname "$0")/lib.bash"

python=$(tuned_python) || python=""
[ -n "$python" ] || skip "TuneD's Python modules are missing (Debian package tuned; scripts/setup installs it)"

profiles=$WORK/profiles
mkdir -p "$profiles/disktune-check" "$profiles/parent"
printf '[main]\nsummary=parent\n\n[disk]\nelevator=bfq\n' >"$profiles/parent/tuned.conf"
{
  printf '[main]\nsummary=disktune check\ninclude=parent\n\n'
  cat "$TEST_DATA/golden/tuned_byid_wwn.conf"
  echo
  cat "$TEST_DATA/golden/tuned_loop.conf"
} >"$profiles/disktune-check/tuned.conf"

# udev properties as `udevadm info -q property` prints them (ata_id's ID_SERIAL, ID_WWN).
printf 'DEVNAME=/dev/sda\nDEVTYPE=disk\nID_BUS=ata\nID_SERIAL=WDC_WD800JB-00JJC0_WD-WMAM9AB12345\n' >"$WORK/by-serial"
printf 'DEVNAME=/dev/sdb\nDEVTYPE=disk\nID_BUS=ata\nID_SERIAL=renamed_by_a_firmware_update\nID_WWN=0x50014ee2b1234567\n' >"$WORK/by-wwn"
printf 'DEVNAME=/dev/sda\nDEVTYPE=disk\nID_BUS=ata\nID_SERIAL=WDC_WD800JB-00JJC0_WD-WMAM9AB12345X\nID_WWN=0x50014ee2b1234568\n' >"$WORK/other-drive"
printf 'DEVNAME=/dev/sda1\nDEVTYPE=partition\nID_SERIAL_SHORT=WD-WMAM9AB12345\n' >"$WORK/no-serial"

"$python" "$(dirname "$0")/tuned_profile_check.py" "$profiles" disktune-check \
  "$WORK/by-serial" "$WORK/by-wwn" "$WORK/other-drive" "$WORK/no-serial" >"$WORK/parsed" 2>"$WORK/log" ||
  fail "TuneD's loader refused the profile: $(cat "$WORK/log")"
cat >"$WORK/expected" <<'END'
summary=disktune check
unit disktune-disk-WDC_WD800JB-00JJC0_WD-WMAM9AB12345 type=disk devices=* devices_udev_regex=^(ID_WWN=0x50014ee2b1234567|ID_SERIAL=WDC_WD800JB-00JJC0_WD-WMAM9AB12345)$ priority=-1
  dynamic = 0
  readahead = 1024 KiB
unit disktune-disk-loop0 type=disk devices=loop0 devices_udev_regex=None priority=-1
  dynamic = 0
  elevator = mq-deadline
unit disktune-sysfs-loop0 type=sysfs devices=* devices_udev_regex=None priority=-1
  write /sys/block/loop0/queue/nr_requests = 64
  write /sys/block/loop0/queue/read_ahead_kb = 1024
unit disk type=disk devices=* devices_udev_regex=None priority=0
  elevator = bfq
by-serial matches disktune-disk-WDC_WD800JB-00JJC0_WD-WMAM9AB12345
by-wwn matches disktune-disk-WDC_WD800JB-00JJC0_WD-WMAM9AB12345
other-drive does not match disktune-disk-WDC_WD800JB-00JJC0_WD-WMAM9AB12345
no-serial does not match disktune-disk-WDC_WD800JB-00JJC0_WD-WMAM9AB12345
END
diff -u "$WORK/expected" "$WORK/parsed" >&2 || fail "TuneD parses the fragments differently (diff above)"
! grep -E 'WARNING|ERROR' "$WORK/log" >&2 || fail "TuneD's loader warned (above)"
echo "ok: TuneD $("$python" -c 'import tuned.version as v; print(v.TUNED_VERSION_STR)') loads the fragments as expected"
