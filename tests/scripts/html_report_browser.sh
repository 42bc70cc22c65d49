#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The HTML report in a real browser. Headless Chromium opens the page of a
# simulated tune, of a loop-device tune and of every report kind (schemas 1-3, keep-baseline,
# not completed, wedged, too noisy, two objectives: 2 kinds a page to keep the test short) through `disktune report`; each must log
# no console message at all, and its rendered DOM (after vega drew the SVG) must hold one
# point per trial in #trials-chart (and the Pareto chart for two objectives). The simulated
# tune's page is saved as a screenshot ($HTML_SCREENSHOT, e.g. docs/images/report.png).
source "$(dirname "$0")/lib.bash"

browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || skip "chromium not installed (scripts/setup installs it)"
golden="$TEST_DATA/golden/report_seed.json"

# render HTML: the DOM after the page's scripts ran, on stdout; console lines to $WORK/console.
# --no-sandbox: Chromium refuses to run as root with its sandbox.
render() {
  timeout 60 "$browser" --headless=new --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
    --user-data-dir="$WORK/profile" --virtual-time-budget=5000 --dump-dom "file://$1" 2>"$WORK/stderr"
  grep -a 'CONSOLE' "$WORK/stderr" >"$WORK/console" || true
}

# marks DOM CLASS: the number of SVG paths in the mark group named CLASS (vega: NAME_marks).
marks() {
  python3 -c 'import re, sys
dom = open(sys.argv[1]).read()
m = re.search(r"<g class=\"mark-symbol role-mark " + sys.argv[2] + r"\"[^>]*>(.*?)</g>", dom, re.S)
print(len(re.findall(r"<path", m.group(1))) if m else -1)' "$1" "$2"
}

# check REPORT HTML WHAT: no console message, one trial point per trial, the answer shown.
check() {
  local report=$1 html=$2 what=$3 trials got
  render "$html" >"$WORK/dom.html"
  [ ! -s "$WORK/console" ] || fail "$what: console messages: $(head -5 "$WORK/console")"
  grep -q 'class="answer' "$WORK/dom.html" || fail "$what: no answer in the rendered page"
  trials=$(jq '.trials | length' "$report")
  got=$(marks "$WORK/dom.html" trial_points_marks)
  if ((trials > 0)); then expect_eq "$got" "$trials" "$what: trial points in #trials-chart"; fi
  if jq -e '[.trials[] | select(.status == "ok" and .guard != null)] | length > 0' "$report" >/dev/null; then
    got=$(marks "$WORK/dom.html" pareto_points_marks)
    expect_eq "$got" "$(jq '[.trials[] | select(.status == "ok" and .guard != null)] | length' "$report")" "$what: Pareto points"
  fi
  if jq -e '.device.simulated' "$report" >/dev/null; then grep -q 'class="banner"' "$WORK/dom.html" || fail "$what: no SIMULATED banner"; fi
  echo "ok: $what ($trials trials)"
}

# report_kind NAME JQ [TEXT]: the golden report changed by JQ, rendered by `disktune report`,
# checked; TEXT, when given, must be in the rendered DOM.
report_kind() {
  jq "$2" "$golden" >"$WORK/$1.json"
  "$DISKTUNE" report "$WORK/$1.json" --html "$WORK/$1.html" || fail "report $1 exited $?"
  check "$WORK/$1.json" "$WORK/$1.html" "$1"
  [ -z "${3:-}" ] || grep -qF -- "$3" "$WORK/dom.html" || fail "$1: '$3' not in the rendered page"
}

# A simulated tune, its HTML written by tune itself.
"$DISKTUNE" tune sim: --max-trials 8 --report "$WORK/sim.json" --html "$WORK/sim.html" --journal "$WORK/j1" \
  >/dev/null 2>"$WORK/err" || fail "sim tune exited $? ($(tail -3 "$WORK/err"))"
check "$WORK/sim.json" "$WORK/sim.html" "simulated tune"
# --max-trials 8 leaves legal values untried: the search-space table says which (it listed
# every legal value as "searched").
grep -qF '<th>not measured</th>' "$WORK/dom.html" || fail "the search-space table has no 'not measured' column"
untried=$(jq -r '[.trials[].settings, .baseline.settings] as $m | .space.dimensions[] | select(.setting == "xfermode") | .values
  | map(tostring) - ($m | map(.xfermode | tostring)) | join(", ")' "$WORK/sim.json")
[ -n "$untried" ] || fail "every xfermode value was measured in 8 trials: the check proves nothing"
grep -qF "<td>$untried</td>" "$WORK/dom.html" || fail "the untried xfermode values ($untried) are not named"
# A setting whose every value was measured says so, not "none" (read as the scheduler's value).
jq -e '[.trials[].settings, .baseline.settings] as $m | any(.space.dimensions[]; .setting as $s
  | (.values | map(tostring)) - ($m | map(.[$s] | tostring)) | length == 0)' "$WORK/sim.json" >/dev/null ||
  fail "no setting had every value measured in 8 trials: the check below proves nothing"
grep -qF '<td>(all measured)</td>' "$WORK/dom.html" || fail "a fully measured setting is not said to be"
! grep -qE '<script[^>]* src=|<link |<iframe ' "$WORK/sim.html" || fail "the page loads a file: it must be self-contained"
if [ -n "${HTML_SCREENSHOT:-}" ]; then
  timeout 60 "$browser" --headless=new --no-sandbox --disable-gpu --user-data-dir="$WORK/profile" --hide-scrollbars \
    --virtual-time-budget=5000 --window-size=1200,1600 --screenshot="$HTML_SCREENSHOT" "file://$WORK/sim.html" 2>/dev/null
  [ -s "$HTML_SCREENSHOT" ] || fail "no screenshot written to $HTML_SCREENSHOT"
fi

# Two objectives: the Pareto chart.
"$DISKTUNE" tune sim: --objective seq-read,rand-read-iops --max-trials 5 --report "$WORK/two.json" --html "$WORK/two.html" \
  --journal "$WORK/j2" >/dev/null 2>"$WORK/err" || fail "two-objective tune exited $? ($(tail -3 "$WORK/err"))"
check "$WORK/two.json" "$WORK/two.html" "two objectives"
# Its axes name the objectives, their units and which way is better (not "objective score").
for title in 'guard: rand-read-iops (IOPS, higher is better)' 'seq-read (MB/s, higher is better)'; do
  grep -qF "$title" "$WORK/dom.html" || fail "two objectives: the Pareto chart has no axis '$title'"
done

# A trial that failed the guard is marked so on the Pareto chart, never on the front: the
# baseline's guard figure raised tenfold puts every trial beyond --tolerance. (The legend's
# SVG text is checked: the page's script holds both labels.)
jq '.baseline.guard.samples |= map(. * 10) | .baseline.guard.median *= 10
    | .guard_excluded = [.trials[] | select(.status == "ok" and .guard != null) | .id]' "$WORK/two.json" >"$WORK/guard.json"
"$DISKTUNE" report "$WORK/guard.json" --html "$WORK/guard.html" || fail "report of the guard-failing trials exited $?"
check "$WORK/guard.json" "$WORK/guard.html" "every trial fails the guard"
grep -qF '>fails the guard</text>' "$WORK/dom.html" || fail "guard: the Pareto chart does not mark the trials that failed the guard"
! grep -qF '>on the front</text>' "$WORK/dom.html" || fail "guard: a trial that failed the guard is drawn on the front"

# Every report kind, through disktune report.
report_kind schema3 '.' "$(grep -v '^#' "$TEST_DATA/golden/boot_local_seed.sh" | grep -m1 hdparm)"  # the install line, from the emitter
report_kind schema2_keep '.schema_version = 2 | .device |= del(.size_bytes, .wwid, .backing_file)
  | .winner.keep_baseline = true | .winner.changes = {} | .winner.trial_id = 0 | .confirmation = null' 'Keep the baseline'
report_kind schema1_stopped 'def s1: with_entries(if (.key | IN("median", "ci_low", "ci_high", "warmup")) then .key += "_mib_s" else . end) | del(.figure);
  .schema_version = 1 | del(.objective) | .trials |= map(s1) | .baseline |= s1 | .winner |= (s1 | del(.baseline_median))
  | .completed = false | .stop_reason = "interrupted by SIGINT after 4 trials"' 'did not complete: interrupted by SIGINT'
report_kind wedged '.completed = false | .wedged = true | .wedged_detail = "trial 6 child pid 1234 in state D" | .trials[5].status = "wedged"
  | .trials[5].kernel_log = ["ata1.00: exception Emask 0x0 SAct 0x0 SErr 0x0 action 0x6 frozen</script><b>x"]' \
  'frozen&lt;/script&gt;&lt;b&gt;x'  # evidence shown as text: it neither ends the data script nor becomes markup
# "<!--<script>" in a string once put the HTML parser into its escaped script state: a blank page.
report_kind escaped_state '.device.model = "<!--<script>IBM" | .trials[0].detail = "<!-- <script> -->"' '&lt;!--&lt;script&gt;IBM'
report_kind tie '.winner.tie = {faster_trial_id: 5, faster_median: 15.02, rule: "fewer risky changes (3 against 4)"}' \
  'a tie goes by the winner rule'"'"'s order: fewer risky changes (3 against 4)'
# The tie's figure is the contender's (a latency's score is 1e6 / us, never shown as a figure).
report_kind tie_figure '.winner.tie = {faster_trial_id: 3, faster_median: 49.2, rule: "fewer changes (1 against 2)"}
  | .confirmation.results[1].figure.median = 20316.2' 'Tie: trial 3 read 20316.20 MB/s'
report_kind unseparated '.confirmation.results += [.confirmation.results[1] | .id = 4 | .figure.median = 14.7]
  | .winner.unseparated = [{trial_id: 4, median: 14.7}]' \
  'Not separated from the winner by the confirmation round (either reads as fast within the noise): trial 4 (14.70 MB/s).'
# Entries naming no contender, or the winner itself, are not shown as its equals.
report_kind unseparated_unknown '.winner.unseparated = [{trial_id: 999, median: 1}, {trial_id: 3, median: 1}, {trial_id: 4.5},
  {trial_id: 0}, {trial_id: .trials[0].id}] | .winner.trial_id = (.winner.trial_id | tostring)'
! grep -q 'within the noise): trial' "$WORK/dom.html" || fail "unseparated entries naming no other contender were shown"
# A hand-edited winner: null keeps the baseline; changes no setting takes, or a value the tune's
# space does not hold (multcount 99 must not reach the snippets), are refused, no page written.
report_kind winner_null '.winner = null' 'Keep the baseline'
for edit in '.winner.changes = {multcount: "<script>x"} | .winner.settings.multcount = "<script>x"' '.winner.changes.multcount = 99'; do
  jq "$edit" "$golden" >"$WORK/edited.json"
  code=0
  "$DISKTUNE" report "$WORK/edited.json" --html "$WORK/edited.html" >"$WORK/edited.out" 2>&1 || code=$?
  expect_eq "$code" 2 "report of a hand-edited winner ($edit: $(cat "$WORK/edited.out"))"
  grep -q "edited.json: winner.changes" "$WORK/edited.out" || fail "the refusal names no field: $(cat "$WORK/edited.out")"
  [ ! -e "$WORK/edited.html" ] || fail "a page was written for a hand-edited winner ($edit)"
done
# A scheduler trial brings its tunables and a reset nr_requests: still screened alone, labelled.
report_kind scheduler_panel '.baseline.settings += {scheduler: "mq-deadline", nr_requests: 256, fifo_batch: 16}
  | .trials[1].settings = (.baseline.settings | del(.fifo_batch) | .scheduler = "none" | .nr_requests = 128)
  | .trials[1].status = "ok"' 'none (nr_requests=128)'
# The per-setting axes in numeric order, whatever order the trials came in.
report_kind sorted_axis '.baseline.settings as $b | .trials |= (to_entries | map(.key as $k | if $k < 3
  then .value.settings = ($b | .readahead = ([8192, 256, 128][$k])) | .value.status = "ok" else . end) | map(.value))'
python3 -c 'import re, sys
dom = open(sys.argv[1]).read()
chart = dom[dom.index("id=\"screened-chart\""):]
labels = re.findall(r"<text[^>]*>([^<]*)</text>", chart)
order = [labels.index(v) for v in ("128", "256", "8192")]
sys.exit(0 if order == sorted(order) else 1)' "$WORK/dom.html" || fail "sorted_axis: readahead values not in numeric order on its axis"
report_kind acting '.acting = ["max_sectors_kb", "read_ahead_kb"]' \
  'made a difference beyond the noise in the screening (a value faster or slower than the baseline): max_sectors_kb, read_ahead_kb.'
report_kind too_noisy '.completed = false | .too_noisy = true | .noise_detail = "noise 9 % exceeds the 2 % gain" | .winner.keep_baseline = true' \
  'too noisy to tell: noise 9 %'

# A loop-device tune: one readahead setting, two trials, short samples.
require_loop
attach_random_loop 16
tune_completed "$DISKTUNE" tune "$dev" --only read_ahead_kb --max-trials 2 --duration 0.2 --repeats 2 --max-repeats 2 \
  --noise-repeats 1 --report "$WORK/loop.json" --html "$WORK/loop.html" --journal "$WORK/j3" >/dev/null 2>"$WORK/err" ||
  fail "loop tune failed ($(tail -3 "$WORK/err"))"
check "$WORK/loop.json" "$WORK/loop.html" "loop-device tune"
grep -qF 'none (no ATA identify data: a loop device)' "$WORK/dom.html" || fail "loop-device tune: provenance identity not said"
! grep -qF '<td> / / </td>' "$WORK/dom.html" || fail "loop-device tune: provenance shows ' / / '"
