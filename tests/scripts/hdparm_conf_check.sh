#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The /etc/hdparm.conf blocks (the emitter's golden outputs, which hdparm_conf_test.cpp holds
# equal to HdparmConfEmitter's text) read by Debian's own reader (debian_hdparm.bash).
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/debian_hdparm.bash"
require_debian_hdparm

# Both blocks in one file, as a host with two tuned drives has them.
cat "$TEST_DATA/golden/hdparm_conf_seed.conf" "$TEST_DATA/golden/hdparm_conf_byid.conf" >"$WORK/hdparm.conf"
# Why the emitter writes no block for an NVMe drive (hdparm_conf_test.cpp): the reader cuts
# the link's target nvme0n1 at its first digit, so the block names /dev/nvme, no drive.
printf '/dev/disk/by-id/nvme-EXAMPLE_SERIAL {\n\tread_ahead_sect = 512\n}\n' >>"$WORK/hdparm.conf"
run_reader() {  # run_reader WITH_BY_ID_LINK
  local links=(nvme-EXAMPLE_SERIAL=../../nvme0n1)
  [ "$1" = 1 ] && links+=(ata-WDC_WD800JB-00JJC0_WD-WMAM9AB12345=../../sda)
  debian_hdparm_read "$WORK/hdparm.conf" "/dev/hdb /dev/sda /dev/sdb /dev/nvme0n1 /dev/nvme" "/dev/hdb /dev/sda" \
    "${links[@]}" >"$WORK/out"
}

run_reader 1
cat >"$WORK/expected" <<'END'
hdparm_options /dev/hdb: [-X66 -d1 -u1 -m16 -c3]
hdparm_options /dev/sda: [-a2048]
hdparm_options /dev/sdb: []
hdparm_options /dev/nvme0n1: []
hdparm_options /dev/nvme: [-a512]
hdparm calls:
-q -X66 -d1 -u1 -m16 -c3 /dev/hdb
-q -a2048 /dev/sda
END
diff -u "$WORK/expected" "$WORK/out" >&2 || fail "Debian's reader parses the blocks differently (diff above)"

# Without the by-id link (the drive absent, or udev has not made the link yet) the reader
# cannot resolve the by-id block: /dev/sda gets nothing, and nothing else gets its options.
run_reader 0
grep -qxF 'hdparm_options /dev/sda: []' "$WORK/out" || fail "by-id block applied without its link: $(cat "$WORK/out")"
grep -qx -- '-q -X66 -d1 -u1 -m16 -c3 /dev/hdb' "$WORK/out" || fail "the /dev/hdb block was lost: $(cat "$WORK/out")"
[ "$(grep -c '^-q' "$WORK/out")" = 1 ] || fail "unexpected hdparm calls: $(cat "$WORK/out")"

# The real /etc/hdparm.conf was never replaced outside the namespace.
cmp -s /etc/hdparm.conf "$WORK/hdparm.conf" && fail "/etc/hdparm.conf outside the namespace holds the test file"
echo "ok: Debian's hdparm reader applies each block to its drive only"
