# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's own hdparm.conf reader, run on a file of the test's (sourced after lib.bash):
# hdparm_options from /lib/hdparm/hdparm-functions and the udev helper /lib/udev/hdparm that
# 85-hdparm.rules runs. The reader hard-codes /etc/hdparm.conf and /sbin/hdparm, so it runs in
# a private mount namespace: the file bound over /etc/hdparm.conf, a stub that records its
# arguments bound over hdparm, and a tmpfs over /dev that holds no device node at all (only
# null and the by-id links named), so no real disk can be reached. The real /etc is never changed.

readonly hdparm_functions=/lib/hdparm/hdparm-functions hdparm_helper=/lib/udev/hdparm

# require_debian_hdparm: skip unless the reader can run here (root, unshare -m, the reader, perl).
require_debian_hdparm() {
  [ "$(id -u)" -eq 0 ] || skip "needs root for a private mount namespace"
  command -v unshare >/dev/null || skip "unshare (util-linux) not installed"
  [ -r "$hdparm_functions" ] && [ -r "$hdparm_helper" ] ||
    skip "Debian's hdparm reader ($hdparm_functions, $hdparm_helper) is not installed"
  command -v perl >/dev/null || skip "perl (used by $hdparm_helper) not installed"
  unshare -m --propagation private true 2>/dev/null || skip "unshare -m is not permitted here"
}

# debian_hdparm_read CONF "DISK..." "HELPER_DISK..." [LINK=TARGET...]: print what the reader
# makes of CONF: "hdparm_options DISK: [OPTIONS]" for each DISK (in sh, as the helper runs
# it), then "hdparm calls:" and the hdparm command lines the udev helper ran for each
# HELPER_DISK. Each LINK=TARGET becomes /dev/disk/by-id/LINK -> TARGET (e.g. ata-X=../../sda).
debian_hdparm_read() {
  local conf=$1 disks=$2 helper_disks=$3 ns=$WORK/debian-hdparm
  shift 3
  mkdir -p "$ns/bin" && rm -f "$ns/calls"
  printf '#!/bin/sh\necho "$*" >>"%s/calls"\n' "$ns" >"$ns/bin/hdparm"
  printf '#!/bin/sh\nexit 0\n' >"$ns/bin/udevadm"      # no udev properties: no default APM policy
  printf '#!/bin/sh\nexit 0\n' >"$ns/bin/on_ac_power"  # on AC power
  chmod +x "$ns/bin/"*
  local links="" link
  for link in "$@"; do links+="ln -s '${link#*=}' '/dev/disk/by-id/${link%%=*}'"$'\n'; done
  cat >"$ns/inner.sh" <<END
set -eu
# Only /dev/null is carried over (a bind of that one node: removing \$WORK cannot reach /dev).
touch "$ns/null" && mount --bind /dev/null "$ns/null"
mount -t tmpfs -o mode=755 disktune-dev /dev
touch /dev/null && mount --bind "$ns/null" /dev/null
mount --bind "$conf" /etc/hdparm.conf
mount --bind "$ns/bin/hdparm" "$(readlink -f /sbin/hdparm)"
mkdir -p /dev/disk/by-id
$links
export PATH="$ns/bin:\$PATH"
for disk in $disks; do
  echo "hdparm_options \$disk: [\$(sh -c '. $hdparm_functions && hdparm_options "\$1"' sh \$disk | xargs)]"
done
for disk in $helper_disks; do DEVNAME=\$disk sh $hdparm_helper; done
echo "hdparm calls:"; cat "$ns/calls" 2>/dev/null || true
END
  unshare -m --propagation private bash "$ns/inner.sh" 2>"$ns/err" || fail "the reader failed in the namespace: $(cat "$ns/err")"
}
