#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Another process changes read_ahead_kb while the baseline is measured (0.3 s after the run
# announces itself; the first baseline child alone measures for about 5.5 s). The run cannot
# trust its baseline: it stops with exit 1 (README "Exit codes"), names the setting with its
# recorded and its new value and says what to do, never "Input/output error" (which it said
# before, with exit 3); the original settings are restored and the report written.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/behind.bash"

start_tune_beside
wait_log 'disktune: tuning'
sleep 0.3
echo "$other" >"$q/read_ahead_kb"
code=0
wait "$tune" || code=$?
last=$(grep '^disktune: ' "$WORK/err.txt" | tail -1)
expect_eq "$code" 1 "exit code ($last)"
grep -q 'Input/output error' "$WORK/err.txt" && fail "an I/O error is blamed: $last"
for part in "another process changed a setting" "read_ahead_kb" "$original" "$other" "run disktune tune again"; do
  [[ "$last" == *"$part"* ]] || fail "the message does not say '$part': $last"
done
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the run (the original read_ahead_kb restored)"
expect_eq "$(jq -r '.restored' "$WORK/r.json")" true "report: restored"
expect_eq "$(jq -r '.completed' "$WORK/r.json")" false "report: completed"
echo "ok: $last"
