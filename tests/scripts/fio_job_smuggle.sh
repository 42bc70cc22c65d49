#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A job file runs nothing and writes nothing, as root: a refused option hidden behind an
# 8191-byte line (fio reads such pieces), a job file replaced after the check, each refused
# option, and an `include` of a FIFO or /dev/zero. Asserts that no command ran, that every
# refusal is exit 2 within seconds, and that the device's backing file is unchanged.
source "$(dirname "$0")/lib.bash"
command -v fio >/dev/null || skip "fio not installed (scripts/setup installs it)"
attach_random_loop 32
sum_before=$(md5sum <"$WORK/disk.img")
marker=$WORK/ran
# The command a smuggled option would run: it leaves a marker and writes to the device.
printf '#!/bin/sh\ntouch %s\ndd if=/dev/zero of=%s bs=4k count=1 conv=notrunc 2>/dev/null\n' "$marker" "$dev" >"$WORK/x.sh"
chmod +x "$WORK/x.sh"

# run_disktune ARGS...: exit code in $rc, output in $WORK/out.txt and err.txt.
run_disktune() {
  rc=0
  timeout 60 "$DISKTUNE" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || rc=$?
}
expect_refused() {  # WHAT TEXT: the last run exited 2 naming TEXT, and nothing ran
  expect_eq "$rc" 2 "$1: exit code ($(cat "$WORK/err.txt"))"
  grep -qF -- "$2" "$WORK/err.txt" || fail "$1: no '$2' in: $(cat "$WORK/err.txt")"
  [ ! -e "$marker" ] || fail "$1: the job's command ran"
}
tune_args=(--only read_ahead_kb --max-trials 2 --duration 0.3 --repeats 2 --max-repeats 2 --noise-repeats 1)

# 1. The 8191-byte trick: one harmless line to a whole-line check, an exec_prerun to fio.
{ printf '[j]\nrw=read\ndescription=%s' "$(head -c 8179 /dev/zero | tr '\0' x)"; printf 'exec_prerun=%s\n' "$WORK/x.sh"; } >"$WORK/long.fio"
start=$(date +%s)
run_disktune bench "$dev" --objective "fio:$WORK/long.fio" --repeats 1 --duration 0.2
expect_refused "bench of a padded line" "bytes long, more than the 4096 a job line may hold"
run_disktune tune "$dev" --objective "fio:$WORK/long.fio" --journal "$WORK/j1" "${tune_args[@]}"
expect_refused "tune of a padded line" "bytes long, more than the 4096 a job line may hold"

# 3. Each refused option, and the includes that hung: refused before fio sees the file.
mkfifo "$WORK/fifo"
for line in "exec_prerun=$WORK/x.sh" "exec_postrun=$WORK/x.sh" "include $WORK/fifo" "include /dev/zero" \
  "write_iolog=$WORK/log" "filename=$WORK/disk.img" "ioengine=exec" "mem=mmapshared:$WORK/map"; do
  printf '[j]\nrw=read\n%s\n' "$line" >"$WORK/bad.fio"
  run_disktune bench "$dev" --objective "fio:$WORK/bad.fio" --repeats 1 --duration 0.2
  expect_refused "bench with '$line'" "fio job refused (line 3)"
done
for f in "$WORK/fifo" /dev/zero; do
  run_disktune tune "$dev" --objective "fio:$f" --journal "$WORK/j2" "${tune_args[@]}"
  expect_refused "tune of the job file $f" "not a regular file"
done
[ $(($(date +%s) - start)) -le 20 ] || fail "the refusals took more than 20 s"
[ ! -e "$WORK/log" ] && [ ! -e "$WORK/map" ] || fail "a refused job wrote a file"

# 2. The job file replaced once the first measuring fio runs: every fio runs the checked copy.
printf '[j]\nrw=read\nbs=64k\n' >"$WORK/swap.fio"
printf '[j]\nrw=read\nbs=64k\nexec_prerun=%s\n' "$WORK/x.sh" >"$WORK/evil.fio"
"$DISKTUNE" tune "$dev" --objective "fio:$WORK/swap.fio" --journal "$WORK/j3" --report "$WORK/r3.json" \
  "${tune_args[@]}" >"$WORK/out3.txt" 2>"$WORK/err3.txt" &
pid=$!
cleanup_steps+=("kill -9 $pid 2>/dev/null")
swapped=0
for _ in $(seq 400); do
  # fio reads the descriptor disktune holds (/proc/self/fd/N), never the device's name.
  if pgrep -f -- "--filename=/proc/self/fd/" >/dev/null; then cp "$WORK/evil.fio" "$WORK/swap.fio"; swapped=1; break; fi
  sleep 0.025
done
rc=0
wait "$pid" || rc=$?
expect_eq "$swapped" 1 "the job file was replaced while fio measured"
# 0, or 6 when the page-cached image reads too noisily for an answer: either way it measured.
[ "$rc" -eq 0 ] || [ "$rc" -eq 6 ] || fail "tune with its job file replaced: exit $rc ($(tail -3 "$WORK/err3.txt"))"
[ ! -e "$marker" ] || fail "the replaced job file's exec_prerun ran"
grep -q 'exec_prerun' "$WORK/r3.json" && fail "the report holds the replacement's option"

expect_eq "$(md5sum <"$WORK/disk.img")" "$sum_before" "image unchanged (only read)"
echo "fio_job_smuggle: ok"
