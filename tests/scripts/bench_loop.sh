#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# disktune bench on a loop device (over a file in a temp dir): --method, JSON shape, read-only.
source "$(dirname "$0")/lib.bash"

[ "$(id -u)" -eq 0 ] || skip "needs root to create a loop device"
command -v losetup >/dev/null || skip "losetup not installed"

head -c $((64 << 20)) /dev/urandom >"$WORK/disk.img"
dev=$(losetup -f --show -r "$WORK/disk.img") || skip "losetup could not create a loop device"
own_loop "$dev"
q=/sys/block/$(basename "$dev")/queue
before=$(cat "$q/read_ahead_kb" "$q/scheduler" "$q/nr_requests" "$q/max_sectors_kb")
sum_before=$(sha256sum <"$dev")

# Buffered only: two samples, no cached figure; the queue is not touched (no probes).
"$DISKTUNE" bench "$dev" --method buffered --repeats 2 --duration 0.3 --json >"$WORK/b.json" 2>"$WORK/err.txt" ||
  fail "bench exited $? ($(cat "$WORK/err.txt"))"
expect_eq "$(jq -r .cached_read_mib_s "$WORK/b.json")" null "cached median with --method buffered"
expect_eq "$(jq '.samples.cached | length' "$WORK/b.json")" 0 "cached samples with --method buffered"
expect_eq "$(jq '.samples.buffered | length' "$WORK/b.json")" 2 "buffered samples"
# A loop device read through the page cache (loop/dio 0) is said to be one: memory speed, not a disk's.
grep -q "note: $dev reads its backing file through the page cache (loop/dio 0)" "$WORK/err.txt" ||
  fail "no page-cache note for a loop device without direct I/O: $(cat "$WORK/err.txt")"
# ... and the JSON says it beside its figures (it was on stderr only).
jq -r .backing_note "$WORK/b.json" | grep -q "^$dev reads its backing file through the page cache (loop/dio 0)" ||
  fail "the JSON's backing_note: $(jq -c .backing_note "$WORK/b.json")"
# With direct I/O over a file on tmpfs it reads memory all the same, and says so. A
# tmpfs of its own, unmounted on exit.
mkdir "$WORK/shm"
mem= mem2=
if mount -t tmpfs -o size=8m disktune-test "$WORK/shm"; then
  # The loop first (it holds the mount); its release after losetup -d can lag a moment.
  cleanup_steps+=('[ -z "$mem2" ] || losetup -d "$mem2"; [ -z "$mem" ] || losetup -d "$mem"; for _ in $(seq 25); do umount "$WORK/shm" 2>/dev/null && break; sleep 0.2; done; ! mountpoint -q "$WORK/shm" || umount -l "$WORK/shm"')
  head -c $((4 << 20)) /dev/urandom >"$WORK/shm/mem.img"
  mem=$(losetup -f --show -r --direct-io=on "$WORK/shm/mem.img")
  "$DISKTUNE" bench "$mem" --method buffered --repeats 1 --duration 0.1 >/dev/null 2>"$WORK/mem.err" ||
    fail "bench of a tmpfs-backed loop exited $? ($(cat "$WORK/mem.err"))"
  grep -q "note: $mem's backing file is on tmpfs (memory): whatever its settings, it reads at memory speed" "$WORK/mem.err" ||
    fail "no memory note for a loop device over a tmpfs file: $(cat "$WORK/mem.err")"
  # A loop over that loop reads memory too, and says so.
  mem2=$(losetup -f --show -r --direct-io=on "$mem")
  "$DISKTUNE" bench "$mem2" --method buffered --repeats 1 --duration 0.1 >/dev/null 2>"$WORK/mem2.err" ||
    fail "bench of a loop over a tmpfs-backed loop exited $? ($(cat "$WORK/mem2.err"))"
  grep -q "note: $mem2 reads $mem: $mem's backing file is on tmpfs (memory)" "$WORK/mem2.err" ||
    fail "no memory note for a loop over a tmpfs-backed loop: $(cat "$WORK/mem2.err")"
else
  echo "note: no tmpfs could be mounted here: the tmpfs note is not checked"
fi
jq -e '.buffered_read_mib_s > 1 and ([.samples.buffered[] | . > 1] | all)' "$WORK/b.json" >/dev/null ||
  fail "buffered rates not positive: $(cat "$WORK/b.json")"
jq -e '.method | contains("every 32 MiB")' "$WORK/b.json" >/dev/null || fail "method text: $(jq .method "$WORK/b.json")"
expect_eq "$(jq -r .simulated "$WORK/b.json")" false "simulated"
# The median's interval from 2 samples is their min..max at binomial coverage 1 - 2 * 0.5^2.
expect_eq "$(jq -c '[.median_interval.buffered.low == (.samples.buffered | min),
                     .median_interval.buffered.high == (.samples.buffered | max),
                     .median_interval.buffered.coverage, .median_interval.cached]' "$WORK/b.json")" \
  '[true,true,0.5,null]' "median_interval (2 buffered samples, no cached)"

# Both (the default), as text: the cached line is the page cache, faster than the device.
"$DISKTUNE" bench "$dev" --repeats 1 --duration 0.3 >"$WORK/both.txt" 2>"$WORK/err.txt" || fail "bench exited $?"
grep -q "Timing cached reads:" "$WORK/both.txt" || fail "no cached line: $(cat "$WORK/both.txt")"
grep -q "Timing buffered disk reads:" "$WORK/both.txt" || fail "no buffered line: $(cat "$WORK/both.txt")"
"$DISKTUNE" bench "$dev" --method cached --repeats 1 --json >"$WORK/c.json" || fail "bench --method cached exited $?"
expect_eq "$(jq -r .buffered_read_mib_s "$WORK/c.json")" null "buffered median with --method cached"
jq -e '.cached_read_mib_s > 100' "$WORK/c.json" >/dev/null || fail "cached rate: $(cat "$WORK/c.json")"

expect_eq "$(cat "$q/read_ahead_kb" "$q/scheduler" "$q/nr_requests" "$q/max_sectors_kb")" "$before" "queue settings"
expect_eq "$(sha256sum <"$dev")" "$sum_before" "device content"
echo "bench_loop: ok"
