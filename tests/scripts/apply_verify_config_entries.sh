#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# verify --config and apply --config account for every *.json of the directory: a FIFO, a
# link to /dev/zero, a directory, a dangling link and a torn report are each named on stderr
# with the reason, the exit is 2, and the readable report is still checked (applied); no entry
# is opened that could block, so both return within seconds. Before, such entries were skipped
# without a word and a monitoring check covered fewer drives than were installed.
source "$(dirname "$0")/lib.bash"

require_loop
attach_readahead_loop 16
conf=$WORK/conf
mkdir -p "$conf/x.json"
loop_report "$dev" "$WORK/disk.img" "{\"read_ahead_kb\": $ra}" >"$conf/a.json"
mkfifo "$conf/fifo.json"
ln -s /dev/zero "$conf/zero.json"
ln -s "$WORK/nowhere" "$conf/dangling.json"
echo '{"schema_version": 3,' >"$conf/torn.json"
apply_journal=$WORK/apply.journal

run() {  # run ARGS...: disktune ARGS within 20 s; exit code in `code`, output in $WORK/out and err
  code=0
  timeout 20 "$DISKTUNE" "$@" >"$WORK/out" 2>"$WORK/err" || code=$?
  [ "$code" != 124 ] || fail "disktune $* did not return within 20 s"
}
named() {  # named WHAT: each bad entry is named in $WORK/err with its reason
  local entry
  for entry in "fifo.json: is a FIFO (named pipe), not a regular file" \
    "zero.json: is a character device, not a regular file (a symbolic link to /dev/zero)" \
    "x.json: is a directory, not a regular file" \
    "dangling.json: No such file or directory (a symbolic link to $WORK/nowhere)" \
    "torn.json: not JSON"; do
    grep -qF "$conf/$entry" "$WORK/err" || fail "$1 does not name $conf/${entry%%:*} with its reason: $(cat "$WORK/err")"
  done
}

run apply --config "$conf" --journal "$apply_journal"
cleanup_steps+=("'$DISKTUNE' restore '$dev' --journal '$apply_journal' >/dev/null 2>&1")
expect_eq "$code" 2 "apply --config with unreadable entries ($(cat "$WORK/err"))"
named "apply --config"
expect_eq "$(cat "$q/read_ahead_kb")" "$ra" "read_ahead_kb after apply --config (a.json still applied)"

run verify --config "$conf"
expect_eq "$code" 2 "verify --config with unreadable entries ($(cat "$WORK/err"))"
named "verify --config"
grep -qF "$conf/a.json: $dev: ok" "$WORK/out" || fail "verify --config did not check a.json: $(cat "$WORK/out")"
run verify --config "$conf" --json
expect_eq "$code" 2 "verify --config --json with unreadable entries"
expect_eq "$(jq -r '[.status, (.drives | length), .drives[0].status, (.unread | length)] | join(" ")' "$WORK/out")" \
  "unread 1 ok 5" "verify --config --json: status, drives checked, their status, entries unread"

# Only the readable report left: exit 0, nothing named.
rm -r "$conf/x.json" "$conf/fifo.json" "$conf/zero.json" "$conf/dangling.json" "$conf/torn.json"
run verify --config "$conf"
expect_eq "$code" 0 "verify --config with every entry readable ($(cat "$WORK/err"))"
[ ! -s "$WORK/err" ] || fail "verify --config with every entry readable said: $(cat "$WORK/err")"
echo "ok: five unreadable entries named, exit 2, the readable one checked (${SECONDS} s)"
