# SPDX-License-Identifier: GPL-2.0-or-later
# Checks on a guest tune run (guest/tune.sh outputs) shared by the lab tune tests (sourced).

BLOCK_SETTINGS='"readahead", "read_ahead_kb", "scheduler", "nr_requests", "max_sectors_kb", "nomerges", "rq_affinity",
  "queue_depth", "fifo_batch", "read_expire", "low_latency", "slice_idle", "read_lat_nsec"'

# tuned REPORT SETTING: a trial with status ok ran SETTING at a value other than the baseline's.
tuned() {
  jq -e --arg s "$2" '.baseline.settings[$s] as $b | any(.trials[]; .status == "ok" and .settings[$s] != $b)' "$1" >/dev/null
}
# unsupported_because REPORT SETTING REGEX: space.unsupported names SETTING with a reason matching REGEX.
unsupported_because() {
  jq -e --arg s "$2" --arg re "$3" 'any(.space.unsupported[]; .setting == $s and (.reason | test($re; "i")))' "$1" >/dev/null ||
    { echo "  unsupported: $(jq -c --arg s "$2" '[.space.unsupported[] | select(.setting == $s)]' "$1")" >&2; return 1; }
}
# ata_changes_in_ok_trials REPORT: the non-block settings that ok trials changed from the baseline.
ata_changes_in_ok_trials() {
  jq -c '.baseline.settings as $b | [.trials[] | select(.status == "ok") | .settings | to_entries[]
    | select(.value != $b[.key]) | .key | select(IN('"$BLOCK_SETTINGS"') | not)] | unique' "$1"
}
# scheduler_trials_ran REPORT: scheduler tuned, and no trial of another scheduler was refused.
scheduler_trials_ran() {
  tuned "$1" scheduler && jq -e '.baseline.settings.scheduler as $b
    | [.trials[] | select(.settings.scheduler != $b and .status == "unsupported")] | length == 0' "$1" >/dev/null
}
# depth_ladder REPORT: queue_depth's searched values, as a JSON array ([] when not searched).
depth_ladder() { jq -c '[.space.dimensions[] | select(.setting == "queue_depth") | .values[]]' "$1"; }
tuned_or_unsupported() { tuned "$1" "$2" || unsupported_because "$1" "$2" '.'; }

# common_tune_checks DISK: exit 0, restored, settings and data as before, the disk still reads.
common_tune_checks() {
  local d=$1
  # 6 (too noisy for an answer: TCG timings on a loaded host) completes a run as 0 does.
  check "$d: tune exit 0 or 6" same rc "$(sed 's/^6$/0/' "$OUT/tune-$d.rc")" 0
  check "$d: report says restored" same restored "$(jq -r .restored "$OUT/report-$d.json")" true
  check "$d: every setting (hdparm, sysfs) as before the run" \
    same settings "$(diff "$OUT/before-$d.txt" "$OUT/after-$d.txt")" ""
  check "$d: reads work after the run" same read "$(cat "$OUT/read-after-$d.rc")" 0
  check "$d: data as before" same sum "$(cat "$OUT/sum-after-$d")" "$(cat "$OUT/sum-before-$d")"
  check "$d: report is of the live device" same live "$(jq -c '[.device.simulated, .device.model]' "$OUT/report-$d.json")" \
    '[false,"QEMU HARDDISK"]'
}
