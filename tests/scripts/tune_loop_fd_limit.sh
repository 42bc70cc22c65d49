#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A low open-file limit is dealt with before anything is opened. It used to fail in the
# baseline saying "could not restore" (exit 3) with nothing changed, and `restore` exited 4.
# A soft limit of 8 is raised (to the hard limit): the tune measures and restores as usual. A
# hard limit of 8 that cannot be raised: exit 2 naming the limit, nothing changed.
source "$(dirname "$0")/lib.bash"
attach_random_loop 32
before=$(queue_snapshot "$dev")
tune=(tune "$dev" --only read_ahead_kb --max-trials 1 --duration 0.2 --repeats 2 --max-repeats 2 --noise-repeats 1
  --journal "$WORK/j")
code=0
(ulimit -Sn 8 && exec timeout 120 "$DISKTUNE" "${tune[@]}" >"$WORK/out" 2>"$WORK/err") || code=$?
[ "$code" -eq 0 ] || [ "$code" -eq 6 ] || fail "tune under ulimit -Sn 8 exited $code ($(tail -3 "$WORK/err"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the tune"

for command in "${tune[*]}" "restore $dev --journal $WORK/j"; do
  code=0
  # shellcheck disable=SC2086  # the command's words
  (ulimit -n 8 && exec timeout 30 "$DISKTUNE" $command >"$WORK/out" 2>"$WORK/err") || code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 6 ]; then  # 0 or 6 where root may raise the hard limit
    expect_eq "$code" 2 "${command%% *} under ulimit -n 8 ($(cat "$WORK/err"))"
    grep -q "the open-file limit is 8 (hard 8): disktune needs 64 .*; nothing was changed" "$WORK/err" ||
      fail "${command%% *} under ulimit -n 8 said: $(cat "$WORK/err")"
  fi
  grep -q "could not restore" "$WORK/err" && fail "${command%% *} under ulimit -n 8 said: $(cat "$WORK/err")"
  expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after ${command%% *} under ulimit -n 8"
done
echo "ok: a low open-file limit raised, or refused before anything changed"
