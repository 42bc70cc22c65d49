#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Verify's evidence from the kernel log: `apply` records where the kernel
# log stood when it completed (the last /dev/kmsg record's sequence number), so that verify
# takes the records after it as logged after the apply. On this machine's real kernel log: a
# test line written before the apply is at or before the recorded mark, one written after it
# is above it. An apply journal written before the mark existed (the field removed) still
# verifies, drifts and restores. Writes only "disktune-test:" lines to /dev/kmsg.
source "$(dirname "$0")/lib.bash"

require_loop
[ -w /dev/kmsg ] && [ -r /dev/kmsg ] || skip "/dev/kmsg cannot be read and written"
attach_readahead_loop 16
loop_report "$dev" "$WORK/disk.img" "{\"read_ahead_kb\": $ra}" >"$WORK/r.json"

# kmsg_line TEXT: log "disktune-test: TEXT $$" and print its record's "seq usec".
kmsg_line() {
  local line="disktune-test: $1 $$ $RANDOM"
  echo "$line" >/dev/kmsg
  dd if=/dev/kmsg iflag=nonblock bs=8192 2>/dev/null | grep -a ";$line\$" | tail -1 | cut -d';' -f1 | cut -d, -f2,3 | tr , ' '
}

read -r seq_before usec_before < <(kmsg_line "before apply")
"$DISKTUNE" apply "$WORK/r.json" >"$WORK/a.out" 2>"$WORK/a.err" || fail "apply exited $? ($(cat "$WORK/a.err"))"
read -r seq_after usec_after < <(kmsg_line "after apply")
journal=$(sed -n 's/.*; journal \(.*\); .[^ ]*disktune restore.*/\1/p' "$WORK/a.out")
[ -n "$journal" ] && [ -f "$journal" ] || fail "apply names no journal: $(cat "$WORK/a.out")"
cleanup_steps+=("rm -f '$journal' '$journal'.*")
[ -n "$seq_before" ] && [ -n "$seq_after" ] || fail "the test lines are not in /dev/kmsg"

done_record=$(tail -1 "$journal" | cut -d' ' -f4-)
expect_eq "$(jq -r '"\(.type) \(.done)"' <<<"$done_record")" "apply true" "the journal's last record"
mark=$(jq -r '.kernel_log.seq // empty' <<<"$done_record")
usec=$(jq -r '.kernel_log.monotonic_usec // empty' <<<"$done_record")
[ -n "$mark" ] && [ -n "$usec" ] || fail "the apply record has no kernel log mark: $done_record"
[ "$seq_before" -le "$mark" ] && [ "$mark" -lt "$seq_after" ] ||
  fail "mark $mark is not between the line before the apply ($seq_before) and the one after it ($seq_after)"
# CLOCK_MONOTONIC at the apply, on the printk clock's scale (within a second of it here).
[ "$usec" -ge $((usec_before - 1000000)) ] && [ "$usec" -le $((usec_after + 1000000)) ] ||
  fail "monotonic_usec $usec is not between ${usec_before} and ${usec_after} µs (printk clock)"

verify() {  # verify ARGS...: run disktune verify; its exit code in `code`, output in $WORK/v.out
  code=0
  "$DISKTUNE" verify "$@" >"$WORK/v.out" 2>"$WORK/v.err" || code=$?
}
verify "$WORK/r.json"
expect_eq "$code" 0 "verify after apply ($(cat "$WORK/v.out" "$WORK/v.err"))"
# A change by hand: the kernel log after the mark (read for real) shows no resume or reset of
# a loop device, so no cause.
echo "$found" >"$q/read_ahead_kb"
verify "$WORK/r.json" --json
expect_eq "$(jq -r '"\(.status) \(.drives[0].settings[0].cause)"' "$WORK/v.out")" "drift null" "a drift with the mark"
echo "$ra" >"$q/read_ahead_kb"

# The journal as an older disktune wrote it: the apply record without "kernel_log".
python3 - "$journal" <<'PY'
import json, sys, zlib
path = sys.argv[1]
lines = open(path, 'rb').read().rstrip(b'\n').split(b'\n')
r = json.loads(lines[-1].split(b' ', 3)[3])
del r['kernel_log']
body = json.dumps(r, separators=(',', ':')).encode()
lines[-1] = b'DTJ1 %d %08x ' % (len(body), zlib.crc32(body)) + body
open(path, 'wb').write(b'\n'.join(lines) + b'\n')
PY
grep -q kernel_log "$journal" && fail "the journal still has a kernel log mark"
verify "$WORK/r.json"
expect_eq "$code" 0 "verify with an older apply journal ($(cat "$WORK/v.out" "$WORK/v.err"))"
echo "$found" >"$q/read_ahead_kb"
verify "$WORK/r.json" --json
expect_eq "$code" 1 "verify after a change by hand, older journal"
expect_eq "$(jq -r '.drives[0].settings[0] | "\(.setting) \(.status) \(.cause)"' "$WORK/v.out")" \
  "read_ahead_kb drift null" "the drift with an older journal (no evidence: cause null)"
"$DISKTUNE" restore "$dev" >"$WORK/rs.out" 2>&1 || fail "restore exited $? ($(cat "$WORK/rs.out"))"
expect_eq "$(cat "$q/read_ahead_kb")" "$found" "read_ahead_kb after restore"
verify "$WORK/r.json"
grep -q "read_ahead_kb: expected $ra, actual $found  DRIFT: .*'disktune restore' at" "$WORK/v.out" ||
  fail "verify after restore, older journal: $(cat "$WORK/v.out")"
echo "ok: mark $mark between kmsg seq $seq_before and $seq_after; an older journal verifies"
