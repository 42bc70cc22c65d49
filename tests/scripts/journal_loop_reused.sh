#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A loop number re-attached to another file of the same size is another drive: a tune killed on
# file A leaves A's originals in the journal; with the loop device now over file C, neither
# `tune` nor `restore` (not even with --force) puts A's values on C, and C keeps its settings.
source "$(dirname "$0")/lib.bash"
require_loop
head -c 33554432 /dev/urandom >"$WORK/a.img"
cp "$WORK/a.img" "$WORK/c.img"  # same size, same bytes: only the backing file tells them apart
attach_loop "$WORK/a.img"
q=/sys/block/$(basename "$dev")/queue
echo 4096 >"$q/read_ahead_kb"
"$DISKTUNE" tune "$dev" --only read_ahead_kb --duration 2 --journal "$WORK/j" >"$WORK/out1" 2>&1 &
pid=$!
cleanup_steps+=("kill -9 $pid 2>/dev/null")
for _ in $(seq 200); do grep -q '"type":"start"' "$WORK/j" 2>/dev/null && break; sleep 0.05; done
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
grep -q '"type":"start"' "$WORK/j" || fail "the killed tune left no journal: $(cat "$WORK/out1")"
for _ in $(seq 100); do losetup -d "$dev" 2>/dev/null && break; sleep 0.05; done  # its trial child may still hold it
losetup "$dev" "$WORK/c.img" || skip "could not re-attach $dev"
echo 256 >"$q/read_ahead_kb"

for command in "restore $dev --journal $WORK/j --force" "tune $dev --only read_ahead_kb --max-trials 1 --journal $WORK/j"; do
  code=0
  # shellcheck disable=SC2086  # the command's words
  timeout 60 "$DISKTUNE" $command >"$WORK/out" 2>&1 || code=$?
  expect_eq "$code" 2 "${command%% *} over another backing file ($(cat "$WORK/out"))"
  grep -q "belongs to another drive: backing file '$WORK/a.img' (journal) vs '$WORK/c.img' (now)" "$WORK/out" ||
    fail "${command%% *} does not name the backing files: $(cat "$WORK/out")"
  expect_eq "$(cat "$q/read_ahead_kb")" 256 "C's read_ahead_kb after ${command%% *}"
done

# refused_after REPLACE JOURNAL VALUE WHAT: detach, REPLACE a.img (a shell command), re-attach, set
# read_ahead_kb VALUE; `restore --force` from JOURNAL is refused naming the inode, VALUE kept.
refused_after() {
  local code=0
  for _ in $(seq 100); do losetup -d "$dev" 2>/dev/null && break; sleep 0.05; done
  eval "$1"
  losetup "$dev" "$WORK/a.img" || skip "could not re-attach $dev"
  echo "$3" >"$q/read_ahead_kb"
  timeout 60 "$DISKTUNE" restore "$dev" --journal "$2" --force >"$WORK/out" 2>&1 || code=$?
  expect_eq "$code" 2 "restore over a file $4 ($(cat "$WORK/out"))"
  grep -q "belongs to another drive: backing file inode (replaced at the same path)" "$WORK/out" ||
    fail "restore does not name the file $4: $(cat "$WORK/out")"
  expect_eq "$(cat "$q/read_ahead_kb")" "$3" "read_ahead_kb of the file $4 after restore"
}
# File A replaced at its own path (a new inode, same name): backing_file reads the same, the
# inode the loop device holds does not.
refused_after 'cp "$WORK/c.img" "$WORK/a.new" && mv "$WORK/a.new" "$WORK/a.img"' "$WORK/j" 512 "replaced at the same path"

# File A deleted and made again: the file system may give it the freed inode number back
# (ext4 does); its birth time still tells the files apart.
"$DISKTUNE" tune "$dev" --only read_ahead_kb --duration 2 --journal "$WORK/j2" >"$WORK/out2" 2>&1 &
pid=$!
for _ in $(seq 200); do grep -q '"type":"start"' "$WORK/j2" 2>/dev/null && break; sleep 0.05; done
kill -9 "$pid"; wait "$pid" 2>/dev/null || true
inode_before=$(stat -c %i "$WORK/a.img")
refused_after 'rm "$WORK/a.img" && cp "$WORK/c.img" "$WORK/a.img"' "$WORK/j2" 768 "made again at the same path"
[ "$(stat -c %i "$WORK/a.img")" = "$inode_before" ] && echo "note: the inode number was reused: told apart by the birth time"
echo "ok: a re-attached loop number keeps its own settings"
