#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install, the whole cycle on a loop device, each form checked by the real tool:
# tune -> install --root -> the udev rule run by real udev (`udevadm test`, the rules
# directory bind-mounted in a private mount namespace) sets the winner, and sets it again
# after a value is changed by hand -> `systemd-analyze verify` of the boot unit in the
# install tree -> the resume hook run as systemd-sleep runs it (`post`) re-applies a drifted
# value -> verify -> restore -> uninstall leaves the tree empty. The machine's own /etc is
# never written (namespaces only; an /etc/disktune mount point is made and removed if absent).
source "$(dirname "$0")/lib.bash"

require_loop
for tool in udevadm unshare systemd-analyze; do
  command -v "$tool" >/dev/null || skip "$tool not installed (scripts/setup installs udev and systemd)"
done
attach_iops_capped_loop 64
tune_capped_winner
name=$(basename "$dev")

# install --root: the report, the rule keyed by the backing file, the unit and its link, the hook.
root=$WORK/root
mkdir "$root"
"$DISKTUNE" install "$WORK/r.json" --root "$root" >"$WORK/i.out" 2>&1 || fail "install exited $? ($(cat "$WORK/i.out"))"
rule=$(find "$root/etc/udev/rules.d" -name '69-disktune-*.rules')
[ -f "$rule" ] || fail "no udev rule installed: $(cat "$WORK/i.out")"
grep -qF "KERNEL==\"loop[0-9]*\", ATTR{loop/backing_file}==\"$WORK/disk.img\"" "$rule" || fail "rule: $(cat "$rule")"
grep -q "KERNEL==\"$name\"" "$rule" && fail "the rule names the kernel name: $(cat "$rule")"

# Real udev: the rule fires on a change event; a value changed by hand is set again by the next one.
udev_change() {
  unshare -m sh -c "mount --bind '$root/etc/udev/rules.d' /etc/udev/rules.d && udevadm test --action=change /sys/block/$name" \
    >"$WORK/udev.out" 2>&1 || fail "udevadm test failed: $(tail -5 "$WORK/udev.out")"
}
udev_change
expect_eq "$(cat "$q/max_sectors_kb")" "$winner" "max_sectors_kb after a udev change event"
echo 128 >"$q/max_sectors_kb"
udev_change
expect_eq "$(cat "$q/max_sectors_kb")" "$winner" "max_sectors_kb after a change by hand and another change event"
echo 128 >"$q/max_sectors_kb"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings put back after the udev checks"

# The boot unit, by systemd-analyze verify in the install tree (its ExecStart must exist there).
mkdir -p "$root/usr/sbin" "$root/usr/lib/systemd"
cp "$DISKTUNE" "$root/usr/sbin/disktune"
ln -s /usr/lib/systemd/system "$root/usr/lib/systemd/system"
systemd-analyze verify --root="$root" disktune-apply.service >"$WORK/analyze.out" 2>&1 ||
  fail "systemd-analyze verify: $(cat "$WORK/analyze.out")"
expect_eq "$(readlink "$root/etc/systemd/system/multi-user.target.wants/disktune-apply.service")" \
  ../disktune-apply.service "the unit's enable link"
rm -r "$root/usr/sbin" "$root/usr/lib/systemd/system"

# The resume hook, with this build as its binary, run as systemd-sleep does after resume.
hook_root=$WORK/hook-root
mkdir "$hook_root"
"$DISKTUNE" install "$WORK/r.json" --root "$hook_root" --exe "$DISKTUNE" >/dev/null || fail "install --exe exited $?"
if [ ! -d /etc/disktune ]; then
  mkdir /etc/disktune
  cleanup_steps+=("rmdir /etc/disktune")
fi
run_hook() {
  unshare -m sh -c "mount --bind '$hook_root/etc/disktune' /etc/disktune && '$hook_root/usr/lib/systemd/system-sleep/disktune' $1" \
    >"$WORK/hook.out" 2>&1 || fail "the hook ($1) exited $?: $(cat "$WORK/hook.out")"
}
run_hook pre
expect_eq "$(cat "$q/max_sectors_kb")" 128 "max_sectors_kb after the hook's pre (nothing to do)"
run_hook post
expect_eq "$(cat "$q/max_sectors_kb")" "$winner" "max_sectors_kb after the hook's post ($(cat "$WORK/hook.out"))"
journal=$(sed -n 's/.*; journal \(.*\); .[^ ]*disktune restore.*/\1/p' "$WORK/hook.out")
[ -n "$journal" ] && cleanup_steps+=("rm -f '$journal' '$journal'.*")
"$DISKTUNE" verify --config "$hook_root/etc/disktune" >"$WORK/v.out" 2>&1 || fail "verify after the hook: $(cat "$WORK/v.out")"
echo 256 >"$q/max_sectors_kb"
code=0
"$DISKTUNE" verify --config "$hook_root/etc/disktune" >"$WORK/v.out" 2>&1 || code=$?
expect_eq "$code" 1 "verify after a drift ($(cat "$WORK/v.out"))"
"$DISKTUNE" restore "$dev" >/dev/null 2>"$WORK/rs.err" || fail "restore exited $? ($(cat "$WORK/rs.err"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after restore"

# A file install did not write is never overwritten or removed.
echo "# mine" >"$WORK/mine.rules"
cp "$WORK/mine.rules" "$rule"
code=0
"$DISKTUNE" install "$WORK/r.json" --root "$root" >"$WORK/i2.out" 2>&1 || code=$?
expect_eq "$code" 2 "install over a foreign file ($(cat "$WORK/i2.out"))"
grep -q "exists and was not written by disktune install" "$WORK/i2.out" || fail "install said: $(cat "$WORK/i2.out")"
"$DISKTUNE" uninstall "$WORK/r.json" --root "$root" >"$WORK/u.out" 2>&1 || fail "uninstall exited $?"
expect_eq "$(cat "$rule")" "# mine" "the foreign rule after uninstall"
rm "$rule"
left=$(find "$root" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left: $left ($(cat "$WORK/u.out"))"
"$DISKTUNE" uninstall "$WORK/r.json" --root "$hook_root" >/dev/null || fail "uninstall of the hook tree exited $?"
[ -z "$(find "$hook_root" -type f -o -type l)" ] || fail "uninstall left: $(find "$hook_root" -type f -o -type l)"
echo "ok: max_sectors_kb=$winner set by udev twice, by the resume hook, verified, restored; unit verified (${SECONDS} s)"
