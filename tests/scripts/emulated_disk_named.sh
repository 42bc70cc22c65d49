#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A device that is not hardware is named for what it is in every output: a loop device over
# emudisk's file (a FUSE mount, fuse.emudisk) is EMULATED in plan (text and JSON), bench, the
# tune's progress lines, its JSON report, boot.local snippet, table and HTML page, apply and
# verify (text and JSON); a loop
# device over an ordinary file is not. Bounded: one read_ahead_kb trial beside the baseline.
source "$(dirname "$0")/lib.bash"
attach_emulated emu --profile hdd --capacity-gib 4

"$DISKTUNE" plan "$dev" >"$WORK/plan.txt"
grep -q "^EMULATED drive $dev (over fuse.emudisk)" "$WORK/plan.txt" || fail "plan: $(head -1 "$WORK/plan.txt")"
expect_eq "$("$DISKTUNE" plan "$dev" --json | jq -r .emulated_by)" fuse.emudisk "plan --json emulated_by"
"$DISKTUNE" bench "$dev" --duration 0.3 --repeats 1 >"$WORK/bench.txt"
grep -q "^$dev \[EMULATED drive\]:" "$WORK/bench.txt" || fail "bench: $(head -1 "$WORK/bench.txt")"

# A bad start, so the tune has an answer and writes boot.local whatever the suite's load: at
# read_ahead_kb 0 buffered reads go to the model in 4 KiB requests, a small part of the
# rate large ones reach (the one trial is the ladder's far end), far beyond any noise.
echo 0 >"$q/read_ahead_kb"
"$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 1 --duration 0.3 --max-repeats 3 \
  --report "$WORK/r.json" --html "$WORK/r.html" --boot-local "$WORK/boot.local" --journal "$WORK/j" \
  >"$WORK/out.txt" 2>"$WORK/err.txt" && rc=0 || rc=$?
case $rc in 0|1) ;; *) cat "$WORK/err.txt"; fail "tune failed with exit $rc" ;; esac
grep -q "tuning EMULATED drive $dev (over fuse.emudisk)" "$WORK/err.txt" || fail "no EMULATED in the tune's first line"
! grep -q "through the page cache" "$WORK/err.txt" || fail "a direct-I/O loop device was said to read through the page cache"
grep -q "^  \[EMULATED\] trial 1:" "$WORK/err.txt" || fail "trial lines do not say [EMULATED]"
if grep -qs "SIMULATED" "$WORK/err.txt" "$WORK/out.txt" "$WORK/r.json" "$WORK/boot.local"; then fail "an EMULATED drive called SIMULATED"; fi
expect_eq "$(jq -r '.device | "\(.emulated) \(.emulated_by) \(.simulated)"' "$WORK/r.json")" "true fuse.emudisk false" "report device"
grep -q "^# EMULATED drive (a timing model behind a FUSE file, fuse.emudisk)" "$WORK/boot.local" || fail "boot.local header"
grep -q "(EMULATED drive)" "$WORK/out.txt" || fail "the table does not say EMULATED: $(head -3 "$WORK/out.txt")"
# The page builds its banner from the report it embeds (results/html/report_page.js).
grep -q "EMULATED DRIVE (" "$WORK/r.html" || fail "the HTML page has no EMULATED banner"
grep -q '"emulated":true' "$WORK/r.html" || fail "the HTML page's report does not say emulated"

# apply and verify name it too (a report whose winner sets read_ahead_kb to a value of its space, restored after).
jq '.winner.changes = {"read_ahead_kb": ([.space.dimensions[] | select(.setting == "read_ahead_kb") | .values[]] - [.baseline.settings.read_ahead_kb] | last)} | .winner.keep_baseline = false | .too_noisy = false | .completed = true' "$WORK/r.json" >"$WORK/w.json"
"$DISKTUNE" apply "$WORK/w.json" --journal "$WORK/apply.journal" >"$WORK/apply.txt" 2>&1 || fail "apply: $(cat "$WORK/apply.txt")"
cleanup_steps+=("'$DISKTUNE' restore '$dev' --journal '$WORK/apply.journal' >/dev/null 2>&1")
grep -q "on $dev \[EMULATED drive\]" "$WORK/apply.txt" || fail "apply: $(cat "$WORK/apply.txt")"
grep -q "^$WORK/w.json: $dev \[EMULATED drive\]: ok" <("$DISKTUNE" verify "$WORK/w.json") || fail "verify: $("$DISKTUNE" verify "$WORK/w.json")"
expect_eq "$("$DISKTUNE" verify "$WORK/w.json" --json | jq -r '.drives[0].emulated_by')" fuse.emudisk "verify --json emulated_by"
"$DISKTUNE" restore "$dev" --journal "$WORK/apply.journal" >/dev/null || fail "restore after apply"

# A loop device over an ordinary file is hardware as far as the outputs go: not EMULATED.
head -c $((64 << 20)) /dev/zero >"$WORK/plain.img"
attach_loop "$WORK/plain.img"
expect_eq "$("$DISKTUNE" plan "$dev" --json | jq -r .emulated_by)" null "plan --json of a plain loop device"
if "$DISKTUNE" plan "$dev" | grep -q EMULATED; then fail "a plain loop device called EMULATED"; fi
# A plain loop device whose file's directory gets an emudisk mounted over it is still a plain
# loop device: EMULATED follows the file the loop holds open, not what its path names now.
mkdir -p "$WORK/shadow/mnt"
head -c $((64 << 20)) /dev/zero >"$WORK/shadow/mnt/disk.img"
attach_loop "$WORK/shadow/mnt/disk.img"
plain=$dev
attach_emulated shadow --profile hdd --capacity-gib 1
expect_eq "$("$DISKTUNE" plan "$plain" --json | jq -r .emulated_by)" null "plan --json of a plain loop device under a later emudisk mount"
expect_eq "$("$DISKTUNE" plan "$dev" --json | jq -r .emulated_by)" fuse.emudisk "plan --json of the emulated disk over the same path"

echo "ok: EMULATED in plan, bench, the tune's lines, report, snippet, table, HTML, apply and verify; a plain loop device is not"
