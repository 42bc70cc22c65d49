#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every measurement reads the device disktune opened and holds: a name with ':' (fio splits
# filename= there, as in every /dev/disk/by-path name) and a symlink re-pointed during the run
# never move a read to another device, for fio and for the hdparm-style reader, in tune and in
# bench. The other device's read counter (/sys/block/NAME/stat, sectors read) must not move.
source "$(dirname "$0")/lib.bash"

require_loop
command -v fio >/dev/null || skip "fio not installed"
truncate -s 64M "$WORK/a.img" "$WORK/b.img"
attach_loop "$WORK/a.img"
held=$dev
attach_loop "$WORK/b.img"
other=$dev
sectors_read() { awk '{print $3}' "/sys/block/$(basename "$1")/stat"; }
# "$WORK/n:x" names the held device; "$WORK/n", what fio would read of it split at ':', the other.
ln -s "$held" "$WORK/n:x"
ln -s "$other" "$WORK/n"
bounded=(--only read_ahead_kb --max-trials 2 --duration 0.3 --repeats 2 --max-repeats 2)

for objective in seq-read-direct seq-read; do
  before_other=$(sectors_read "$other")
  before_held=$(sectors_read "$held")
  tune_completed timeout 120 "$DISKTUNE" tune "$WORK/n:x" --objective "$objective" "${bounded[@]}" \
    --journal "$WORK/j-colon-$objective" --report "$WORK/colon.json" >"$WORK/colon.txt" 2>&1 ||
    fail "$objective tune of a name with ':' did not complete: $(tail -5 "$WORK/colon.txt")"
  expect_eq "$(sectors_read "$other")" "$before_other" "$objective: sectors read from $other, which a name with ':' must not reach"
  [ "$(sectors_read "$held")" -gt "$before_held" ] || fail "$objective: the named device $held was not read"
  before_other=$(sectors_read "$other")
  code=0
  timeout 60 "$DISKTUNE" bench "$WORK/n:x" --objective "$objective" --duration 0.3 --repeats 2 >"$WORK/bench.txt" 2>&1 || code=$?
  expect_eq "$code" 0 "$objective bench of a name with ':' ($(tail -3 "$WORK/bench.txt"))"
  expect_eq "$(sectors_read "$other")" "$before_other" "$objective: sectors bench read from $other"
done

# A name no snippet can hold (a space) is refused before anything is measured, not after the run.
ln -s "$held" "$WORK/a b"
before_held=$(sectors_read "$held")
code=0
timeout 10 "$DISKTUNE" tune "$WORK/a b" "${bounded[@]}" --journal "$WORK/j-space" >"$WORK/space.txt" 2>&1 || code=$?
expect_eq "$code" 2 "tune of a name with a space ($(cat "$WORK/space.txt"))"
grep -q 'not safe to write into a script or rule' "$WORK/space.txt" || fail "the refusal does not say why: $(cat "$WORK/space.txt")"
expect_eq "$(sectors_read "$held")" "$before_held" "sectors read before the refusal of a name with a space"

# A symlink re-pointed mid-run: the tune and bench keep reading what they opened.
ln -s "$held" "$WORK/link"
before_other=$(sectors_read "$other")
before=$(queue_snapshot "$held")
"$DISKTUNE" tune "$WORK/link" --objective seq-read-direct --only read_ahead_kb --max-trials 6 --duration 0.5 \
  --repeats 2 --max-repeats 2 --journal "$WORK/j-link" >"$WORK/link.txt" 2>&1 &
tune_pid=$!
cleanup_steps=("kill $tune_pid 2>/dev/null; wait $tune_pid 2>/dev/null" "${cleanup_steps[@]}")
for _ in $(seq 100); do grep -q 'baseline' "$WORK/link.txt" 2>/dev/null && break; sleep 0.1; done
ln -sfn "$other" "$WORK/link"
code=0
wait "$tune_pid" || code=$?
[ "$code" = 0 ] || [ "$code" = 6 ] || fail "tune through a moved symlink exited $code: $(tail -5 "$WORK/link.txt")"
expect_eq "$(sectors_read "$other")" "$before_other" "sectors read from $other after the symlink moved to it"
expect_eq "$(queue_snapshot "$held")" "$before" "queue settings of the held device after the run"

ln -sfn "$held" "$WORK/link"
before_other=$(sectors_read "$other")
"$DISKTUNE" bench "$WORK/link" --objective seq-read-direct --duration 0.5 --repeats 6 >"$WORK/bench-link.txt" 2>&1 &
bench_pid=$!
sleep 1
ln -sfn "$other" "$WORK/link"
wait "$bench_pid" || fail "bench through a moved symlink: $(tail -3 "$WORK/bench-link.txt")"
expect_eq "$(sectors_read "$other")" "$before_other" "sectors bench read from $other after the symlink moved to it"
echo "ok: only $held was read, by every engine, through a name with ':' and a moved symlink"
