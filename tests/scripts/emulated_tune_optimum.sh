#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Answers checked against measured optima on the EMULATED hdd (bounded): for
# a knob that acts there by far more than the noise (docs/emulated-disk.md "Which knobs
# act"), an exhaustive sweep gives the measured optimum, and a default tune started from a
# deliberately bad value ends within 5 % of it (or statistically tied with it); re-measured in a
# fresh process (`disktune bench` after `disktune apply`), the answer is never slower than the
# bad baseline. Two cells: seq-read from read_ahead_kb 0 (about 22 MB/s against 159), and
# rand-read-iops from nr_requests 4 (about 100 IOPS against 180). Bounded: one knob each,
# short samples; about 6 minutes.
source "$(dirname "$0")/lib.bash"
attach_emulated emu --profile hdd --capacity-gib 16

# bench_figure OBJECTIVE: the median of a fresh bench process's samples on $dev.
bench_figure() {
  local method=()
  [ "$1" != seq-read ] || method=(--method buffered)
  "$DISKTUNE" bench "$dev" --objective "$1" --duration 1 --repeats 3 "${method[@]}" --json |
    jq '.median // .buffered_read_mib_s'
}

# remeasured_within NAME OBJECTIVE KNOB BAD SWEEP ANSWER: the sweep's best is the largest of its
# noisy figures, biased up by their noise (a 177 among 163-170 on a loaded host failed this
# test once): its value and the answer's are benched again, each in fresh processes, in turns
# (best, answer, best, answer); true when the answer's median is within 5 % of the best's.
remeasured_within() {
  local best answer b=() a=() i
  best=$(jq -r "[.trials[] | select(.status == \"ok\")] | max_by(.figure.median) | .settings.$3" "$5")
  answer=$(jq -r ".winner.settings.$3" "$6")
  for i in 1 2; do
    echo "$best" >"$q/$3"; b+=("$(bench_figure "$2")")
    echo "$answer" >"$q/$3"; a+=("$(bench_figure "$2")")
  done
  echo "$4" >"$q/$3"
  echo "$1: re-measured in turns: the sweep's best $3=$best ${b[*]}, the answer $3=$answer ${a[*]}"
  awk -v b="${b[*]}" -v a="${a[*]}" 'BEGIN { split(b, x, " "); split(a, y, " ");
    exit !((y[1] + y[2]) / 2 >= 0.95 * (x[1] + x[2]) / 2) }'
}

# cell NAME OBJECTIVE KNOB BAD DURATION: from KNOB=BAD, exhaustive over KNOB alone, then a
# default tune, both with samples of DURATION s.
cell() {
  local name=$1 objective=$2 knob=$3 bad=$4 duration=$5 optimum optimum_low answer answer_high base after
  echo "$bad" >"$q/$knob"
  base=$(bench_figure "$objective")
  "$DISKTUNE" tune "$dev" --objective "$objective" --only "$knob" --strategy exhaustive --duration "$duration" \
    --max-repeats 3 --report "$WORK/$name-x.json" --journal "$WORK/$name-x.journal" >/dev/null 2>"$WORK/$name-x.err" ||
    { cat "$WORK/$name-x.err"; fail "$name: the exhaustive sweep failed"; }
  optimum=$(jq '[.trials[] | select(.status == "ok") | .figure] | max_by(.median) | .median' "$WORK/$name-x.json")
  optimum_low=$(jq '[.trials[] | select(.status == "ok") | .figure] | max_by(.median) | .ci_low' "$WORK/$name-x.json")
  expect_eq "$(cat "$q/$knob")" "$bad" "$name: $knob restored after the sweep"
  "$DISKTUNE" tune "$dev" --objective "$objective" --only "$knob" --duration "$duration" --max-repeats 3 \
    --report "$WORK/$name.json" --journal "$WORK/$name.journal" >/dev/null 2>"$WORK/$name.err" ||
    { cat "$WORK/$name.err"; fail "$name: the tune failed"; }
  answer=$(jq '.winner.figure.median' "$WORK/$name.json")
  answer_high=$(jq '.winner.figure.ci_high' "$WORK/$name.json")
  echo "$name: baseline $knob=$bad $base; exhaustive optimum $optimum ($(jq -c '[.trials[] | select(.status == "ok") | {(.settings.'"$knob"' | tostring): .figure.median}] | add' "$WORK/$name-x.json")); tune's answer $(jq -c .winner.changes "$WORK/$name.json") $answer"
  # Within 5 %, or tied: the answer's 95 % interval reaches the optimum's.
  awk -v a="$answer" -v o="$optimum" -v ah="$answer_high" -v ol="$optimum_low" 'BEGIN { exit !(a >= 0.95 * o || ah >= ol) }' ||
    remeasured_within "$name" "$objective" "$knob" "$bad" "$WORK/$name-x.json" "$WORK/$name.json" ||
    fail "$name: the tune's answer $answer (up to $answer_high) is more than 5 % below the measured optimum $optimum (from $optimum_low), not tied, also re-measured"
  # A fresh process: apply the answer, bench it, put the settings back.
  "$DISKTUNE" apply "$WORK/$name.json" --journal "$WORK/$name.apply" >/dev/null
  after=$(bench_figure "$objective")
  "$DISKTUNE" restore "$dev" --journal "$WORK/$name.apply" >/dev/null
  expect_eq "$(cat "$q/$knob")" "$bad" "$name: $knob after restore"
  echo "$name: re-measured in a fresh process: $after (bad baseline $base)"
  awk -v a="$after" -v b="$base" 'BEGIN { exit !(a >= b) }' || fail "$name: the answer re-measured ($after) is slower than the bad baseline ($base)"
}

cell seq-read seq-read read_ahead_kb 0 0.3
echo 128 >"$q/read_ahead_kb"
# 0.5 s of 4 KiB random reads is about 90 of them: shorter samples could not separate 64 from 4.
cell rand-read-iops rand-read-iops nr_requests 4 0.5
