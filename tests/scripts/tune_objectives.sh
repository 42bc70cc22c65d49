#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Tune judges trials by the objective asked for. On the SIMULATED drive,
# rand-read-iops trials carry IOPS (report objective block, each trial's figure, the table's
# unit); a fio:FILE job is refused there (exit 2). On a loop device a rand-read-latency tune
# runs fio (p99 in us, lower is better, fio's version in the report), and a job that writes is
# refused before anything changes (exit 2, the queue as it was). The device is only read.
source "$(dirname "$0")/lib.bash"
command -v fio >/dev/null || skip "fio not installed (scripts/setup installs it)"

"$DISKTUNE" tune sim: --objective rand-read-iops --max-trials 3 --journal "$WORK/j1" --report "$WORK/r1.json" \
  >"$WORK/out1.txt" 2>"$WORK/err1.txt" || fail "sim tune exited $? ($(tail -3 "$WORK/err1.txt"))"
r="$WORK/r1.json"
expect_eq "$(jq -c '.objective | {name, engine, metric, unit, direction}' "$r")" \
  '{"name":"rand-read-iops","engine":"fio","metric":"iops","unit":"IOPS","direction":"higher"}' "objective block"
expect_eq "$(jq -r .schema_version "$r")" 3 "schema_version"
# Higher is better: the score is the figure, and every ok trial has one in IOPS.
jq -e '[.trials[] | select(.status == "ok")] | length > 0 and all(.[]; .figure.unit == "IOPS" and .figure.median == .median and .median > 0)' \
  "$r" >/dev/null || fail "ok trials without an IOPS figure equal to their score"
grep -Eq '^ *trial +status +IOPS ' "$WORK/out1.txt" || fail "the table's figure column is not IOPS"
grep -q 'objective rand-read-iops' "$WORK/out1.txt" || fail "the title does not name the objective"

echo "[job]" >"$WORK/job.fio"; echo "rw=randread" >>"$WORK/job.fio"
start=$(date +%s)
set +e; "$DISKTUNE" tune sim: --objective "fio:$WORK/job.fio" --journal "$WORK/j2" >/dev/null 2>"$WORK/err2.txt"; rc=$?; set -e
expect_eq "$rc" 2 "fio:FILE on the simulated drive: exit code"
grep -q 'models the built-in objectives only' "$WORK/err2.txt" || fail "no reason for the fio:FILE refusal: $(cat "$WORK/err2.txt")"
[ $(( $(date +%s) - start )) -le 5 ] || fail "the refusal took more than 5 s"

attach_random_loop 64
before=$(queue_snapshot "$dev")
printf '[w]\nrw=randwrite\nbs=4k\n' >"$WORK/write.fio"
set +e; "$DISKTUNE" tune "$dev" --objective "fio:$WORK/write.fio" --journal "$WORK/j3" >/dev/null 2>"$WORK/err3.txt"; rc=$?; set -e
expect_eq "$rc" 2 "a writing job: exit code"
grep -qi 'write' "$WORK/err3.txt" || fail "the refusal does not say the job writes: $(cat "$WORK/err3.txt")"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue after the refused job"

sum_before=$(md5sum <"$WORK/disk.img")
"$DISKTUNE" tune "$dev" --objective rand-read-latency --only read_ahead_kb --max-trials 2 --duration 0.3 \
  --repeats 2 --max-repeats 3 --noise-repeats 1 --journal "$WORK/j4" --report "$WORK/r4.json" \
  >"$WORK/out4.txt" 2>"$WORK/err4.txt" || { rc=$?; [ "$rc" -eq 6 ] || fail "loop tune exited $rc ($(tail -3 "$WORK/err4.txt"))"; }
r="$WORK/r4.json"
expect_eq "$(jq -r '.objective.unit + " " + .objective.direction' "$r")" "us lower" "latency objective's unit and direction"
jq -e '.objective.fio_version | startswith("fio-")' "$r" >/dev/null || fail "no fio version in the report"
# Lower is better: the figure is 1e6 / score, and its interval bounds swap.
jq -e '.baseline.figure.median > 0 and ((.baseline.figure.median * .baseline.median) - 1e6 | fabs) < 1
  and .baseline.figure.ci_low <= .baseline.figure.median and .baseline.figure.median <= .baseline.figure.ci_high' \
  "$r" >/dev/null || fail "baseline latency figure does not match its score: $(jq -c .baseline.figure "$r")"
expect_eq "$(jq -r .restored "$r")" true "restored"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue after the latency tune"
expect_eq "$(md5sum <"$WORK/disk.img")" "$sum_before" "image unchanged (only read)"
# fio reads the descriptor disktune held (/proc/self/fd/N), never $dev by name.
pgrep -f -- "^fio .*--filename=/proc/self/fd/[0-9]+( |$)" >/dev/null && fail "a fio process of the run is left"
echo "ok: rand-read-iops on the simulated drive, rand-read-latency on $dev (baseline p99 $(jq .baseline.figure.median "$r") us)"
