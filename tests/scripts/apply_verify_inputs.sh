#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# apply and verify on bad input: a clear error naming the input and the reason, exit 2,
# within seconds, and nothing touched (no device is opened for these).
source "$(dirname "$0")/lib.bash"

refused() {  # refused TEXT ARGS...: disktune ARGS exits 2 and its stderr contains TEXT
  local text=$1 code=0
  shift
  timeout 10 "$DISKTUNE" "$@" >"$WORK/out" 2>"$WORK/err" || code=$?
  expect_eq "$code" 2 "exit of disktune $* ($(cat "$WORK/err"))"
  grep -qF -- "$text" "$WORK/err" || fail "disktune $*: no '$text' in: $(cat "$WORK/err")"
}

refused "apply takes REPORT and an optional DEVICE" apply
refused "apply takes REPORT and an optional DEVICE" apply a b c
refused "verify needs REPORT... or --config DIR" verify
mkdir "$WORK/empty"
refused "verify takes REPORT... or --config DIR, not both" verify r.json --config "$WORK/empty"
refused "no reports (*.json) in it" verify --config "$WORK/empty"
refused "$WORK/missing.json" apply "$WORK/missing.json"
refused "is a directory" verify "$WORK/empty"
mkfifo "$WORK/fifo"
refused "FIFO" apply "$WORK/fifo"
echo '{"schema_version": 3,' >"$WORK/torn.json"
refused "$WORK/torn.json: not JSON" verify "$WORK/torn.json"
# A real tune's report of the SIMULATED drive: nothing to apply on a disk. Three samples a
# trial: with one, the simulated noise between baseline trials (3 %) ends it too noisy.
"$DISKTUNE" tune --only multcount --max-trials 1 --duration 0.1 --repeats 3 --max-repeats 3 \
  --journal "$WORK/j" --report "$WORK/sim.json" >/dev/null 2>&1 || true
[ -s "$WORK/sim.json" ] || fail "the simulated tune wrote no report"
refused "a SIMULATED drive's report" apply "$WORK/sim.json"
jq '.schema_version = 2' "$WORK/sim.json" >"$WORK/old.json"
refused "schema_version 2 has no drive size or backing file" verify "$WORK/old.json"
# A field missing or of the wrong type: named, with what it should be (no library internals).
mistyped() {  # mistyped JQ_EDIT TEXT: the sim report edited by JQ_EDIT is refused naming TEXT
  jq "$1" "$WORK/sim.json" >"$WORK/bad.json"
  refused "$WORK/bad.json: $2" apply "$WORK/bad.json"
  grep -q boost "$WORK/err" && fail "apply after $1 shows library internals: $(cat "$WORK/err")"
  true
}
mistyped '.device.size_bytes = -1' "device.size_bytes: expected a non-negative integer"
mistyped '.device.size_bytes = "16777216"' "device.size_bytes: expected a non-negative integer"
mistyped '.device.size_bytes = 1e30' "device.size_bytes: expected a non-negative integer"
mistyped 'del(.device.model)' "device.model: missing"
mistyped '.device.backing_file = 5' "device.backing_file: expected a string or null"
mistyped '.device = []' "device: expected an object"
mistyped '.device.simulated = false | .completed = "yes"' "completed: expected true or false"
mistyped '.device.simulated = false | del(.baseline)' "baseline: missing"
mistyped '.device.simulated = false | .winner = "x"' "winner: expected an object or null"
# A scheduler that is no kernel elevator name (shell and udev metacharacters, blanks): refused.
hostile='.device.simulated = false | .completed = true | .winner = {keep_baseline: false, changes: {scheduler: $s}}'
for s in 'none; rm -rf /' 'kyber
' '$(id)' '[kyber]'; do
  jq --arg s "$s" "$hostile" "$WORK/sim.json" >"$WORK/bad.json"
  refused "$WORK/bad.json: winner.changes: value" apply "$WORK/bad.json"
  grep -q "not a scheduler name" "$WORK/err" || fail "scheduler '$s': $(cat "$WORK/err")"
done
# A DEVICE that cannot be the drive: exit 3, the reason the open failed given.
jq '.device.simulated = false | .completed = true | .winner = {keep_baseline: false, changes: {multcount: 16}}' "$WORK/sim.json" >"$WORK/disk.json"
for named in "$WORK/no-such-device:No such file or directory" "/dev/null:not a block device"; do
  code=0
  timeout 10 "$DISKTUNE" apply "$WORK/disk.json" "${named%%:*}" >"$WORK/out" 2>"$WORK/err" || code=$?
  expect_eq "$code" 3 "apply to ${named%%:*} ($(cat "$WORK/err"))"
  grep -qF "${named%%:*} cannot be opened as a block device (" "$WORK/err" && grep -qF "${named#*:}" "$WORK/err" ||
    fail "apply to ${named%%:*} does not say why: $(cat "$WORK/err")"
done
# A baseline-only report (tune --max-trials 0) has no answer: apply and verify refuse it
# (verify said "ok, the report keeps the baseline", exit 0, to a monitoring script).
"$DISKTUNE" tune --max-trials 0 --duration 0.1 --repeats 1 --max-repeats 1 --journal "$WORK/j0" \
  --report "$WORK/base.json" >/dev/null 2>&1 || fail "tune --max-trials 0 exited $?"
jq '.device.simulated = false' "$WORK/base.json" >"$WORK/base-disk.json"
refused "$WORK/base-disk.json: the run measured the baseline only (--max-trials 0)" apply "$WORK/base-disk.json"
refused "$WORK/base-disk.json: the run measured the baseline only (--max-trials 0)" verify "$WORK/base-disk.json"
# Several reports: the first bad one is named, nothing is checked.
refused "$WORK/torn.json: not JSON" verify "$WORK/torn.json" "$WORK/sim.json"
echo "ok (${SECONDS} s)"
