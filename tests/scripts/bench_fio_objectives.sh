#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# disktune bench --objective on a throttled loop device: each fio objective's
# figure agrees with a separate fio run of the same job within 5 %; a fio:FILE job gets its
# default metric; a writing job and one naming another file are refused (exit 2); a kill -9 of
# bench mid-fio leaves no fio reading on. The device is a read-only loop device: only read.
source "$(dirname "$0")/lib.bash"

require_loop
command -v fio >/dev/null || skip "fio not installed (scripts/setup installs it)"
command -v jq >/dev/null || skip "jq not installed"
head -c $((64 << 20)) /dev/urandom >"$WORK/disk.img"
sum_before=$(sha256sum <"$WORK/disk.img")
dev=$(losetup -f --show -r "$WORK/disk.img") || skip "losetup could not create a loop device"
own_loop "$dev"

# fio_figure METRIC SECONDS FIO_ARGS...: a separate fio run's figure (bw MiB/s, iops, p99 us),
# summed over jobs as disktune does.
fio_figure() {
  local metric=$1 seconds=$2
  shift 2
  fio --readonly --output-format=json --filename="$dev" --time_based --runtime="$seconds" "$@" >"$WORK/fio.json" ||
    fail "fio $* exited $?"
  case $metric in
    bw) jq '[.jobs[].read.bw_bytes] | add / 1048576' "$WORK/fio.json" ;;
    iops) jq '[.jobs[].read.iops] | add' "$WORK/fio.json" ;;
    p99) jq '[.jobs[].read.clat_ns.percentile["99.000000"]] | max / 1000' "$WORK/fio.json" ;;
  esac
}

# median VALUES...
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# expect_close WHAT A B: |A - B| <= 5 % of B.
expect_close() {
  awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.05 * b) }' ||
    fail "$1: disktune $2, fio $3: more than 5 % apart"
  echo "$1: disktune $2, fio $3"
}

# bench_figure ARGS...: disktune bench --json's median (and its unit is checked by the caller).
bench_figure() {
  "$DISKTUNE" bench "$dev" --json "$@" >"$WORK/bench.json" 2>"$WORK/err.txt" ||
    fail "bench $* exited $? ($(cat "$WORK/err.txt"))"
  jq -r .median "$WORK/bench.json"
}

# 50 MiB/s and 2000 requests/s: 1 MiB reads hit the byte cap, 4 KiB ones the request cap.
throttle_loop "$dev" $((50 << 20)) 2000
expect_close seq-read-direct "$(bench_figure --objective seq-read-direct --repeats 1 --duration 1)" \
  "$(fio_figure bw 1 --name=x --rw=read --bs=1M --direct=1 --iodepth=16 --ioengine=libaio)"
expect_eq "$(jq -r '.unit + " " + .fio_version' "$WORK/bench.json")" "MB/s $(fio --version)" "seq-read-direct unit, fio version"
expect_close rand-read-iops "$(bench_figure --objective rand-read-iops --repeats 1 --duration 1)" \
  "$(fio_figure iops 1 --name=x --rw=randread --bs=4k --direct=1 --iodepth=32 --ioengine=libaio)"
expect_eq "$(jq -r .unit "$WORK/bench.json")" IOPS "rand-read-iops unit"
expect_eq "$(jq -c '.median_interval | [.low == .high, .coverage]' "$WORK/bench.json")" '[true,0]' \
  "one sample's median interval (a point, coverage 0)"

# A user's job file without filename=: it reads the device under test; random, so iops.
printf '[global]\nbs=4k\ndirect=1\n[db]\nrw=randread\nioengine=libaio\niodepth=8\n' >"$WORK/db.fio"
expect_close fio:FILE "$(bench_figure --objective "fio:$WORK/db.fio" --repeats 1 --duration 1)" \
  "$(fio_figure iops 1 "$WORK/db.fio")"
expect_eq "$(jq -r .metric "$WORK/bench.json")" iops "fio:FILE default metric of a random job"

# At queue depth 1 this device answers in microseconds until the throttle holds a request
# back for the rest of its 100 ms slice: with 200 requests/s, 1 request in 21 waits, so p99
# is that wait (about 100 ms), steady; with 2000 requests/s it was 1 in 201 and p99 fell among
# the fast ones (27-57 us run to run). Three samples each side.
throttle_loop "$dev" $((50 << 20)) 200
disktune_p99=$(bench_figure --objective rand-read-latency --repeats 3 --duration 2)
expect_eq "$(jq -r '.unit + " " + .direction' "$WORK/bench.json")" "us lower" "rand-read-latency unit, direction"
fio_p99=()
for _ in 1 2 3; do
  fio_p99+=("$(fio_figure p99 2 --name=x --rw=randread --bs=4k --direct=1 --iodepth=1 --ioengine=psync)")
done
expect_close rand-read-latency "$disktune_p99" "$(median "${fio_p99[@]}")"

# Refusals: exit 2 with the reason, within seconds, nothing measured.
expect_refused() {
  local what=$1 message=$2 code=0
  shift 2
  "$DISKTUNE" bench "$dev" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || code=$?
  expect_eq "$code" 2 "$what: exit code"
  grep -q -- "$message" "$WORK/err.txt" || fail "$what: no '$message' in: $(cat "$WORK/err.txt")"
}
printf '[w]\nrw=randwrite\nbs=4k\n' >"$WORK/w.fio"
expect_refused "writing job" "writes or trims: disktune only reads" --objective "fio:$WORK/w.fio"
printf '[o]\nrw=read\nfilename=/dev/zero\n' >"$WORK/o.fio"
expect_refused "job on another file" "names another file" --objective "fio:$WORK/o.fio"
expect_refused "unknown objective" "unknown objective" --objective seq-read-fast
code=0
"$DISKTUNE" bench sim: --objective rand-read-iops >/dev/null 2>"$WORK/err.txt" || code=$?
expect_eq "$code" 2 "fio objective on the simulated drive: exit code"
grep -q "bench of the simulated drive measures seq-read only" "$WORK/err.txt" || fail "simulated drive: $(cat "$WORK/err.txt")"
# Without fio on PATH: exit 3 naming Debian's package.
code=0
PATH=$WORK/no-such-dir "$DISKTUNE" bench "$dev" --objective rand-read-iops >/dev/null 2>"$WORK/err.txt" || code=$?
expect_eq "$code" 3 "bench without fio: exit code"
grep -q "install Debian's fio package" "$WORK/err.txt" || fail "bench without fio: $(cat "$WORK/err.txt")"

# kill -9 of bench mid-fio: no fio process (fio forks one per job unless --thread) lives on,
# nothing holds the device open and it is read no more.
# descendants PID: every process below PID.
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    echo "$child"
    descendants "$child"
  done
}
"$DISKTUNE" bench "$dev" --objective rand-read-iops --repeats 1 --duration 30 >/dev/null 2>&1 &
bench_pid=$!
cleanup_steps+=("kill -9 $bench_pid 2>/dev/null")
for _ in $(seq 100); do
  pgrep -P "$bench_pid" -x fio >/dev/null && break
  sleep 0.05
done
sleep 0.5  # fio has opened the device and started its job
fio_pids=$(descendants "$bench_pid")
[ -n "$fio_pids" ] || fail "bench started no fio"
for pid in $fio_pids; do cleanup_steps+=("kill -9 $pid 2>/dev/null"); done
kill -9 "$bench_pid"
wait "$bench_pid" 2>/dev/null || true
# A zombie (killed, not yet reaped by its new parent) holds nothing open and reads nothing:
# only a process still running counts. Up to 5 s: under load the kill can take a while.
for _ in $(seq 100); do
  alive=$(for pid in $fio_pids; do
    state=$(ps -o stat= -p "$pid" 2>/dev/null || true)
    if [ -n "$state" ] && [ "${state:0:1}" != Z ]; then echo "$pid"; fi
  done)
  [ -z "$alive" ] && break
  sleep 0.05
done
[ -z "$alive" ] || fail "fio ($(echo $alive)) still runs after its bench was killed"
expect_eq "$(device_holders "$dev")" "" "processes holding $dev open after the kill"
before=$(device_read_bytes "$dev")
sleep 0.5
expect_eq "$(device_read_bytes "$dev")" "$before" "bytes read after the kill"

expect_eq "$(sha256sum <"$WORK/disk.img")" "$sum_before" "device content"
echo "bench_fio_objectives: ok"
