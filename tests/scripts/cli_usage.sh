#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad arguments and bad input: a one-line reason and exit 2; --help and --version work.
source "$(dirname "$0")/lib.bash"

expect_exit() {  # expect_exit CODE ARGS...
  local code=$1; shift
  set +e; "$DISKTUNE" "$@" >"$WORK/out" 2>"$WORK/err"; local got=$?; set -e
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
expect_exit 2 tune --repeats 0
expect_exit 2 tune --only dma
grep -q "unknown setting 'dma'" "$WORK/err" || fail "--only error does not name the setting"
expect_exit 2 tune --strategy annealing
grep -q "one-at-a-time" "$WORK/err" || fail "unknown strategy error does not list the valid ones"
expect_exit 2 identify --from "$WORK/missing.txt"
printf 'not identify data\n' >"$WORK/junk.txt"
expect_exit 2 identify --from "$WORK/junk.txt"
grep -q "junk.txt" "$WORK/err" || fail "parse error does not name the file"
expect_exit 2 identify --from "$SHARED_DATA/identify/seed_ibm-djna-352500.hdparm-i.txt" --format nonsense
echo '{"media_mib_s": 10, "bogus": 1}' >"$WORK/profile.json"
expect_exit 2 tune --sim-profile "$WORK/profile.json"
grep -q bogus "$WORK/err" || fail "profile error does not name the unknown key"
expect_exit 3 bench /dev/does-not-exist
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "device error is not one line"
echo ok
