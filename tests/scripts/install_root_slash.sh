#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `install --root /` is the running system, as no --root is: an --exe that does not exist is
# refused (exit 2), nothing written. Run in a chroot of a temporary directory (the binary and
# its libraries copied in), so "/" is that directory and the machine's /etc is never written.
source "$(dirname "$0")/lib.bash"
command -v jq >/dev/null || skip "jq not installed"
command -v chroot >/dev/null || skip "chroot not installed"
jail=$WORK/jail
mkdir -p "$jail"
cp "$DISKTUNE" "$jail/disktune"
for lib in $(ldd "$DISKTUNE" | grep -o '/[^ ]*'); do cp --parents "$lib" "$jail"; done
jq '.device.path="/dev/loop9" | .device.simulated=false | .device.model="Loop" | .device.serial="" |
  .device.backing_file="/tmp/one.img" | .winner.changes={"read_ahead_kb":256} | .space.dimensions += [{"setting":"read_ahead_kb","values":[128,256]}] | .baseline.settings.read_ahead_kb = 128' \
  "$TEST_DATA/golden/report_seed.json" >"$jail/r.json"
chroot "$jail" /disktune --help >/dev/null 2>&1 || skip "the binary does not run in a chroot"
for root in / /. ; do
  code=0
  timeout 10 chroot "$jail" /disktune install /r.json --root "$root" --exe /usr/bin/absent >"$WORK/out" 2>&1 || code=$?
  expect_eq "$code" 2 "install --root $root --exe of a missing binary ($(cat "$WORK/out"))"
  grep -q "/usr/bin/absent does not exist" "$WORK/out" || fail "install said: $(cat "$WORK/out")"
  [ ! -e "$jail/etc" ] || fail "install --root $root wrote: $(find "$jail/etc")"
done
# Under another root (an image being built) the binary may come later: install warns, naming
# what is missing and how to fix it, for --exe and for the default /usr/sbin/disktune alike.
for exe_args in "--exe /nonexistent/disktune" ""; do
  rm -rf "$WORK/tree" && mkdir "$WORK/tree"
  code=0
  # shellcheck disable=SC2086  # exe_args: no option, or an option and its value
  timeout 10 "$DISKTUNE" install "$jail/r.json" --root "$WORK/tree" $exe_args >"$WORK/out" 2>&1 || code=$?
  expect_eq "$code" 0 "install --root DIR $exe_args ($(cat "$WORK/out"))"
  exe=${exe_args#--exe }
  exe=${exe:-/usr/sbin/disktune}
  grep -qF "warning: $WORK/tree$exe does not exist: the boot unit and the resume hook run it in that system" "$WORK/out" ||
    fail "install --root DIR with a missing $exe said: $(cat "$WORK/out")"
done
# An absolute symlink in the image points into the image, not into this machine's /: a link to
# the image's own binary is no warning, a link to /bin/true that only this machine has is one.
rm -rf "$WORK/tree" && mkdir -p "$WORK/tree/usr/sbin" "$WORK/tree/opt/dt"
cp "$DISKTUNE" "$WORK/tree/opt/dt/disktune"
ln -s /opt/dt/disktune "$WORK/tree/usr/sbin/disktune"
timeout 10 "$DISKTUNE" install "$jail/r.json" --root "$WORK/tree" >"$WORK/out" 2>&1 || fail "install --root with a linked binary exited $? ($(cat "$WORK/out"))"
! grep -q "warning" "$WORK/out" || fail "the image's linked binary was not found: $(cat "$WORK/out")"
rm -rf "$WORK/tree" && mkdir -p "$WORK/tree/usr/sbin"
ln -s /bin/true "$WORK/tree/usr/sbin/disktune"
timeout 10 "$DISKTUNE" install "$jail/r.json" --root "$WORK/tree" >"$WORK/out" 2>&1 || fail "install --root with a dangling link exited $? ($(cat "$WORK/out"))"
grep -qF "warning: $WORK/tree/bin/true does not exist" "$WORK/out" || fail "a link to this machine's /bin/true passed: $(cat "$WORK/out")"
echo "ok: --root / refuses a missing --exe like no --root does; another root warns"
