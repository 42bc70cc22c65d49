#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The role's `disktune install`, which rewrites every file each time: prints "disktune-role:
# changed" when a file or link it may write under ROOT differs afterwards, else "unchanged".
# Usage: disktune-install.sh DISKTUNE ROOT REPORT FORMS EXE (EXE: what the unit and hook run).
set -euo pipefail
disktune=$1 root=${2%/} report=$3 forms=$4 exe=$5

# installed: every path install writes (docs/apply.md "install"), with its content's hash or link target.
installed() {
  local p
  for p in "$root"/etc/disktune/*.json "$root"/etc/udev/rules.d/69-disktune-*.rules \
    "$root"/etc/systemd/system/disktune-apply.service \
    "$root"/etc/systemd/system/multi-user.target.wants/disktune-apply.service \
    "$root"/usr/lib/systemd/system-sleep/disktune "$root"/etc/hdparm.conf "$root"/etc/tuned/disktune-*/tuned.conf; do
    if [ -L "$p" ]; then
      echo "$p -> $(readlink "$p")"
    elif [ -f "$p" ]; then
      echo "$p $(sha256sum <"$p")"
    fi
  done
}

before=$(installed)
"$disktune" install "$report" --root "${root:-/}" --form "$forms" --exe "$exe"
if [ "$(installed)" = "$before" ]; then
  echo "disktune-role: unchanged"
else
  echo "disktune-role: changed"
fi
