# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the lab tests (sourced): boot the ATA lab guest, collect failed checks.
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.bash"

LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ATA_LAB="$LAB_DIR/../../scripts/ata-lab"
OUT="$WORK/out"
failures=()

# run_lab ARGS...: boot the guest with ARGS (--run/--script, --pio, ...); results land in $OUT.
# Skips (77) when the lab cannot run here; fails when the guest did not finish.
run_lab() {
  local status=0 t0=$SECONDS
  "$ATA_LAB" --disktune "$DISKTUNE" --out "$OUT" "$@" || status=$?
  local took=$((SECONDS - t0)) limit
  limit=$(lab_timeout "$@")
  echo "lab: guest run took $took s of its ${limit} s limit (boot $(cat "$OUT/boot-seconds" 2>/dev/null || echo ?) s in the guest)"
  # Lab tests keep at least a 2x margin under their limits (a loaded host slows TCG).
  ((took * 2 <= limit)) || echo "lab: WARNING: less than a 2x margin under the ${limit} s limit: raise --timeout or bound the run" >&2
  case $status in
    0) ;;
    77) skip "ATA lab unavailable (see above)" ;;
    1) fail "guest commands failed (exit $(cat "$OUT/exit-code"))" ;;
    *) fail "scripts/ata-lab exited $status" ;;
  esac
}

# lab_timeout ARGS...: the --timeout among scripts/ata-lab's arguments (its default: 300).
lab_timeout() {
  local t=300
  while (($#)); do [ "$1" = --timeout ] && t=$2; shift; done
  echo "$t"
}

# check CONDITION_DESCRIPTION COMMAND...: run COMMAND; record a failure instead of stopping.
check() {
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures+=("$what"); fi
}

# same WHAT ACTUAL EXPECTED
same() { [ "$2" = "$3" ] || { echo "  got '$2', expected '$3'" >&2; return 1; }; }

# finish: exit 1 listing every failed check, 0 when none failed.
finish() {
  ((${#failures[@]} == 0)) && { echo "all checks passed"; exit 0; }
  printf 'FAIL: %s\n' "${failures[@]}" >&2
  exit 1
}
