#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Ansible role (scripts/ansible) on localhost, connection local, against
# an IOPS-capped loop device: play 1 installs the binary, tunes, fetches the report, installs
# the answer under $WORK/root and applies it (changed); play 2 with the same inputs changes
# nothing and does not tune; play 3 after a drift applies again without tuning; play 4 with
# disktune_retune tunes again. The machine's /etc is
# never written; the loop device's queue settings are as found at the end.
source "$(dirname "$0")/lib.bash"

command -v ansible-playbook >/dev/null || skip "ansible-playbook not installed (scripts/setup installs ansible-core)"
require_loop
ansible_dir=$(cd "$(dirname "$0")/../../scripts/ansible" && pwd)
# written_outside: the machine's files naming this test's directory where install writes (the
# report and rule name the backing file, the unit and hook the binary): none may exist. Other
# tests may make and remove /etc/disktune meanwhile, so its mere presence proves nothing.
written_outside() {
  grep -rlsF "$WORK" /etc/disktune /etc/udev/rules.d /etc/systemd/system /usr/lib/systemd/system-sleep \
    /etc/hdparm.conf /etc/tuned || true
}
attach_iops_capped_loop 64
name=$(basename "$dev")
export ANSIBLE_HOME=$WORK/ansible-home ANSIBLE_LOCAL_TEMP=$WORK/ansible-tmp ANSIBLE_REMOTE_TEMP=$WORK/ansible-tmp
export ANSIBLE_ASYNC_DIR=$WORK/async ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_ROLES_PATH=$ansible_dir/roles
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
# The examples: site.yml parses with ansible.cfg and inventory.ini, whose hosts each list drives.
(cd "$ansible_dir" && ANSIBLE_CONFIG=$ansible_dir/ansible.cfg ansible-playbook --syntax-check site.yml) >"$WORK/syntax.out" 2>&1 ||
  fail "site.yml: $(cat "$WORK/syntax.out")"
for host in $(ansible-inventory -i "$ansible_dir/inventory.ini" --list | jq -r '.disks.hosts[]'); do
  expect_eq "$(ansible-inventory -i "$ansible_dir/inventory.ini" --host "$host" | jq -r '.disktune_devices | type')" \
    array "disktune_devices of $host in inventory.ini"
done
mkdir "$WORK/root"  # install --root names an existing directory (a system image)
printf '[disks]\nlocalhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' >"$WORK/inventory.ini"
# The tune of tune_capped_winner, which finds a winner other than the baseline on this device.
jq -n --arg w "$WORK" --arg b "$DISKTUNE" --arg d "$dev" '{
  ansible_become: false, disktune_binary: $b, disktune_path: "\($w)/sbin/disktune",
  disktune_devices: [$d], disktune_report_dir: "\($w)/reports", disktune_journal_dir: "\($w)/journals",
  disktune_fetch_dest: "\($w)/fetched", disktune_install_root: "\($w)/root", disktune_poll: 1,
  disktune_tune_args: ["--only", "max_sectors_kb", "--duration", "0.1", "--repeats", 2, "--max-repeats", 3,
                       "--noise-repeats", 1]}' >"$WORK/vars.json"
cleanup_steps+=("'$DISKTUNE' restore '$dev' --journal '$WORK/journals/$name.apply.journal' >/dev/null 2>&1")

# play N [EXTRA-VARS-JSON]: run site.yml; its output in $WORK/playN.out; fails unless it succeeded.
play() {
  local out=$WORK/play$1.out code=0 start=$SECONDS
  ansible-playbook -i "$WORK/inventory.ini" "$ansible_dir/site.yml" -e "@$WORK/vars.json" -e "${2:-{\}}" \
    >"$out" 2>&1 || code=$?
  [ "$code" = 0 ] || fail "play $1 exited $code: $(grep -A3 -E '^(fatal|ERROR)' "$out" | head -12)"
  times+=" play $1 $((SECONDS - start)) s;"
}
# changed N: how many tasks play N reported changed (its PLAY RECAP line).
changed() { sed -n 's/^localhost *: .* changed=\([0-9]*\) .*/\1/p' "$WORK/play$1.out"; }
# task_state N NAME-SUFFIX: the first word of the result (ok, changed, skipping) of play N's
# task whose name ends with NAME-SUFFIX.
task_state() {
  awk -v s="$2] " 'index($0, "TASK [") == 1 { on = index($0, s) > 0; next } on && NF && $1 != "ASYNC" { print $1; exit }' \
    "$WORK/play$1.out" | tr -d :
}

report=$WORK/reports/$name.json
play 1
[ "$(changed 1)" -gt 0 ] || fail "play 1 changed nothing"
expect_eq "$(task_state 1 ": tune")" changed "play 1's tune"
cmp -s "$report" "$WORK/fetched/localhost/$name.json" || fail "the report was not fetched to the controller"
winner=$(jq -r '.winner.changes.max_sectors_kb // empty' "$report")
[ -n "$winner" ] || fail "the tune found no winner: $(jq -c .winner "$report")"
for f in etc/disktune/loop*.json etc/udev/rules.d/69-disktune-loop*.rules etc/systemd/system/disktune-apply.service \
  usr/lib/systemd/system-sleep/disktune; do
  compgen -G "$WORK/root/$f" >/dev/null || fail "not installed: $f ($(find "$WORK/root" -type f))"
done
grep -qF "$WORK/sbin/disktune apply" "$WORK/root/etc/systemd/system/disktune-apply.service" ||
  fail "the unit does not run the installed binary: $(grep Exec "$WORK/root/etc/systemd/system/disktune-apply.service")"
expect_eq "$(cat "$q/max_sectors_kb")" "$winner" "max_sectors_kb after play 1's apply"
"$DISKTUNE" verify "$report" >/dev/null || fail "verify after play 1 exited $?"

stamp=$(stat -c %Y.%s "$report")
journal_stamp=$(stat -c %Y.%s "$WORK/journals/$name.journal")
sleep 1
play 2
expect_eq "$(changed 2)" 0 "tasks play 2 (same inputs) reported changed"
expect_eq "$(task_state 2 ": tune")" skipping "play 2's tune"
expect_eq "$(stat -c %Y.%s "$report")" "$stamp" "the report after play 2"
expect_eq "$(stat -c %Y.%s "$WORK/journals/$name.journal")" "$journal_stamp" "the journal after play 2"

# The answer drifts: play 3 (same inputs) puts it back, without tuning.
echo 128 >"$q/max_sectors_kb"
play 3
expect_eq "$(task_state 3 ": tune")" skipping "the tune of play 3 (a drift)"
expect_eq "$(task_state 3 ": apply the drifted answer")" changed "the apply of play 3"
expect_eq "$(cat "$q/max_sectors_kb")" "$winner" "max_sectors_kb after play 3"

play 4 '{"disktune_retune": true}'
[ "$(changed 4)" -gt 0 ] || fail "play 4 (disktune_retune) changed nothing"
expect_eq "$(task_state 4 ": tune")" changed "play 4's tune"
[ "$(stat -c %Y.%s "$report")" != "$stamp" ] || fail "play 4 wrote no new report"
unthrottle

"$DISKTUNE" restore "$dev" --journal "$WORK/journals/$name.apply.journal" >"$WORK/restore.out" 2>&1 ||
  fail "restore exited $? ($(cat "$WORK/restore.out"))"
expect_eq "$(queue_snapshot "$dev")" "$before" "queue settings after the restore"
expect_eq "$(written_outside)" "" "files the role wrote outside the test's root"
echo "ok: tuned (max_sectors_kb $winner), fetched, installed, applied; play 2 changed $(changed 2), play 4 changed $(changed 4) (${SECONDS} s:$times)"
