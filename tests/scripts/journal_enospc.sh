#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A full journal disk loses nothing but the journal's own records: ENOSPC injected (strace) on
# each record a tune writes after its start record (the baseline's result, each trial's
# intent and result, the confirmation round's intent and result, the end record) ends the run
# with exit 3, the table on stdout and the report with completed false naming the failed write.
# Each such journal is whole up to the failure, and a tune resumes from it to an answer.
source "$(dirname "$0")/lib.bash"
command -v strace >/dev/null || skip "strace not installed"
command -v jq >/dev/null || skip "jq not installed"
tune=(tune sim: --max-trials 3 --report "$WORK/r.json")
"$DISKTUNE" "${tune[@]}" --journal "$WORK/full" >/dev/null 2>&1 || fail "the reference tune exited $?"
records=$(wc -l <"$WORK/full")
[ "$records" -ge 8 ] || fail "the reference journal holds $records records"
for k in $(seq 2 "$records"); do
  rm -f "$WORK/j" "$WORK/r.json"
  code=0
  strace -f -o /dev/null -P "$WORK/j" -e trace=write -e inject=write:error=ENOSPC:when="$k" \
    "$DISKTUNE" "${tune[@]}" --journal "$WORK/j" >"$WORK/out" 2>"$WORK/err" || code=$?
  what="ENOSPC on record $k ($(sed -n "${k}p" "$WORK/full" | grep -o '"type":"[a-z_]*"'))"
  expect_eq "$code" 3 "$what: exit code ($(tail -2 "$WORK/err"))"
  grep -q "^run stopped before it completed (.*No space left on device)" "$WORK/out" || fail "$what: table: $(cat "$WORK/out")"
  [ -s "$WORK/r.json" ] || fail "$what: no report"
  jq -e '.completed == false and (.stop_reason | contains("No space left on device")) and .restored' "$WORK/r.json" \
    >/dev/null || fail "$what: report: $(jq -c '{completed, stop_reason, restored}' "$WORK/r.json")"
  expect_eq "$(wc -l <"$WORK/j")" $((k - 1)) "$what: records kept"
done
# The journal of a failed trial record resumes to an answer.
rm -f "$WORK/j"
strace -f -o /dev/null -P "$WORK/j" -e trace=write -e inject=write:error=ENOSPC:when=4 \
  "$DISKTUNE" "${tune[@]}" --journal "$WORK/j" >/dev/null 2>&1 || true
"$DISKTUNE" "${tune[@]}" --journal "$WORK/j" >"$WORK/out" 2>"$WORK/err" || fail "the resumed tune exited $? ($(tail -2 "$WORK/err"))"
grep -q "resum" "$WORK/err" || fail "the second tune did not resume: $(cat "$WORK/err")"
echo "ok: ENOSPC on each of records 2-$records keeps the table and the report"
