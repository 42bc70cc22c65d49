#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --objective's bad inputs and empty measurements: a fio run that read
# nothing is an error naming the job (bench: non-zero exit; tune: the trial is an error, never
# an ok trial at 0); bad job paths exit 2 naming the path and strerror within seconds; a comma
# in a job path stays in the path; --tolerance without a guard and three objectives are usage
# errors; bench prints IOPS whole, MB/s as tune does, no blank line first; a tune stopped in
# its baseline shows it "not measured". The loop device is only read.
source "$(dirname "$0")/lib.bash"
command -v fio >/dev/null || skip "fio not installed (scripts/setup installs it)"
command -v jq >/dev/null || skip "jq not installed"
attach_random_loop 32
sum_before=$(md5sum <"$WORK/disk.img")

# run_disktune ARGS...: disktune's exit code in $rc, its output in $WORK/out.txt, err.txt.
run_disktune() {
  rc=0
  timeout 60 "$DISKTUNE" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
}
# expect_error CODE TEXT WHAT: the last run exited CODE with TEXT in its stderr.
expect_error() {
  expect_eq "$rc" "$1" "$3: exit code ($(cat "$WORK/err.txt"))"
  grep -qF -- "$2" "$WORK/err.txt" || fail "$3: no '$2' in: $(cat "$WORK/err.txt")"
}

# 1. A job that reads nothing: a stand-in fio runs the real one with --create_only=1 (fio
# then reports 0 for every figure; a job file may not set create_only itself: it is not on
# the list of options that shape reads).
real_fio=$(command -v fio)
mkdir "$WORK/nothing-bin"
printf '#!/bin/sh\nexec %s "$@" --create_only=1\n' "$real_fio" >"$WORK/nothing-bin/fio"
chmod +x "$WORK/nothing-bin/fio"
printf '[nothing]\nrw=read\n' >"$WORK/nothing.fio"
PATH=$WORK/nothing-bin:$PATH run_disktune bench "$dev" --objective "fio:$WORK/nothing.fio" --repeats 1 --duration 0.2
[ "$rc" -ne 0 ] || fail "bench of a job that read nothing exited 0: $(cat "$WORK/out.txt")"
expect_error 2 "fio job file $WORK/nothing.fio: fio reported no reads" "bench of a job that read nothing"
grep -q '0\.00' "$WORK/out.txt" && fail "bench printed a zero figure: $(cat "$WORK/out.txt")"

# A tune whose trials read nothing: a stand-in fio runs the real one, with create_only=1
# once the trial's read_ahead_kb differs from the baseline's.
ra=/sys/block/$(basename "$dev")/queue/read_ahead_kb
base_ra=$(cat "$ra")
mkdir "$WORK/bin"
printf '#!/bin/sh\nif [ "$(cat %s)" != %s ]; then exec %s "$@" --create_only=1; fi\nexec %s "$@"\n' \
  "$ra" "$base_ra" "$real_fio" "$real_fio" >"$WORK/bin/fio"
chmod +x "$WORK/bin/fio"
PATH=$WORK/bin:$PATH run_disktune tune "$dev" --objective rand-read-iops --only read_ahead_kb --max-trials 2 \
  --duration 0.2 --repeats 2 --max-repeats 2 --noise-repeats 1 --journal "$WORK/j1" --report "$WORK/r1.json"
[ "$rc" -eq 0 ] || [ "$rc" -eq 6 ] || fail "tune with empty trials exited $rc ($(tail -3 "$WORK/err.txt"))"
jq -e '.trials | length > 0' "$WORK/r1.json" >/dev/null || fail "no trials in the report"
jq -e '[.trials[] | select(.status == "ok")] | length == 0' "$WORK/r1.json" >/dev/null ||
  fail "a trial that read nothing is ok: $(jq -c '[.trials[] | {id, status, median}]' "$WORK/r1.json")"
jq -e 'all(.trials[]; .status == "error" and (.detail | contains("fio job rand-read-iops: fio reported no reads")))' \
  "$WORK/r1.json" >/dev/null || fail "trial details: $(jq -c '[.trials[] | {status, detail}]' "$WORK/r1.json")"
jq -e '.baseline.figure.median > 0' "$WORK/r1.json" >/dev/null || fail "baseline not measured: $(jq -c .baseline.figure "$WORK/r1.json")"

# 4. Bad job paths: exit 2 naming the path and the reason, within seconds.
start=$(date +%s)
run_disktune bench "$dev" --objective fio:/nonexistent/job.fio
expect_error 2 "--objective fio:/nonexistent/job.fio: No such file or directory" "missing job file (bench)"
run_disktune tune "$dev" --objective fio:/nonexistent/job.fio --journal "$WORK/j2"
expect_error 2 "--objective fio:/nonexistent/job.fio: No such file or directory" "missing job file (tune)"
run_disktune bench "$dev" --objective "fio:$WORK"
expect_error 2 "--objective fio:$WORK: is a directory" "job file that is a directory"
run_disktune bench "$dev" --objective fio:/proc/self/mem  # a regular file even root cannot read
expect_error 2 "--objective fio:/proc/self/mem: a /proc file is no job file" "a /proc job file"
run_disktune bench "$dev" --objective fio:/proc/kmsg  # blocked (or consumed the kernel log) before
expect_error 2 "--objective fio:/proc/kmsg: a /proc file is no job file" "/proc/kmsg as a job file"
[ $(($(date +%s) - start)) -le 10 ] || fail "the refusals took more than 10 s"

# 5. A comma in a job path belongs to the path.
printf '[j]\nrw=randread\nbs=4k\n' >"$WORK/a,b.fio"
run_disktune bench "$dev" --objective "fio:$WORK/a,b.fio" --repeats 1 --duration 0.2 --json
expect_eq "$rc" 0 "bench of a job whose path has a comma: exit code ($(cat "$WORK/err.txt"))"
expect_eq "$(jq -r .objective "$WORK/out.txt")" "fio:$WORK/a,b.fio" "objective with a comma in its path"

# 2, 3. --tolerance without a guard objective; three objectives.
run_disktune tune "$dev" --objective rand-read-iops --tolerance 3 --journal "$WORK/j3"
expect_error 2 "--tolerance needs a second objective (--objective A,B)" "--tolerance with one objective"
run_disktune tune "$dev" --objective a,b,c --journal "$WORK/j3"
expect_error 2 "--objective a,b,c: at most two objectives are allowed" "three objectives"

# 6. bench's text: the device first (no blank line), IOPS whole, MB/s as the tune table says.
run_disktune bench "$dev" --objective rand-read-iops --repeats 1 --duration 0.2
expect_eq "$(head -1 "$WORK/out.txt")" "$dev:" "bench --objective's first line"
grep -Eq '^ rand-read-iops \(fio-[^)]*\): +[0-9]+ IOPS \(median of 1' "$WORK/out.txt" ||
  fail "IOPS not a whole number: $(cat "$WORK/out.txt")"
run_disktune bench "$dev" --method buffered --repeats 1 --duration 0.2
expect_eq "$(head -1 "$WORK/out.txt")" "$dev:" "bench's first line"
grep -Eq '^ Timing buffered disk reads: +[0-9]+\.[0-9]{2} MB/s \(' "$WORK/out.txt" ||
  fail "bench's unit is not MB/s: $(cat "$WORK/out.txt")"

# 7. SIGINT during the baseline: the table shows it not measured, with no 0 figure.
"$DISKTUNE" tune "$dev" --objective rand-read-iops --only read_ahead_kb --max-trials 2 --duration 3 \
  --journal "$WORK/j4" --report "$WORK/r4.json" >"$WORK/out4.txt" 2>"$WORK/err4.txt" &
pid=$!
cleanup_steps+=("kill -9 $pid 2>/dev/null")
for _ in $(seq 100); do pgrep -P "$pid" >/dev/null && break; sleep 0.05; done
sleep 1
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
expect_eq "$rc" 1 "tune stopped in its baseline: exit code ($(tail -3 "$WORK/err4.txt"))"
grep -Eq '^ +base +- +not measured' "$WORK/out4.txt" || fail "baseline row: $(cat "$WORK/out4.txt")"
grep -q '# baseline: not measured' "$WORK/out4.txt" || fail "snippet's baseline: $(cat "$WORK/out4.txt")"
grep -Eq ' 0 IOPS|^ *\*? *base +ok +0 ' "$WORK/out4.txt" && fail "a 0 baseline figure: $(cat "$WORK/out4.txt")"

expect_eq "$(md5sum <"$WORK/disk.img")" "$sum_before" "image unchanged (only read)"
# No process (this run's fio) holds the device (another test's fio may run on this machine).
for _ in $(seq 40); do [ -z "$(device_holders "$dev")" ] && break; sleep 0.05; done
expect_eq "$(device_holders "$dev")" "" "processes holding $dev open at the end"
echo "fio_objective_errors: ok"
