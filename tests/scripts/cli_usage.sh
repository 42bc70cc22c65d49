#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad arguments and bad input: a one-line reason and exit 2; --help and --version work.
# Every run is bounded by `timeout`, so a hang fails the test instead of hanging it.
source "$(dirname "$0")/lib.bash"

expect_exit() {  # expect_exit CODE ARGS...
  local code=$1; shift
  set +e; timeout -k 5 30 "$DISKTUNE" "$@" >"$WORK/out" 2>"$WORK/err"; local got=$?; set -e
  [ "$got" = "$code" ] || fail "disktune $* exited $got, expected $code ($(cat "$WORK/err"))"
}
expect_exit 0 --version
grep -q '^disktune [0-9]' "$WORK/out" || fail "--version prints no version"
for cmd in identify plan bench tune; do
  expect_exit 0 "$cmd" --help
  grep -q -- '--help' "$WORK/out" || fail "$cmd --help lists no options"
done
expect_exit 2
grep -q usage "$WORK/err" || fail "no arguments: usage is not printed on stderr"
expect_exit 2 frobnicate
expect_exit 2 tune --seed -1
expect_exit 2 tune --json
expect_exit 2 tune --report - --boot-local -
ln -s "$WORK/elsewhere" "$WORK/link.json"
expect_exit 2 tune --report "$WORK/link.json"
grep -q "symbolic link" "$WORK/err" || fail "a symlinked output path is not refused with its reason"
[ ! -e "$WORK/elsewhere" ] || fail "the symlink was followed"
expect_exit 2 tune --report /nonexistent-dir/r.json
expect_exit 2 tune sim:/nonexistent-capture.txt
expect_exit 2 tune --sim-profile /nonexistent-profile.json
# Several drives (docs/multi-drive.md "Outputs"): one file for all of them, stdout, a drive
# named twice and --summary with one drive are refused before any worker starts.
cap="$TEST_DATA/identify/hdparm-I_maxtor-4a250j0_cur-chs-65535x1_mail-wrapped.txt"
expect_exit 2 tune sim: "sim:$cap" --report "$WORK/one.json" --summary "$WORK/s.json"
grep -q "one file for several drives" "$WORK/err" || fail "one --report file for two drives: $(cat "$WORK/err")"
expect_exit 2 tune sim: "sim:$cap" --boot-local - --summary "$WORK/s.json"
expect_exit 2 tune sim: sim: --summary "$WORK/s.json"
grep -q "name one drive" "$WORK/err" || fail "a drive named twice: $(cat "$WORK/err")"
expect_exit 2 tune sim: --summary "$WORK/s.json"
# The summary over a drive's journal or report: refused before a worker starts.
mkdir "$WORK/m"
expect_exit 2 tune sim: "sim:$cap" --journal "$WORK/m/{drive}.journal" --summary "$WORK/m/sim.journal"
grep -q "\-\-summary and \-\-journal of sim name the same file ($WORK/m/sim.journal)" "$WORK/err" ||
  fail "--summary over a journal: $(cat "$WORK/err")"
expect_exit 2 tune sim: "sim:$cap" --report "$WORK/m/{drive}.json" --summary "$WORK/m/sim.json"
grep -q "name the same file ($WORK/m/sim.json)" "$WORK/err" || fail "--summary over a report: $(cat "$WORK/err")"
[ -z "$(ls -A "$WORK/m")" ] || fail "a refused multi-drive tune wrote $(ls "$WORK/m")"
[ ! -e "$WORK/s.json" ] && [ ! -e "$WORK/sim.log" ] || fail "a refused multi-drive tune wrote files"
expect_exit 2 tune --repeats 0
# An identify capture the simulator cannot tune: the reason, exit 2, and no strerror after it
# ("... nothing to tune on sim:...: Invalid argument" blames a syscall that was never made).
partial="$TEST_DATA/identify/hdparm-I_toshiba-mg09aca18te-18tb_partial.txt"
expect_exit 2 plan "sim:$partial"
grep -qx "disktune: simulated drive: identify data lists no PIO or DMA modes: nothing to tune on sim:$partial" "$WORK/err" ||
  fail "plan of an untunable capture: $(cat "$WORK/err")"
# --only naming nothing this drive can change: refused before any measurement, and the journal
# it opened is finished (the next tune starts anew, not "other measurement options").
SECONDS=0
expect_exit 2 tune sim: --only read_ahead_kb --journal "$WORK/only.journal"
grep -q "nothing to tune on sim:: every setting named is unsupported" "$WORK/err" || fail "--only of nothing: $(cat "$WORK/err")"
[ "$SECONDS" -le 5 ] || fail "--only of nothing took $SECONDS s"
"$DISKTUNE" tune sim: --only multcount --max-trials 1 --journal "$WORK/only.journal" >/dev/null 2>"$WORK/err" ||
  fail "a tune after it exited $? ($(tail -2 "$WORK/err"))"
# --max-trials 0: the baseline and its noise only, said as such (no "keep the baseline" answer).
"$DISKTUNE" tune sim: --max-trials 0 --journal "$WORK/base.journal" --report "$WORK/base.json" \
  --boot-local "$WORK/base.sh" >"$WORK/base.out" 2>"$WORK/err" || fail "--max-trials 0 exited $? ($(tail -2 "$WORK/err"))"
grep -q "^baseline only (--max-trials 0): the baseline and its noise measured, no configuration tried: no configuration is recommended; the baseline reads " "$WORK/base.out" ||
  fail "--max-trials 0 table: $(tail -2 "$WORK/base.out")"
! grep -q "keep the baseline\|significantly faster" "$WORK/base.out" "$WORK/base.sh" || fail "--max-trials 0 worded as a measured answer"
! grep -q "^ *\* base" "$WORK/base.out" || fail "--max-trials 0 marks the baseline row as the answer: $(grep base "$WORK/base.out")"
expect_eq "$(jq -r '[.completed, (.trials | length), .winner.keep_baseline] | @tsv' "$WORK/base.json")" "$(printf 'true\t0\ttrue')" "--max-trials 0 report"
grep -q "^# Nothing to apply: no configuration was tried." "$WORK/base.sh" || fail "--max-trials 0 snippet: $(cat "$WORK/base.sh")"
expect_exit 2 tune --only dma
grep -q "unknown setting 'dma'" "$WORK/err" || fail "--only error does not name the setting"
expect_exit 2 tune --only read_ahead_kb,read_ahead_kb
grep -q "setting 'read_ahead_kb' named twice" "$WORK/err" || fail "a setting named twice in --only: $(cat "$WORK/err")"
expect_exit 2 tune --strategy ''
grep -q "no strategy named" "$WORK/err" || fail "an empty --strategy: $(cat "$WORK/err")"
expect_exit 2 tune --strategy annealing
grep -q "one-at-a-time" "$WORK/err" || fail "unknown strategy error does not list the valid ones"
expect_exit 2 identify --from "$WORK/missing.txt"
printf 'not identify data\n' >"$WORK/junk.txt"
expect_exit 2 identify --from "$WORK/junk.txt"
grep -q "junk.txt" "$WORK/err" || fail "parse error does not name the file"
expect_exit 2 identify --from "$TEST_DATA/identify/seed_ibm-djna-352500.hdparm-i.txt" --format nonsense
echo '{"media_mib_s": 10, "bogus": 1}' >"$WORK/profile.json"
expect_exit 2 tune --sim-profile "$WORK/profile.json"
grep -q bogus "$WORK/err" || fail "profile error does not name the unknown key"
expect_exit 3 bench /dev/does-not-exist
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "device error is not one line"

# Numbers out of range: usage errors that state the accepted range.
for bad in "--duration inf" "--duration nan" "--duration 1e300" "--duration -1" "--trial-timeout 1e10" \
           "--stall-timeout inf" "--time-budget 1e99" "--max-trials -1" "--repeats 1e9" "--max-repeats 100000"; do
  # shellcheck disable=SC2086
  expect_exit 2 tune $bad --journal "$WORK/never.journal"
  grep -q -- "${bad% *} must be .* from .* to .*, not '${bad#* }'" "$WORK/err" || fail "tune $bad: no range stated: $(cat "$WORK/err")"
done
expect_exit 2 evaluate --seeds -1
expect_exit 2 evaluate --identify-dir "$WORK/no-such-dir"
grep -q -- "--identify-dir $WORK/no-such-dir: no such directory" "$WORK/err" || fail "evaluate: a missing --identify-dir not named: $(cat "$WORK/err")"

# Inputs that are no regular file: refused before they are read, naming the
# option, the path and the reason (a FIFO hung the read, /dev/zero ate memory).
mkfifo "$WORK/fifo"
mkdir "$WORK/dir"
refused_input() {  # refused_input OPTION PATH WHY ARGS...
  local option=$1 path=$2 why=$3; shift 3
  expect_exit 2 "$@"
  grep -q -- "$option $path: is $why" "$WORK/err" || fail "disktune $*: the refusal does not say '$option $path: is $why': $(cat "$WORK/err")"
}
for cmd in identify plan; do
  refused_input --from "$WORK/fifo" "a FIFO" $cmd --from "$WORK/fifo"
  refused_input --from /dev/zero "a character device" $cmd --from /dev/zero
  refused_input --from "$WORK/dir" "a directory" $cmd --from "$WORK/dir"
done
refused_input --sim-profile "$WORK/fifo" "a FIFO" tune --sim-profile "$WORK/fifo" --journal "$WORK/never.journal"
refused_input --sim-profile /dev/zero "a character device" plan --sim-profile /dev/zero
refused_input "DEVICE sim:FILE" "$WORK/fifo" "a FIFO" tune "sim:$WORK/fifo" --journal "$WORK/never.journal"
for cmd in tune restore; do
  refused_input --journal "$WORK/fifo" "a FIFO" $cmd --journal "$WORK/fifo"
  refused_input --journal /dev/zero "a character device" $cmd --journal /dev/zero
  refused_input --journal "$WORK/dir" "a directory" $cmd --journal "$WORK/dir"
done

# Outputs. A quick simulated tune; each run has its own journal.
quick() { local journal=$1; shift; expect_exit "$@" --max-trials 2 --duration 0.2 --repeats 1 --max-repeats 1 --journal "$WORK/$journal"; }
not_run() { [ ! -e "$WORK/$1" ] || fail "$2: the run started (journal $1 exists) before the bad output was refused"; }
# --report over the journal, by the same name or another path to it: refused before the run.
ln -s "$WORK" "$WORK/alias"
quick j-same 2 tune --report "$WORK/j-same"
grep -q "same file" "$WORK/err" || fail "--report equal to --journal is not refused: $(cat "$WORK/err")"
quick j-alias 2 tune --report "$WORK/alias/j-alias"
grep -q "same file" "$WORK/err" || fail "--report naming the journal through a symlinked directory is not refused"
not_run j-alias "--report equal to --journal"
quick j-out 2 tune --report "$WORK/r.json" --boot-local "$WORK/alias/r.json"
# Paths that cannot be written: caught before the run, not after it.
long=$(printf 'n%.0s' $(seq 250))
for bad in /proc/disktune-test.json /proc/sys/vm/drop_caches /sys/block/disktune-test "$WORK/missing/r.json" \
           "$WORK/${long}nnnnnnnnnn"; do
  n=$((${n:-0} + 1))
  quick "j-bad$n" 2 tune --report "$bad"
  grep -q "cannot write" "$WORK/err" || fail "--report $bad: no reason given: $(cat "$WORK/err")"
  not_run "j-bad$n" "--report ${bad:0:40}"
done
# A long name that the file system takes is written (its temporary file's name must fit too).
quick j-long 0 tune --report "$WORK/$long"
grep -q '"winner"' "$WORK/$long" || fail "a 250-character file name is not written"
# A FIFO nobody reads ends in a bounded time with a clear error; one with a reader is written.
mkfifo "$WORK/out.fifo"
quick j-fifo 2 tune --report "$WORK/out.fifo"
grep -q "no process reads this FIFO" "$WORK/err" || fail "an unread FIFO output: $(cat "$WORK/err")"
timeout 30 cat "$WORK/out.fifo" >"$WORK/from-fifo.json" &
quick j-fifo-read 0 tune --report "$WORK/out.fifo"
wait $!
grep -q '"winner"' "$WORK/from-fifo.json" || fail "the report written into a read FIFO is incomplete"
# A failed report write does not skip the other outputs.
quick j-full 2 tune --report /dev/full --boot-local "$WORK/full.sh" --udev-rules "$WORK/full.rules"
grep -q "/dev/full" "$WORK/err" || fail "the failed report write is not named"
[ -s "$WORK/full.sh" ] && [ -s "$WORK/full.rules" ] || fail "a failed report write skipped the other outputs"
# A closed or full stdout is an error, not exit 0.
set +e
timeout -k 5 30 "$DISKTUNE" tune --max-trials 2 --duration 0.2 --journal "$WORK/j-stdout-full" >/dev/full 2>"$WORK/err"; got=$?
expect_eq "$got" 2 "tune with a full stdout ($(tail -1 "$WORK/err"))"
grep -q "standard output" "$WORK/err" || fail "a full stdout is not named"
timeout -k 5 30 "$DISKTUNE" plan --json >/dev/full 2>/dev/null; got=$?
expect_eq "$got" 2 "plan with a full stdout"
( sleep 0.2; timeout -k 5 30 "$DISKTUNE" tune --max-trials 2 --duration 0.2 --journal "$WORK/j-pipe" 2>/dev/null
  echo $? >"$WORK/pipe.rc" ) | true
# A closed stdout or stderr: no file disktune opens may take its number (the journal once
# took fd 2 and got the progress text: the next run found it damaged).
timeout -k 5 30 "$DISKTUNE" tune --max-trials 2 --duration 0.2 --journal "$WORK/j-closed-err" >/dev/null 2>&-; got=$?
expect_eq "$got" 0 "tune with stderr closed"
timeout -k 5 30 "$DISKTUNE" tune --max-trials 2 --duration 0.2 --journal "$WORK/j-closed-err" >/dev/null 2>"$WORK/err"; got=$?
expect_eq "$got" 0 "tune after a run with stderr closed: its journal ($(tail -1 "$WORK/err"))"
timeout -k 5 30 "$DISKTUNE" tune --max-trials 2 --duration 0.2 --journal "$WORK/j-closed-out" >&- 2>"$WORK/err"; got=$?
expect_eq "$got" 2 "tune with stdout closed ($(tail -1 "$WORK/err"))"
grep -q "standard output was closed" "$WORK/err" || fail "a closed stdout is not named"
set -e
expect_eq "$(cat "$WORK/pipe.rc")" 2 "tune writing into a closed pipe"

# restore after a finished run says the next tune starts anew (not that it resumes).
quick j-done 0 tune
timeout -k 5 30 "$DISKTUNE" restore --journal "$WORK/j-done" 2>"$WORK/err" || fail "restore after a finished run: $(cat "$WORK/err")"
grep -q "had finished: the next tune starts a new journal" "$WORK/err" || fail "restore of a finished journal says: $(cat "$WORK/err")"

# Every snippet option writes its form (--tuned-profile: TuneD's fragment; its loader checks it in tuned_profile_check).
quick j-forms 0 tune --udev-rules "$WORK/f.rules" --tuned-profile "$WORK/f.tuned"
grep -q "^# TuneD profile fragment generated by disktune" "$WORK/f.tuned" || fail "--tuned-profile wrote: $(head -3 "$WORK/f.tuned")"
grep -q "^ACTION==\"add|change\"" "$WORK/f.rules" || fail "--udev-rules wrote: $(cat "$WORK/f.rules")"

# An interrupted run never replaces an earlier run's snippets.
quick j-good 0 tune --boot-local "$WORK/kept.sh" --hdparm-conf "$WORK/kept.conf"
cp "$WORK/kept.sh" "$WORK/kept.sh.before"
cp "$WORK/kept.conf" "$WORK/kept.conf.before"
timeout -k 5 60 "$DISKTUNE" tune --duration 30 --journal "$WORK/j-int" --boot-local "$WORK/kept.sh" \
  --hdparm-conf "$WORK/kept.conf" --report "$WORK/int.json" >/dev/null 2>"$WORK/int.err" &
run=$!
for _ in $(seq 300); do grep -q 'trial 0' "$WORK/int.err" && break; sleep 0.1; done
kill -INT $run
set +e; wait $run; got=$?; set -e
expect_eq "$got" 1 "the interrupted run's exit ($(tail -2 "$WORK/int.err"))"
cmp -s "$WORK/kept.sh" "$WORK/kept.sh.before" || fail "the interrupted run replaced --boot-local: $(cat "$WORK/kept.sh")"
cmp -s "$WORK/kept.conf" "$WORK/kept.conf.before" || fail "the interrupted run replaced --hdparm-conf"
grep -q "left as it was" "$WORK/int.err" || fail "the interrupted run does not say the snippets were left alone"
grep -q '"completed": false' "$WORK/int.json" || fail "the interrupted run's report is not written"
# report REPORT --html FILE: one report, --html required, a JSON report only.
printf 'not json\n' >"$WORK/not-a-report.json"
expect_exit 2 report --html "$WORK/o.html"
expect_exit 2 report "$WORK/not-a-report.json"
grep -q -- "--html" "$WORK/err" || fail "report without --html does not say it needs it"
expect_exit 2 report "$WORK/not-a-report.json" --html "$WORK/o.html"
grep -q "not a JSON report" "$WORK/err" || fail "report of a non-JSON file does not say so"
[ ! -e "$WORK/o.html" ] || fail "report wrote a page for a non-JSON file"
expect_exit 2 report "$WORK/missing.json" --html "$WORK/o.html"
# The page over the report it is made from (any spelling of its path): refused, the report kept.
"$DISKTUNE" tune --max-trials 2 --report "$WORK/own.json" --journal "$WORK/own.journal" >/dev/null 2>&1 || fail "tune for report's own input"
cp "$WORK/own.json" "$WORK/own.copy"
mkdir "$WORK/h"
expect_exit 2 report "$WORK/own.json" --html "$WORK/h/../own.json"
grep -q "name the same file" "$WORK/err" || fail "report --html over its input: $(cat "$WORK/err")"
cmp -s "$WORK/own.json" "$WORK/own.copy" || fail "report --html overwrote its input"
# JSON that is no report, or one whose sections the page cannot read: exit 2 naming why, no page.
for bad in '{}' '{"schema_version":99}' '{"schema_version":"3"}'; do
  printf '%s' "$bad" >"$WORK/bad.json"
  expect_exit 2 report "$WORK/bad.json" --html "$WORK/o.html"
  grep -q "schema_version" "$WORK/err" || fail "report of $bad does not name schema_version: $(cat "$WORK/err")"
done
for edit in '.trials = "y"' '.trials = [null]' '.confirmation = {"results": 5}' '.winner = 3'; do
  jq "$edit" "$WORK/own.json" >"$WORK/bad.json"
  expect_exit 2 report "$WORK/bad.json" --html "$WORK/o.html"
done
# A journal on a kernel interface file system would write its records into the kernel
# (/proc/self/attr/current took one and said EINVAL): refused before the run, there or new.
for journal in /proc/self/attr/current /proc/self/disktune.journal; do
  expect_exit 2 tune sim: --max-trials 1 --journal "$journal"
  grep -q -- "--journal $journal: a procfs file (a kernel interface), not one to write to" "$WORK/err" ||
    fail "--journal $journal: $(cat "$WORK/err")"
done
# A number beyond a double's range (Boost.JSON reads 1e999 as infinity, which JSON cannot hold
# and the page's JSON.parse refused: a blank page, exit 0): refused by report and apply alike.
sed 's/"speedup": [0-9.e+-]*/"speedup": 1e999/' "$WORK/own.json" >"$WORK/inf.json"
grep -q '"speedup": 1e999' "$WORK/inf.json" || fail "no speedup to edit in $WORK/own.json"
for cmd in "report $WORK/inf.json --html $WORK/o.html" "apply $WORK/inf.json"; do
  # shellcheck disable=SC2086  # the command's words
  expect_exit 2 $cmd
  grep -q "winner.speedup: a number that reads as infinity" "$WORK/err" || fail "$cmd: $(cat "$WORK/err")"
done
[ ! -e "$WORK/o.html" ] || fail "report wrote a page for a file that is no report"
"$DISKTUNE" report "$WORK/own.json" --html "$WORK/o.html" 2>"$WORK/err" || fail "report of a real report: $(cat "$WORK/err")"
expect_exit 2 tune --report - --html -

# A name holding a newline (or an escape) stays on one line of the error: it cannot forge a
# second line of output or move the terminal's cursor.
for command in tune bench plan restore identify; do
  set +e; "$DISKTUNE" "$command" "$WORK/no
such"$'\e[2J' >/dev/null 2>"$WORK/err"; set -e
  expect_eq "$(wc -l <"$WORK/err")" 1 "lines of '$command' on a name with a newline"
  if grep -q $'\e' "$WORK/err"; then fail "'$command' printed an escape character of the name"; fi
done
# An option's path holding a control character is refused before anything runs: it would
# reach log lines and the printed resume and restore commands.
for option in --journal --report --html --boot-local; do
  set +e; "$DISKTUNE" tune sim: --max-trials 1 "$option" "$WORK/a
b"$'\r' >/dev/null 2>"$WORK/err"; code=$?; set -e
  expect_eq "$code" 2 "exit code of $option with a newline"
  expect_eq "$(wc -l <"$WORK/err")" 1 "lines of the refusal of $option with a newline"
  grep -qF -- "$option '$WORK/a?b?': holds a control character" "$WORK/err" || fail "$option: $(cat "$WORK/err")"
  [ ! -e "$WORK/a"$'\n'"b"$'\r' ] || fail "$option: the file was written"
done
echo ok
