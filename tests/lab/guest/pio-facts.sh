# SPDX-License-Identifier: GPL-2.0-or-later
# Guest script (PIO guest): what -m0 does to reads (docs/architecture.md, ATA lab). Needs guest/c-timings.sh
# (the hdparm -c0/-c1 timings) before it. Output: m0.tsv ("step exit detail" lines).
set +e
dev=/dev/sda
step() { # step NAME COMMAND...: one line of m0.tsv
  name=$1; shift
  "$@" >/tmp/step.out 2>&1; rc=$?
  printf '%s\t%s\t%s\n' "$name" "$rc" "$(tr '\n' ' ' </tmp/step.out | cut -c1-200)" >>m0.tsv
}
read4k() { dd if=$dev of=/dev/null bs=4k count=1 skip=$1 iflag=direct; }
step sum-before sh -c "dd if=$dev bs=1M count=8 skip=16 iflag=direct 2>/dev/null | sha256sum"
step set-m0 hdparm --yes-i-know-what-i-am-doing -m0 $dev
step get-m hdparm -m $dev
step read-1 read4k 1000
step read-2 read4k 2000
step read-3 read4k 3000
step set-m16 hdparm --yes-i-know-what-i-am-doing -m16 $dev
step read-after read4k 4000
step sum-after sh -c "dd if=$dev bs=1M count=8 skip=16 iflag=direct 2>/dev/null | sha256sum"
dmesg | grep -E 'failed command|I/O error|exception Emask' >m0-dmesg.txt
