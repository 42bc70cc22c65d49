#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Files named by mistake are never destroyed:
# - an output (--report, --html, --boot-local) or --journal naming a disk image that backs a loop
#   device is refused within seconds, the image unchanged (a rename over it had replaced a 64 MiB
#   disk with a 7 KB report; the journal had "cut a torn last record" of 64 MiB off it);
# - a --journal that is no journal (a text file, a one-line file, a sysfs attribute) is
#   refused for tune, restore and apply, not a byte cut (it had been truncated to 0 bytes);
# - the device's queue settings stay as found.
source "$(dirname "$0")/lib.bash"
attach_random_loop 16
image=$WORK/disk.img
name=$(basename "$dev")
sum=$(sha256sum <"$image")
before=$(queue_snapshot "$dev")
tune=("$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 0 --duration 0.2 --repeats 1 --noise-repeats 1)

# refused WHAT EXPECTED_TEXT CMD...: exit 2 within 20 s, the message naming EXPECTED_TEXT.
refused() {
  local what=$1 text=$2 code=0
  shift 2
  timeout 20 "$@" >"$WORK/out" 2>&1 || code=$?
  expect_eq "$code" 2 "$what ($(tail -3 "$WORK/out"))"
  grep -qF -- "$text" "$WORK/out" || fail "$what: the message does not say '$text': $(cat "$WORK/out")"
}

for option in --report --html --boot-local --journal; do
  extra=()
  [ "$option" = --journal ] || extra=(--journal "$WORK/j-$option")
  refused "tune $option over the disk image" "backs /dev/$name" "${tune[@]}" "${extra[@]}" "$option" "$image"
  expect_eq "$(sha256sum <"$image")" "$sum" "the disk image after tune $option over it"
done
refused "restore --journal over the disk image" "backs /dev/$name" "$DISKTUNE" restore "$dev" --journal "$image"
expect_eq "$(sha256sum <"$image")" "$sum" "the disk image after restore --journal over it"

printf 'host1\n' >"$WORK/hostname"
printf 'precious' >"$WORK/one-line"
for file in "$WORK/hostname" "$WORK/one-line"; do
  copy=$(cat "$file")
  refused "tune --journal $(basename "$file")" "not a disktune journal" "${tune[@]}" --journal "$file"
  refused "restore --journal $(basename "$file")" "not a disktune journal" "$DISKTUNE" restore "$dev" --journal "$file"
  expect_eq "$(cat "$file")" "$copy" "$(basename "$file") after tune and restore named it as the journal"
done
ra=$(cat "/sys/block/$name/queue/read_ahead_kb")
refused "tune --journal a sysfs attribute" "a sysfs file (a kernel interface), not one to write to" "${tune[@]}" --journal "/sys/block/$name/queue/read_ahead_kb"
expect_eq "$(cat "/sys/block/$name/queue/read_ahead_kb")" "$ra" "read_ahead_kb after it was named as the journal"
expect_eq "$(queue_snapshot "$dev")" "$before" "$name's queue settings"
echo "ok: outputs and journals over a disk image, a text file and a sysfs attribute refused, each unchanged"
