#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Journals a tune will not resume (other measurement options, damaged records, an infinite
# duration, another kernel, another size): each error names what differs and suggests a way
# forward; every suggested command is run literally and works; --fresh sets any of them aside
# (renamed, same bytes) and says how to restore from it unless it put its settings back itself;
# restore errors never suggest --fresh.
source "$(dirname "$0")/lib.bash"

tune=("$DISKTUNE" tune --seed 3 --duration 1 --max-trials 3)
# rewrite JOURNAL LINE PYTHON: apply PYTHON (on `r`, the record's dict) to record LINE, re-encoded with its CRC.
rewrite() {
  python3 - "$@" <<'PY'
import json, sys, zlib
path, line, code = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path, 'rb').read().split(b'\n')
body = lines[line - 1].split(b' ', 3)[3]
r = json.loads(body)
exec(code)
body = json.dumps(r, separators=(',', ':')).replace('"INF"', '1e999').encode()
lines[line - 1] = b'DTJ1 %d %08x ' % (len(body), zlib.crc32(body)) + body
open(path, 'wb').write(b'\n'.join(lines))
PY
}
# unfinished NAME: a journal of a completed run without its end record, as a crash leaves it.
unfinished() {
  "${tune[@]}" --journal "$WORK/base.journal" >/dev/null 2>&1 || fail "reference run failed"
  head -n -1 "$WORK/base.journal" >"$WORK/$1"
  rm -f "$WORK/base.journal"*
}
# expect_refused WHAT TEXT ARGS...: exit 2 with TEXT in the message.
expect_refused() {
  local what=$1 text=$2 status=0
  shift 2
  "$@" >/dev/null 2>"$WORK/err" || status=$?
  expect_eq "$status" 2 "$what: exit code ($(tail -1 "$WORK/err"))"
  grep -qF -- "$text" "$WORK/err" || fail "$what: message lacks '$text': $(tail -1 "$WORK/err")"
}
# run_suggested_restores: run every 'PROGRAM restore ...' command the last message quoted, as
# printed (the program as it was run: $DISKTUNE).
run_suggested_restores() {
  local count=0 command
  while read -r command; do
    [[ $command == "$DISKTUNE restore "* ]] || fail "a suggested restore names another program: $command"
    eval "$command" >/dev/null 2>"$WORK/restore.err" || fail "suggested '$command' failed: $(cat "$WORK/restore.err")"
    count=$((count + 1))
  done < <(grep -o "'[^' ]*disktune restore [^']*'" "$WORK/err" | tr -d "'")
  echo "$count"
}

# Other measurement options are refused, naming each with both values.
unfinished opts.journal
expect_refused "other options" "--duration 1 (journal) vs 2 (command line)" \
  "$DISKTUNE" tune --seed 3 --duration 2 --repeats 4 --max-trials 3 --journal "$WORK/opts.journal"
grep -qF -- "--repeats 3 (journal) vs 4 (command line)" "$WORK/err" || fail "repeats not named: $(cat "$WORK/err")"
grep -qF -- "--fresh" "$WORK/err" || fail "no --fresh suggested"
"$DISKTUNE" tune --seed 3 --duration 2 --repeats 4 --max-trials 3 --journal "$WORK/opts.journal" --fresh \
  --report "$WORK/fresh.json" >/dev/null 2>"$WORK/err" || fail "the suggested --fresh failed: $(tail -1 "$WORK/err")"
jq -e '.options.duration_s == 2 and .options.repeats == 4 and .options.chunk_bytes == 2097152 and
       .options.method == "buffered" and (.options.command_line | index("--fresh"))' "$WORK/fresh.json" >/dev/null ||
  fail "report lacks the options: $(jq -c .options "$WORK/fresh.json")"
# --fresh put the set-aside journal's originals back first: no restore is owed for them (it said
# they "stay in it" with a restore command after it had just restored them).
grep -q "restored the original settings recorded in $WORK/opts.journal" "$WORK/err" || fail "--fresh restored nothing: $(cat "$WORK/err")"
grep -q "(unfinished); its original settings are back on the drive" "$WORK/err" || fail "set-aside line: $(cat "$WORK/err")"
expect_eq "$(run_suggested_restores)" 0 "restore commands suggested for the set-aside journal"
# A journal of another objective (its scores are IOPS, not latencies) or guard is refused too.
unfinished objective.journal
expect_refused "another objective" "--objective seq-read (journal) vs rand-read-latency (command line)" \
  "${tune[@]}" --objective rand-read-latency --journal "$WORK/objective.journal"
expect_refused "another guard" "--objective (the guarded B of A,B)" \
  "${tune[@]}" --objective seq-read,rand-read-iops --journal "$WORK/objective.journal"
unfinished same.journal
"${tune[@]}" --journal "$WORK/same.journal" >/dev/null 2>"$WORK/err" || fail "resume with the same options failed"
grep -q "resuming" "$WORK/err" || fail "did not resume with the same options"

# Each journal a tune will not accept; the suggestion works; --fresh sets it aside.
check_set_aside() {  # WHAT JOURNAL EXPECTED-RESTORES
  local what=$1 journal=$2 before aside
  before=$(md5sum <"$journal")
  "${tune[@]}" --journal "$journal" --fresh >/dev/null 2>"$WORK/err" || fail "$what: --fresh failed: $(tail -1 "$WORK/err")"
  aside=$(sed -n 's/^disktune: previous journal kept as \([^ ]*\).*/\1/p' "$WORK/err")
  [ -f "$aside" ] || fail "$what: no set-aside file named: $(cat "$WORK/err")"
  expect_eq "$(md5sum <"$aside")" "$before" "$what: set-aside bytes"
  expect_eq "$(run_suggested_restores)" "$3" "$what: working restore commands suggested"
}
unfinished damaged.journal
sed -i '3s/"type"/"tYpe"/' "$WORK/damaged.journal"
expect_refused "damaged record" "--fresh" "${tune[@]}" --journal "$WORK/damaged.journal"
"$DISKTUNE" restore --journal "$WORK/damaged.journal" >/dev/null 2>"$WORK/err" ||
  fail "restore from a journal with a damaged later record: $(cat "$WORK/err")"
check_set_aside "damaged record" "$WORK/damaged.journal" 0  # its start record read: put back

unfinished inf.journal
rewrite "$WORK/inf.journal" 1 'r["options"]["duration_s"] = "INF"'
expect_refused "infinite duration" "--fresh" "${tune[@]}" --journal "$WORK/inf.journal"
check_set_aside "infinite duration" "$WORK/inf.journal" 0  # put back

unfinished kernel.journal
rewrite "$WORK/kernel.journal" 1 'r["device"]["kernel"] = "0.0-other"'
expect_refused "other kernel" "--force resumes it anyway" "${tune[@]}" --journal "$WORK/kernel.journal"
cp "$WORK/kernel.journal" "$WORK/kernel2.journal"
"${tune[@]}" --journal "$WORK/kernel2.journal" --force >/dev/null 2>&1 || fail "the suggested --force failed"
"$DISKTUNE" restore --journal "$WORK/kernel.journal" >/dev/null 2>"$WORK/err" && fail "restore of another kernel's journal without --force"
grep -qF -- "--force restores anyway" "$WORK/err" || fail "restore does not suggest --force: $(cat "$WORK/err")"
"$DISKTUNE" restore --journal "$WORK/kernel.journal" --force >/dev/null 2>&1 || fail "the suggested restore --force failed"
# The restore --force above put its settings back and journaled it: nothing is owed, and the
# drive holds them (the set-aside line says so instead of suggesting another restore).
check_set_aside "other kernel" "$WORK/kernel.journal" 0
grep -q "(journal .* recorded under another device name or kernel.*); its original settings are back on the drive" "$WORK/err" ||
  fail "other kernel: the set-aside line: $(grep 'kept as' "$WORK/err")"

unfinished size.journal
rewrite "$WORK/size.journal" 1 'r["device"]["size_bytes"] += 4096'
expect_refused "another size" "--fresh sets it aside" "${tune[@]}" --journal "$WORK/size.journal"
check_set_aside "another size" "$WORK/size.journal" 0
grep -q "belongs to another drive" "$WORK/err" || fail "set-aside message does not say it is another drive's"
# Another drive's finished and restored journal: its settings went back on that drive, never on
# this one (--fresh said "its original settings are back on the drive").
"${tune[@]}" --journal "$WORK/done.journal" >/dev/null 2>&1 || fail "a finished run for the next case failed"
rewrite "$WORK/done.journal" 1 'r["device"]["size_bytes"] += 4096'
"${tune[@]}" --journal "$WORK/done.journal" --fresh >/dev/null 2>"$WORK/err" || fail "--fresh over another drive's journal: $(tail -1 "$WORK/err")"
grep -q "belongs to another drive: .*its settings are never applied to this one" "$WORK/err" ||
  fail "another drive's finished journal: $(grep 'kept as' "$WORK/err")"
if grep -q "back on the drive" "$WORK/err"; then fail "another drive's settings said to be back on this one: $(cat "$WORK/err")"; fi

unfinished start.journal
sed -i '1s/"original"/"0riginal"/' "$WORK/start.journal"
check_set_aside "damaged start record" "$WORK/start.journal" 0
grep -q "original settings cannot be read" "$WORK/err" || fail "no word on the unreadable originals: $(cat "$WORK/err")"

# restore errors: never --fresh; a missing journal names the set-aside ones with a working command.
for journal in "$WORK/start.journal".* "$WORK/size.journal".* "$WORK/none.journal"; do
  "$DISKTUNE" restore --journal "$journal" >/dev/null 2>"$WORK/err" && fail "restore from $journal succeeded"
  grep -q -- "--fresh" "$WORK/err" && fail "restore suggests --fresh: $(cat "$WORK/err")"
done
"$DISKTUNE" restore --journal "$WORK/opts.journal.missing" >/dev/null 2>"$WORK/err" && fail "restore without a journal"
ls "$WORK"/opts.journal.missing* >/dev/null 2>&1 && fail "restore created a journal"
"$DISKTUNE" restore --journal "$WORK/opts.journal" >/dev/null 2>&1 || true
rm "$WORK/opts.journal"
"$DISKTUNE" restore --journal "$WORK/opts.journal" >/dev/null 2>"$WORK/err" && fail "restore without a journal"
expect_eq "$(run_suggested_restores)" 1 "restore commands suggested when the journal is missing"
# A finished journal holds nothing to resume or restore: recorded under another kernel (or
# device name), the next tune sets it aside and runs, instead of asking for --fresh.
"${tune[@]}" --journal "$WORK/done.journal" >/dev/null 2>&1 || fail "reference run failed"
grep -q '"type":"end"' "$WORK/done.journal" || fail "the reference run left no end record"
rewrite "$WORK/done.journal" 1 'r["device"]["kernel"] = "2.6.32-old"'
"${tune[@]}" --journal "$WORK/done.journal" >/dev/null 2>"$WORK/err" || fail "a tune after a finished journal of another kernel exited $? ($(tail -2 "$WORK/err"))"
grep -q "previous journal kept as .* (finished; journal .* was recorded under another device name or kernel" "$WORK/err" ||
  fail "the finished journal was not set aside as such: $(grep -i journal "$WORK/err" | head -3)"
echo "ok"
