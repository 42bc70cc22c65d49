#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `plan` on SIMULATED drives from real captures: APM/AAM searched where IDENTIFY word 83 has
# bits 3/9 (spin-down levels pruned with the reason), unsupported with the reason where not.
source "$(dirname "$0")/lib.bash"

with="$TEST_DATA/identify/raw_words_libatasmart_fujitsu-mhy2120bh--0084000d.txt"
without="$TEST_DATA/identify/raw_words_libatasmart_intel-ssdsa2cw120g3--4pc10302.txt"
[ -r "$with" ] && [ -r "$without" ] || { echo "skip: corpus captures missing"; exit 77; }

"$DISKTUNE" plan "sim:$with" >"$WORK/with.txt" 2>"$WORK/err.txt" || fail "plan exited $? ($(tail -3 "$WORK/err.txt"))"
grep -Eq '^ *apm\b.*128.*192.*254.*255' "$WORK/with.txt" || fail "apm ladder missing: $(grep -n apm "$WORK/with.txt")"
grep -Eq '^ *aam\b.*128.*254' "$WORK/with.txt" || fail "aam ladder missing: $(grep -n aam "$WORK/with.txt")"
grep -q "127 x apm 1-127 permit spin-down" "$WORK/with.txt" || fail "spin-down pruning reason missing: $(grep -n spin "$WORK/with.txt")"

"$DISKTUNE" plan "sim:$without" >"$WORK/without.txt" 2>"$WORK/err.txt" || fail "plan exited $? ($(tail -3 "$WORK/err.txt"))"
grep -q "apm.*unsupported: IDENTIFY word 83 bit 3 clear" "$WORK/without.txt" || fail "apm not unsupported: $(grep -n apm "$WORK/without.txt")"
grep -q "aam.*unsupported: IDENTIFY word 83 bit 9 clear" "$WORK/without.txt" || fail "aam not unsupported: $(grep -n aam "$WORK/without.txt")"
echo ok
