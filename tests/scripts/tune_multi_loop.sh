#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tune DEV DEV: two throttled loop devices with independent backing (files
# on two tmpfs mounts) are tuned at once (their workers' runs overlap), with the winners they
# get alone; two over files on one file system are tuned one after another
# and the summary says why. Not the root file system: a loop device over a file there measured
# bimodal (read_ahead_kb=16 at 13.7 or 23 MB/s, the backing file's own cache and readahead
# under it), so its winner alone and together differed by chance, not by the other drive.
source "$(dirname "$0")/lib.bash"

require_loop
root=/sys/fs/cgroup/blkio
[ -w "$root/cgroup.procs" ] && [ -e "$root/blkio.throttle.read_bps_device" ] || skip "no cgroup-v1 blkio throttle at $root"
for fs in tmpfs tmpfs2; do
  mkdir "$WORK/$fs"
  mount -t tmpfs -o size=90m "disktune-multi-$fs" "$WORK/$fs" || skip "cannot mount a tmpfs"
  cleanup_steps+=("umount '$WORK/$fs'")  # runs after the loop devices' detach below (added first)
done

# make_image FILE: 40 MiB of a repeated random block (real data, cheap to make).
head -c 1048576 /dev/urandom >"$WORK/block"
make_image() { for _ in $(seq 40); do cat "$WORK/block"; done >"$1"; }
loops=()
for image in "$WORK/tmpfs/a.img" "$WORK/tmpfs2/b.img" "$WORK/tmpfs2/c.img"; do
  make_image "$image"
  attach_loop "$image"
  loops+=("$dev")
done
# Detach before the tmpfs mounts go: the cleanup steps run in order, the umounts were first.
cleanup_steps=("${cleanup_steps[@]:2}" "${cleanup_steps[@]:0:2}")
a=${loops[0]} b=${loops[1]} c=${loops[2]}

# One cgroup capping every loop device at 24 MiB/s and 200 reads a second (each device its own
# caps): reads wait on I/O, and read_ahead_kb=0 (one page a read) loses for real under the IOPS
# cap. Each starts at read_ahead_kb=128: from a loop device's 2560 KiB default, the readahead one
# short sample leaves in flight is charged to the next (12.8 against 20.6 MB/s at 16 KiB), an
# artefact that one run alone found (1.6x) and the same run beside another did not.
cg=$root/disktune-test-multi-$$
mkdir "$cg"
cleanup_steps=("for p in \$(cat '$cg/cgroup.procs'); do kill -9 \$p; echo \$p > '$root/cgroup.procs'; done; rmdir '$cg'" "${cleanup_steps[@]}")
for loop in "$a" "$b" "$c"; do
  echo 128 >"/sys/block/$(basename "$loop")/queue/read_ahead_kb"
  majmin=$(lsblk -dno MAJ:MIN "$loop" | tr -d ' ')
  echo "$majmin 25165824" >>"$cg/blkio.throttle.read_bps_device"
  echo "$majmin 200" >>"$cg/blkio.throttle.read_iops_device"
done

# --time-budget bounds the confirmation rounds too (six of three configurations took 40 s). It
# must leave room for both trials: a file on the root file system once measured 2.98 % noise,
# took its baseline again with 3 samples, and spent a 12 s budget before trial 1, so its solo run
# kept the baseline while the run together (quieter) found read_ahead_kb=0 2x faster.
options=(--only read_ahead_kb --max-trials 2 --duration 0.25 --repeats 2 --max-repeats 3 --noise-repeats 1 --time-budget 20)
# timed NAME CMD...: run CMD in the cgroup; its wall seconds in $WORK/NAME.s, exit code in $WORK/NAME.rc.
timed() {
  local name=$1 start end code=0
  shift
  start=$(date +%s.%N)
  (echo "$BASHPID" >"$cg/cgroup.procs" && exec "$@") >"$WORK/$name.out" 2>"$WORK/$name.err" || code=$?
  end=$(date +%s.%N)
  echo "$code" >"$WORK/$name.rc"
  echo "$end - $start" | bc -l >"$WORK/$name.s"
}
completed() { local rc; rc=$(cat "$WORK/$1.rc"); [ "$rc" = 0 ] || [ "$rc" = 6 ] || fail "$1 exited $rc: $(tail -3 "$WORK/$1.err")"; }

timed solo_a "$DISKTUNE" tune "$a" "${options[@]}" --report "$WORK/solo_a.json" --journal "$WORK/solo_a.journal"
timed solo_b "$DISKTUNE" tune "$b" "${options[@]}" --report "$WORK/solo_b.json" --journal "$WORK/solo_b.journal"
completed solo_a
completed solo_b
mkdir "$WORK/both"
timed both "$DISKTUNE" tune "$a" "$b" "${options[@]}" --report "$WORK/both" --journal "$WORK/both/{drive}.journal" \
  --summary "$WORK/both/summary.json"
completed both

s=$WORK/both/summary.json
expect_eq "$(jq '.groups | length' "$s")" 2 "groups of two independent loop devices"
expect_eq "$(jq -r '[.drives[].exit_code | tostring] | map(select(. == "0" or . == "6")) | length' "$s")" 2 "drives completed"
longest=$(sort -g "$WORK/solo_a.s" "$WORK/solo_b.s" | tail -1)
together=$(cat "$WORK/both.s")
echo "alone: $(cat "$WORK/solo_a.s") s and $(cat "$WORK/solo_b.s") s; together: $together s"
for report in "$WORK/solo_a.json" "$WORK/solo_b.json" "$WORK/both/$(basename "$a").json" "$WORK/both/$(basename "$b").json"; do
  echo "$(basename "$report"): baseline $(jq .baseline.median "$report"), trials $(jq -c "[.trials[] | {ra: .settings.read_ahead_kb, median}]" "$report"), winner $(jq -c .winner.changes "$report")"
done
# Together means at once: the two workers' runs (the summary's start_s .. end_s) overlap for
# at least 80 % of the shorter one. Judged on the workers' own intervals, not on wall times
# alone and together, which a busy host stretches apart (the figures above are printed).
jq -e '.drives | ([.[0].end_s, .[1].end_s] | min) - ([.[0].start_s, .[1].start_s] | max) >=
       0.8 * ([.[0].end_s - .[0].start_s, .[1].end_s - .[1].start_s] | min)' "$s" >/dev/null ||
  fail "the drives were not tuned at once: $(jq -c '[.drives[] | {key, start_s, end_s}]' "$s")"

# Tied: the same winner, or winning figures within the noise of each other: within 10 % (or
# the noise floor), or one winner's median inside the other's 95 % interval (a run on a busy
# 2-CPU host once kept a baseline whose interval, 12.9-29.4 MB/s, held the other's 26.9).
for pair in "a:$(basename "$a")" "b:$(basename "$b")"; do
  solo=$WORK/solo_${pair%%:*}.json multi=$WORK/both/${pair#*:}.json
  [ -f "$multi" ] || fail "no report $multi"
  # Winners compare only when both runs measured the same trials: a budget spent early is not a tie.
  for report in "$solo" "$multi"; do
    expect_eq "$(jq '.trials | length' "$report")" 2 "search trials in $report ($(jq -r .stop_reason "$report"))"
  done
  if [ "$(jq -c .winner.changes "$solo")" != "$(jq -c .winner.changes "$multi")" ]; then
    jq -e -n --slurpfile s "$solo" --slurpfile m "$multi" \
      '($s[0].noise_floor_pct // 0) as $n | ([$n, 10] | max) as $pct |
       def inside($x; $w): $w.ci_low <= $x and $x <= $w.ci_high;
       ((($m[0].winner.median / $s[0].winner.median) - 1 | fabs) * 100 <= $pct)
       or inside($m[0].winner.median; $s[0].winner) or inside($s[0].winner.median; $m[0].winner)' >/dev/null ||
      fail "${pair#*:}: winner $(jq -c .winner "$multi") together, $(jq -c .winner "$solo") alone"
  fi
done

# Two loop devices over files on one file system: one after another, and the summary says why.
mkdir "$WORK/same"
timed same "$DISKTUNE" tune "$b" "$c" "${options[@]}" --report "$WORK/same/{drive}.json" \
  --journal "$WORK/same/{drive}.journal" --summary "$WORK/same/summary.json"
completed same
s=$WORK/same/summary.json
expect_eq "$(jq -c '[.groups[].drives]' "$s")" "[[\"$(basename "$b")\",\"$(basename "$c")\"]]" "groups over one file system"
jq -e '.groups[0].reasons[0] | test("backing files on one file system \\(st_dev [0-9]+:[0-9]+\\)")' "$s" >/dev/null ||
  fail "no reason in $(jq -c .groups "$s")"
grep -q "one after another: $(basename "$b") and $(basename "$c"): backing files on one file system" "$WORK/same.out" ||
  fail "the table does not say why: $(cat "$WORK/same.out")"
jq -e '.drives[1].start_s >= .drives[0].end_s' "$s" >/dev/null || fail "serialised drives overlapped: $(jq -c '.drives' "$s")"
# SIGTERM to the parent reaches every worker: each restores its drive and stops (exit 1).
before_a=$(queue_snapshot "$a") before_b=$(queue_snapshot "$b")
# start_both NAME: tune a and b in the background (the parent's pid in `parent`), outputs in
# $WORK/NAME; returns once both workers have measured their first trial (or after 10 s).
start_both() {
  mkdir "$WORK/$1"
  (echo "$BASHPID" >"$cg/cgroup.procs" && exec "$DISKTUNE" tune "$a" "$b" "${options[@]}" --report "$WORK/$1" \
    --journal "$WORK/$1/{drive}.journal" --summary "$WORK/$1/summary.json") >"$WORK/$1.out" 2>"$WORK/$1.err" &
  parent=$!
  for _ in $(seq 100); do
    [ "$(cat "$WORK/$1"/*.log 2>/dev/null | grep -c 'trial 0:')" -ge 2 ] && break
    sleep 0.1
  done
}
start_both stop
kill -TERM "$parent"
code=0
wait "$parent" || code=$?
expect_eq "$code" 1 "exit code of a stopped multi-drive tune"
expect_eq "$(jq -c '[.drives[].exit_code]' "$WORK/stop/summary.json")" "[1,1]" "workers' exit codes after SIGTERM"
expect_eq "$(queue_snapshot "$a")" "$before_a" "$(basename "$a") queue settings after the stop"
expect_eq "$(queue_snapshot "$b")" "$before_b" "$(basename "$b") queue settings after the stop"
# Each worker's resume hint names the program as it was run (it read /proc/self/exe: bash itself, pasted).
grep -qF "the next '$DISKTUNE tune $a " "$WORK/stop/$(basename "$a").log" ||
  fail "the worker's resume hint: $(grep -h 'kept' "$WORK/stop/$(basename "$a").log")"
# A worker killed (-9) stops no other drive: the other completes, the killed one is exit 4
# ("killed by signal 9"), the machine exit code 4; `disktune restore` with its journal puts it back.
# Its outputs in a directory with a space: the restore command the outcome prints runs as printed.
start_both "kill x"
worker=$(pgrep -P "$parent" -f "tune $a ") || fail "no worker for $a under $parent"
kill -9 "$worker"
code=0
wait "$parent" || code=$?
expect_eq "$code" 4 "exit code with a worker killed"
expect_eq "$(jq -c '[.drives[] | .key, .exit_code]' "$WORK/kill x/summary.json" | sed 's/,6\b/,0/g')" \
  "[\"$(basename "$a")\",4,\"$(basename "$b")\",0]" "drives with $(basename "$a")'s worker killed"
outcome=$(jq -r '.drives[0].outcome' "$WORK/kill x/summary.json")
[[ $outcome == "killed by signal 9"* ]] || fail "no kill in the outcome: $outcome"
expect_eq "$(queue_snapshot "$b")" "$before_b" "$(basename "$b") queue settings beside a killed worker"
restore=$(sed -n 's/.*, run "\([^ ]*disktune restore .*\)"$/\1/p' <<<"$outcome")
[ -n "$restore" ] || fail "no restore command in the outcome: $outcome"
[[ $restore == "$DISKTUNE restore "* ]] || fail "the printed restore names another program: $restore"
bash -c "$restore" >/dev/null 2>"$WORK/restore.err" ||
  fail "the printed restore ($restore): $(cat "$WORK/restore.err")"
expect_eq "$(queue_snapshot "$a")" "$before_a" "$(basename "$a") queue settings after restore"
echo "ok: together $together s (longest alone $longest s); $(jq -r '.groups[0].reasons[0]' "$s")"
