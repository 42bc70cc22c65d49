# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the tests where another process changes a setting during a tune (sourced after lib.bash).

# start_tune_beside: attach a 64 MiB loop device of random data (`dev`, its queue directory
# `q`, the queue_snapshot `before`, its read_ahead_kb `original` and another value `other`)
# and start a bounded tune of nr_requests on it in the background (pid `tune`; its output in
# $WORK/out.txt and $WORK/err.txt, its report in $WORK/r.json): two trials of a warm-up and
# two 0.5 s samples each.
start_tune_beside() {
  attach_random_loop 64
  q=/sys/block/$(basename "$dev")/queue
  before=$(queue_snapshot "$dev")
  original=$(cat "$q/read_ahead_kb")
  other=$((original == 512 ? 1024 : 512))
  "$DISKTUNE" tune "$dev" --only nr_requests --max-trials 2 --duration 0.5 --repeats 2 --max-repeats 2 \
    --report "$WORK/r.json" --journal "$WORK/j" >"$WORK/out.txt" 2>"$WORK/err.txt" &
  tune=$!
  cleanup_steps+=("kill -9 $tune 2>/dev/null")
}

# wait_log TEXT: wait (at most 30 s) until the tune's stderr has TEXT; fail otherwise.
wait_log() {
  for _ in $(seq 3000); do grep -qs "$1" "$WORK/err.txt" && return 0; sleep 0.01; done
  fail "the run never printed '$1' ($(tail -3 "$WORK/err.txt"))"
}
