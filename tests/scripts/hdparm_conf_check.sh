#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The /etc/hdparm.conf blocks (the emitter's golden outputs, which hdparm_conf_test.cpp holds
# equal to HdparmConfEmitter's text) read by Debian's own reader: hdparm_options from
# /lib/hdparm/hdparm-functions and the udev helper /lib/udev/hdparm that 85-hdparm.rules runs.
# The reader hard-codes /etc/hdparm.conf and /sbin/hdparm, so all runs happen in a private
# mount namespace: the file bound over /etc/hdparm.conf, a stub that records its arguments
# bound over hdparm, and a tmpfs over /dev that holds no device node at all (only null and
# the by-id links under test), so no real disk can be reached. The real /etc is never changed.
source "$(dirname "$0")/lib.bash"

[ "$(id -u)" -eq 0 ] || skip "needs root for a private mount namespace"
command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
functions=/lib/hdparm/hdparm-functions
helper=/lib/udev/hdparm
[ -r "$functions" ] && [ -r "$helper" ] || skip "Debian's hdparm reader ($functions, $helper) is not installed"
command -v perl >/dev/null || skip "perl (used by $helper) not installed"
unshare -m --propagation private true 2>/dev/null || skip "unshare -m is not permitted here"
hdparm_bin=$(readlink -f /sbin/hdparm)

# Both blocks in one file, as a host with two tuned drives has them.
cat "$TEST_DATA/golden/hdparm_conf_seed.conf" "$TEST_DATA/golden/hdparm_conf_byid.conf" >"$WORK/hdparm.conf"
# Why the emitter writes no block for an NVMe drive (hdparm_conf_test.cpp): the reader cuts
# the link's target nvme0n1 at its first digit, so the block names /dev/nvme, no drive.
printf '/dev/disk/by-id/nvme-EXAMPLE_SERIAL {\n\tread_ahead_sect = 512\n}\n' >>"$WORK/hdparm.conf"
mkdir -p "$WORK/bin"
cat >"$WORK/bin/hdparm" <<END
#!/bin/sh
echo "\$*" >>"$WORK/calls"
END
printf '#!/bin/sh\nexit 0\n' >"$WORK/bin/udevadm"      # no udev properties: no default APM policy
printf '#!/bin/sh\nexit 0\n' >"$WORK/bin/on_ac_power"  # on AC power
chmod +x "$WORK/bin/"*

# Run inside the namespace: `inner.sh WITH_BY_ID_LINK` prints what the reader makes of the file.
cat >"$WORK/inner.sh" <<END
set -eu
# Only /dev/null is carried over (a bind of that one node: removing \$WORK cannot reach /dev).
touch "$WORK/null" && mount --bind /dev/null "$WORK/null"
mount -t tmpfs -o mode=755 disktune-dev /dev
touch /dev/null && mount --bind "$WORK/null" /dev/null
mount --bind "$WORK/hdparm.conf" /etc/hdparm.conf
mount --bind "$WORK/bin/hdparm" "$hdparm_bin"
mkdir -p /dev/disk/by-id
ln -s ../../nvme0n1 /dev/disk/by-id/nvme-EXAMPLE_SERIAL
if [ "\$1" = 1 ]; then ln -s ../../sda /dev/disk/by-id/ata-WDC_WD800JB-00JJC0_WD-WMAM9AB12345; fi
export PATH="$WORK/bin:\$PATH"
for disk in /dev/hdb /dev/sda /dev/sdb /dev/nvme0n1 /dev/nvme; do  # in sh, as the helper runs them
  echo "hdparm_options \$disk: [\$(sh -c '. $functions && hdparm_options "\$1"' sh \$disk | xargs)]"
done
for disk in /dev/hdb /dev/sda; do DEVNAME=\$disk sh $helper; done
echo "hdparm calls:"; cat "$WORK/calls" 2>/dev/null || true
END

run_reader() {  # run_reader WITH_BY_ID_LINK
  rm -f "$WORK/calls"
  unshare -m --propagation private bash "$WORK/inner.sh" "$1" >"$WORK/out" 2>"$WORK/err" ||
    fail "the reader failed in the namespace: $(cat "$WORK/err")"
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
