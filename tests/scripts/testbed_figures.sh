#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/testbed-figures prints its figures from a schema-2 report (objective block, score keys
# without _mib_s, figures in the objective's unit) for seq-read and for a fio objective passed
# through `--`: a bounded tune of a small throttled device (exit 0, or 6: 0.2 s samples may be
# too noisy for an answer), each summary line checked.
source "$(dirname "$0")/lib.bash"

require_loop
[ -w /sys/fs/cgroup/blkio/cgroup.procs ] || skip "no cgroup-v1 blkio at /sys/fs/cgroup/blkio"
script=$(cd "$(dirname "$0")/../.." && pwd)/scripts/testbed-figures
bounded=(--only read_ahead_kb --max-trials 1 --duration 0.2 --repeats 2 --max-repeats 3 --noise-repeats 1)
number='[0-9][0-9.]*'

figures() {  # figures OBJECTIVE UNIT: the script's summary for a bounded tune judged by OBJECTIVE
  local out=$WORK/$1.txt
  "$script" --size 64 --disktune "$DISKTUNE" -- --objective "$1" "${bounded[@]}" >"$out" 2>"$WORK/$1.err" ||
    fail "testbed-figures --objective $1 exited $?: $(tail -3 "$WORK/$1.err")"
  cat "$out"
  grep -qx "exit [06], wall $number s, measured $number s, 1 trials (1 ok)" "$out" || fail "$1: no trial line"
  grep -qx "objective $1, unit $2" "$out" || fail "$1: no objective line"
  grep -q "^baseline $number $2, spread ±$number %, A/A medians \[.*\], noise floor $number %\$" "$out" ||
    fail "$1: no baseline figure in $2"
  grep -q "^winner .*, $number $2, speedup $number, confirmed " "$out" || fail "$1: no winner figure in $2"
}

figures seq-read MB/s
command -v fio >/dev/null || skip "fio missing (scripts/setup installs it): seq-read passed"
figures rand-read-iops IOPS
