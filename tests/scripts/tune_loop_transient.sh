#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Another process toggles read_ahead_kb (a setting the tune does not search: --only
# nr_requests) to another value and back within one sample's span, over and over, once the
# baseline is measured: 150 ms at the other value every 0.25 s. A trial reads for less than
# its 1.5 s of --duration: a sample ends after one pass over the 64 MiB device, so a trial
# here took 0.47 s in all and fit between two toggles 0.5 s apart (it measured ok). (50 ms
# windows were missed on a loaded CI host, where one read could stall longer than the window.) The read-backs before and after measuring meet
# the other value only by chance; the setting watch reads every setting back while the trial
# reads, so every trial is unstable naming read_ahead_kb, never ok. The device ends with the
# original settings.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/behind.bash"

start_tune_beside
wait_log 'noise between'
# The other process: toggles until the tune has ended, and always ends on the original.
(
  while kill -0 "$tune" 2>/dev/null; do
    echo "$other" >"$q/read_ahead_kb"
    date +%s.%N >>"$WORK/toggles"
    sleep 0.15
    echo "$original" >"$q/read_ahead_kb"
    sleep 0.1
  done
) &
toggler=$!
cleanup_steps+=("kill $toggler 2>/dev/null; echo $original >$q/read_ahead_kb")
tune_completed wait "$tune" || fail "tune did not complete ($(tail -5 "$WORK/err.txt"))"
wait "$toggler"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the run"

r="$WORK/r.json"
jq -e '.trials | length > 0' "$r" >/dev/null || fail "no trial ran"
jq -e 'all(.trials[]; .status == "unstable" and (.detail | contains("read_ahead_kb")))' "$r" >/dev/null ||
  fail "a trial measured while read_ahead_kb was toggled is not unstable naming it: $(jq -c '[.trials[] | {id, status, detail}]' "$r") (toggles at $(tr '\n' ' ' <"$WORK/toggles"); log: $(grep -E 'trial|noise' "$WORK/err.txt" | tr '\n' ' '))"
jq -r '.trials[] | "ok: trial \(.id): \(.detail)"' "$r"
