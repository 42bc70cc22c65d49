#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Stopping does not wait for a long trial: SIGTERM ends the running trial
# after the 10 s grace, SIGINT twice at once; exit 1, settings restored (and journaled as
# restored), report written.
# On the simulated drive and on a throttled loop device.
source "$(dirname "$0")/lib.bash"

# run_and_stop NAME SIGNALS... -- ARGS: start a tune, wait for its first trial, send the
# signals (0.3 s apart), set `took` to the seconds from the first signal to its exit.
run_and_stop() {
  local name=$1 start pid
  shift
  local signals=()
  while [ "$1" != -- ]; do signals+=("$1"); shift; done
  shift
  "$DISKTUNE" tune "$@" --report "$WORK/r-$name.json" --journal "$WORK/j-$name" >/dev/null 2>"$WORK/err-$name" &
  pid=$!
  for _ in $(seq 300); do grep -q "disktune: tuning" "$WORK/err-$name" 2>/dev/null && break; sleep 0.1; done
  grep -q "disktune: tuning" "$WORK/err-$name" || fail "$name: not started after 30 s ($(tail -2 "$WORK/err-$name"))"
  sleep 1  # inside the baseline's first trial now: it takes minutes
  start=$(date +%s.%N)
  for signal in "${signals[@]}"; do kill -s "$signal" "$pid"; sleep 0.3; done
  set +e; wait "$pid"; code=$?; set -e
  took=$(echo "$(date +%s.%N) - $start" | bc)
  expect_eq "$code" 1 "$name: exit code"
  expect_eq "$(jq -r .restored "$WORK/r-$name.json")" true "$name: restored"
  jq -r .stop_reason "$WORK/r-$name.json" | grep -q "stopped by signal" || fail "$name: stop_reason $(jq -r .stop_reason "$WORK/r-$name.json")"
  # The journal stays unfinished (to resume) and records the restore: no command owes one.
  journal_records "$WORK/j-$name" | tail -1 | jq -e '.type == "restore"' >/dev/null ||
    fail "$name: the journal's last record is not the restore: $(journal_records "$WORK/j-$name" | tail -1)"
  # The last line says how to go on: the same command resumes the journal kept, --fresh starts over.
  tail -1 "$WORK/err-$name" | grep -qF "disktune: journal $WORK/j-$name kept: the next '$DISKTUNE tune $* --report $WORK/r-$name.json --journal $WORK/j-$name' resumes this run" ||
    fail "$name: the last line does not say how to resume: $(tail -1 "$WORK/err-$name")"
  tail -1 "$WORK/err-$name" | grep -qF -- "'$DISKTUNE tune --fresh $* --report" || fail "$name: the last line does not name --fresh"
}

# Simulated: a 3000 s (virtual) sample takes far longer than the 10 s grace in real time.
run_and_stop sim-term TERM -- sim: --duration 3000
[ "$(echo "$took < 16" | bc)" = 1 ] || fail "sim: SIGTERM took $took s (grace 10 s)"
[ "$(echo "$took > 8" | bc)" = 1 ] || fail "sim: SIGTERM ended the trial before the grace ($took s)"
run_and_stop sim-int2 INT INT -- sim: --duration 3000
[ "$(echo "$took < 4" | bc)" = 1 ] || fail "sim: SIGINT twice took $took s"

require_loop
head -c 33554432 /dev/urandom >"$WORK/disk.img"
attach_loop "$WORK/disk.img"
before=$(queue_snapshot "$dev")
bytes_before=$(device_read_bytes "$dev")
throttle_loop "$dev" 4194304  # 4 MiB/s: a 60 s sample would read 240 MiB; stopped after a few
run_and_stop loop-term TERM -- "$dev" --duration 60 --repeats 1 --max-repeats 1 --noise-repeats 1
[ "$(echo "$took < 16" | bc)" = 1 ] || fail "loop: SIGTERM took $took s (grace 10 s)"
expect_eq "$(queue_snapshot "$dev")" "$before" "loop: queue settings after SIGTERM"
run_and_stop loop-int2 INT INT -- "$dev" --duration 60 --repeats 1 --max-repeats 1 --noise-repeats 1
[ "$(echo "$took < 5" | bc)" = 1 ] || fail "loop: SIGINT twice took $took s"
expect_eq "$(queue_snapshot "$dev")" "$before" "loop: queue settings after SIGINT twice"
# SIGQUIT (Ctrl-\) and SIGUSR1 would kill the process by default: stop requests too.
run_and_stop loop-quit QUIT USR1 -- "$dev" --duration 60 --repeats 1 --max-repeats 1 --noise-repeats 1
[ "$(echo "$took < 5" | bc)" = 1 ] || fail "loop: SIGQUIT then SIGUSR1 took $took s"
expect_eq "$(queue_snapshot "$dev")" "$before" "loop: queue settings after SIGQUIT and SIGUSR1"
bytes=$(($(device_read_bytes "$dev") - bytes_before))
[ "$bytes" -lt $((160 << 20)) ] || fail "read $bytes bytes"
echo ok
