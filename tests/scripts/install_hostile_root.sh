#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# install/uninstall against a hostile --root (no device needed: install reads only the report):
# two drives whose keys collide must not replace or remove each other's files; a FIFO, a
# device or a symlinked directory at a target path is refused at once with nothing written or
# removed through it; an empty --root is refused; a report path with a newline cannot add
# a line to the rule file; a drive whose identity udev cannot match is refused.
source "$(dirname "$0")/lib.bash"
command -v jq >/dev/null || skip "jq not installed"

report() {  # report BACKING_FILE OUT: a loop-device report whose winner sets read_ahead_kb
  jq --arg b "$1" '.device.path="/dev/loop9" | .device.simulated=false | .device.model="Loop" |
    .device.serial="" | .device.backing_file=$b | .winner.changes={"read_ahead_kb":256} | .space.dimensions += [{"setting":"read_ahead_kb","values":[128,256,512]}] | .baseline.settings.read_ahead_kb = 128' \
    "$TEST_DATA/golden/report_seed.json" >"$2"
}
report "/tmp/a b.img" "$WORK/a.json"
report "/tmp/a_b.img" "$WORK/b.json"
run() {  # run EXPECTED_CODE WHAT ARGS...: bounded, output in $WORK/out
  local want=$1 what=$2 code=0
  shift 2
  timeout 10 "$DISKTUNE" "$@" >"$WORK/out" 2>&1 || code=$?
  expect_eq "$code" "$want" "$what ($(cat "$WORK/out"))"
}

# Colliding keys ("a b" and "a_b" both map to a_b): the second drive is refused, not swapped in.
root=$WORK/root
mkdir "$root"
run 0 "install of drive a" install "$WORK/a.json" --root "$root"
run 2 "install of drive b over a's key" install "$WORK/b.json" --root "$root"
grep -qF '"/tmp/a b.img"' "$root"/etc/udev/rules.d/*.rules || fail "drive a's rule was replaced: $(cat "$root"/etc/udev/rules.d/*)"
run 0 "uninstall of drive b (never installed)" uninstall "$WORK/b.json" --root "$root"
[ -n "$(find "$root/etc/disktune" -name '*.json')" ] || fail "uninstall of drive b removed drive a's report: $(cat "$WORK/out")"
# The same drive re-tuned after a firmware update (another size too) is no other drive.
jq '.device.firmware="NEW1" | .device.size_bytes=4096 | .winner.changes.read_ahead_kb=512' "$WORK/a.json" >"$WORK/a2.json"
run 0 "install of drive a re-tuned" install "$WORK/a2.json" --root "$root"
run 0 "uninstall of drive a" uninstall "$WORK/a.json" --root "$root"
[ -z "$(find "$root" -type f -o -type l)" ] || fail "uninstall left: $(find "$root" -type f -o -type l)"

# An installed file install cannot read (a unit grown past 256 MiB) is refused by name, not
# taken for a file of someone else's.
run 0 "install of drive a" install "$WORK/a.json" --root "$root"
truncate -s 300M "$root/etc/systemd/system/disktune-apply.service"
run 2 "install over an unreadable unit" install "$WORK/a.json" --root "$root"
grep -q "disktune-apply.service cannot be read" "$WORK/out" || fail "the unreadable unit is not named: $(cat "$WORK/out")"
rm -rf "$root"

# A FIFO, a device or a symlink (to a file with install's mark, outside the root) where the
# rule goes: refused within seconds, before anything is written.
echo "# written by disktune install" >"$WORK/outside.rules"
for kind in fifo device symlink; do
  r=$WORK/$kind
  mkdir -p "$r/etc/udev/rules.d"
  target=$r/etc/udev/rules.d/69-disktune-loop_tmp_a_b.img.rules
  case $kind in
    fifo) mkfifo "$target" ;;
    device) mknod "$target" c 1 5 ;;  # /dev/zero
    symlink) ln -s "$WORK/outside.rules" "$target" ;;
  esac
  run 2 "install over a $kind" install "$WORK/a.json" --root "$r"
  [ -z "$(find "$r" -type f)" ] || fail "install over a $kind wrote: $(find "$r" -type f)"
done
expect_eq "$(cat "$WORK/outside.rules")" "# written by disktune install" "the symlink's target after install"

# A directory of the root that is a symlink out of it: never written or removed through.
r=$WORK/linked
mkdir -p "$r/etc/udev" "$WORK/outside"
ln -s "$WORK/outside" "$r/etc/udev/rules.d"
run 2 "install through a symlinked directory" install "$WORK/a.json" --root "$r"
[ -z "$(ls -A "$WORK/outside")" ] || fail "install wrote outside the root: $(ls "$WORK/outside")"
rm "$r/etc/udev/rules.d"
run 0 "install" install "$WORK/a.json" --root "$r"
mv "$r/etc/udev/rules.d"/* "$WORK/outside/"
rmdir "$r/etc/udev/rules.d"
ln -s "$WORK/outside" "$r/etc/udev/rules.d"
run 0 "uninstall with a symlinked directory" uninstall "$WORK/a.json" --root "$r"
[ -n "$(ls -A "$WORK/outside")" ] || fail "uninstall removed a file outside the root: $(cat "$WORK/out")"

# A symlinked directory that stays inside the root (an image's usrmerge-style link) is used.
r=$WORK/inside
mkdir -p "$r/etc/udev" "$r/rules"
ln -s ../../rules "$r/etc/udev/rules.d"
run 0 "install through a symlink inside the root" install "$WORK/a.json" --root "$r"
[ -n "$(ls -A "$r/rules")" ] || fail "no rule in the linked directory: $(cat "$WORK/out")"
run 0 "uninstall through a symlink inside the root" uninstall "$WORK/a.json" --root "$r"
[ -z "$(ls -A "$r/rules")" ] || fail "uninstall left the rule: $(cat "$WORK/out")"

# A backing file deep enough that its plain key would pass NAME_MAX: installed, then removed.
report "/tmp/$(printf 'd%.0s' $(seq 250))/x.img" "$WORK/long.json"
mkdir "$WORK/long" "$WORK/nl" "$WORK/s" "$WORK/w"
run 0 "install of a drive with a long backing file path" install "$WORK/long.json" --root "$WORK/long"
run 0 "uninstall of it" uninstall "$WORK/long.json" --root "$WORK/long"
[ -z "$(find "$WORK/long" -type f -o -type l)" ] || fail "uninstall left: $(find "$WORK/long" -type f -o -type l)"

# A --root that does not exist (a typo) or is a file: refused by name, nothing made.
for cmd in install uninstall; do
  run 2 "$cmd --root to a missing directory" $cmd "$WORK/a.json" --root "$WORK/missing/root"
  grep -q "missing/root: no such directory" "$WORK/out" || fail "$cmd: the missing root is not named: $(cat "$WORK/out")"
  run 2 "$cmd --root to a file" $cmd "$WORK/a.json" --root "$WORK/a.json"
  grep -q "a.json: not a directory" "$WORK/out" || fail "$cmd: the file root is not named: $(cat "$WORK/out")"
done
[ ! -e "$WORK/missing" ] || fail "install --root to a missing directory made it"

# An empty --root is no root: refused, nothing written in the working directory.
mkdir "$WORK/cwd"
(cd "$WORK/cwd" && run 2 "install --root ''" install "$WORK/a.json" --root "") || exit 1
[ -z "$(ls -A "$WORK/cwd")" ] || fail "install --root '' wrote into the working directory"

# A report path with a newline: the rule file keeps one comment line and the rule.
nl_report="$WORK/x
ACTION==\"add\", RUN+=\"false\" #.json"
cp "$WORK/a.json" "$nl_report"
run 0 "install of a report with a newline in its path" install "$nl_report" --root "$WORK/nl"
grep -q '^ACTION=="add", RUN' "$WORK"/nl/etc/udev/rules.d/*.rules && fail "the report path added a rule line: $(cat "$WORK"/nl/etc/udev/rules.d/*)"
# A serial without a model has no ID_SERIAL for udev to match: refused (not a rule matching
# nothing and a report named ".json", which apply --config skips); with a wwid, keyed by it.
jq '.device.backing_file="" | .device.model="" | .device.serial="X1" | .device.path="/dev/sdz"' "$WORK/a.json" >"$WORK/s.json"
run 2 "install of a drive with a serial but no model" install "$WORK/s.json" --root "$WORK/s"
grep -q "X1" "$WORK/out" || fail "the refusal does not name the drive's serial: $(cat "$WORK/out")"
[ -z "$(find "$WORK/s" -type f 2>/dev/null)" ] || fail "the refused install wrote: $(find "$WORK/s" -type f)"
jq '.device.wwid="w1"' "$WORK/s.json" >"$WORK/w.json"
run 0 "install of a drive with a serial, no model and a wwid" install "$WORK/w.json" --root "$WORK/w"
[ -f "$WORK/w/etc/disktune/w1.json" ] || fail "not keyed by its wwid: $(find "$WORK/w" -type f)"
grep -qF 'ATTRS{wwid}=="w1"' "$WORK"/w/etc/udev/rules.d/69-disktune-w1.rules || fail "rule: $(cat "$WORK"/w/etc/udev/rules.d/*)"

# A rule file of the user's own at install's path, the mark words anywhere but at its start:
# neither replaced by install nor removed by uninstall.
for own in '# my own rule; NOT written by disktune install' $'# my own rule\n# written by disktune install from x'; do
  r=$WORK/own
  rm -rf "$r" && mkdir -p "$r/etc/udev/rules.d"
  target=$r/etc/udev/rules.d/69-disktune-loop_tmp_a_b.img.rules
  printf '%s\nKERNEL=="sda", ATTR{queue/read_ahead_kb}="4096"\n' "$own" >"$target"
  cp "$target" "$WORK/own.copy"
  run 2 "install over a user's rule file" install "$WORK/a.json" --root "$r"
  grep -q "was not written by disktune install" "$WORK/out" || fail "the refusal does not say why: $(cat "$WORK/out")"
  mkdir -p "$r/etc/disktune" && cp "$WORK/a.json" "$r/etc/disktune/loop_tmp_a_b.img.json"
  run 0 "uninstall beside a user's rule file" uninstall "$WORK/a.json" --root "$r"
  cmp -s "$target" "$WORK/own.copy" || fail "a user's rule file was changed or removed"
done

echo "ok: collisions, FIFO, device, symlinked directory, empty root, newline, unmatchable identity refused or made safe"
