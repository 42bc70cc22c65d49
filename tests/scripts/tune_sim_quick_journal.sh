#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# racing's quick trials are journaled as quick: every quick intent gets a quick result (a resume
# must not take a minimum-samples result for a full one, nor run a finished quick trial again).
source "$(dirname "$0")/lib.bash"

"$DISKTUNE" tune sim: --strategy racing --max-trials 30 --journal "$WORK/j" --report "$WORK/r.json" \
  >/dev/null 2>"$WORK/err" || fail "racing tune exited $? ($(tail -1 "$WORK/err"))"
records() { sed 's/^[^{]*//' "$WORK/j" | jq -c "select(.type == \"$1\" and .quick == true)" | wc -l; }
intents=$(records intent)
[ "$intents" -gt 0 ] || fail "racing journaled no quick trial"
expect_eq "$(records result)" "$intents" "quick results for $intents quick intents"
