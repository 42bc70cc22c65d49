#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/stock-policies judges disktune against a policy by the winner rule: intervals apart
# and a median gain above the tune's gain threshold (2 % here), so a 0.2 % lead with intervals
# apart is a tie. Runs the script's own compare function on figures; measures nothing.
source "$(dirname "$0")/lib.bash"
root=$(cd "$(dirname "$0")/../.." && pwd)
definition=$(sed -n '/^compare() {/,/^}/p' "$root/scripts/stock-policies")
[ -n "$definition" ] || fail "scripts/stock-policies has no compare function"
eval "$definition"
gain_pct=2
# verdict OURS THEIRS WANT: "MEDIAN LOW HIGH DIRECTION" figures, disktune's first.
verdict() { local got; got=$(compare "$1" "$2"); [ "$got" = "$3" ] || fail "compare '$1' '$2': '$got', want '$3'"; }
verdict "100.2 100.15 100.25 higher" "100.0 99.95 100.05 higher" tied            # 0.2 %, intervals apart
verdict "100.0 99.95 100.05 higher" "100.2 100.15 100.25 higher" tied
verdict "105.0 104.0 106.0 higher" "100.0 99.0 101.0 higher" "disktune better"     # 5 %, apart
verdict "100.0 99.0 101.0 higher" "105.0 104.0 106.0 higher" "disktune worse"
verdict "105.0 99.0 106.0 higher" "100.0 98.0 101.0 higher" tied                # 5 %, intervals overlap
verdict "99.8 99.75 99.85 lower" "100.0 99.95 100.05 lower" tied                # a latency 0.2 % lower
verdict "95.0 94.0 96.0 lower" "100.0 99.0 101.0 lower" "disktune better"        # a latency 5 % lower
gain_pct=10
verdict "105.0 104.0 106.0 higher" "100.0 99.0 101.0 higher" tied               # the noise floor 10 %: 5 % is no gain
echo "ok: stock-policies' verdicts follow the winner rule"
