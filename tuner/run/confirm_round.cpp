// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round of a tune: its rounds within the budget, its calls, announced as they run.
#include "tuner/run/confirm_round.hpp"

#include "probe/core/text.hpp"
#include "results/report.hpp"
#include "tuner/trial/confirm_progress.hpp"

#include <algorithm>

namespace disktune::tuner {
namespace {

using strategies::TrialResult;

// Contenders of a confirmation round at most: the baseline and the finalists (decide()).
constexpr int kMaxContenders = static_cast<int>(kMaxFinalists) + 1;

// As many rounds (at most `rounds`, at least kMinConfirmRounds) as `left_s` seconds hold.
int confirm_rounds_within(double left_s, double sample_s, int rounds) {
  const double per_round = confirmation_cost_s(1, sample_s);
  if (per_round <= 0.0) return rounds;
  return std::clamp(static_cast<int>(left_s / per_round), kMinConfirmRounds, rounds);
}

// How many extra rounds (strategies::confirm) --time-budget leaves after the first round of
// `rounds` rounds: each costs what the first does. Without a budget, strategies::kMaxExtraConfirmRounds.
int extra_rounds_within(const PipelineInput& input, const PipelineResult& result, int rounds) {
  if (!input.time_budget_s) return strategies::kMaxExtraConfirmRounds;
  const double per_round = confirmation_cost_s(rounds, seconds_per_sample(result.baseline->trial));
  if (per_round <= 0.0) return strategies::kMaxExtraConfirmRounds;
  const double left = *input.time_budget_s - result.before_search_s - result.search_s - per_round;
  return std::clamp(static_cast<int>(left / per_round), 0, strategies::kMaxExtraConfirmRounds);
}

// A round of more than kMinConfirmRounds rounds is measured in two calls (strategies::confirm's
// in_two_calls): kMinConfirmRounds first, which suffice when one contender is far ahead.
bool in_two_calls(int rounds) { return rounds > kMinConfirmRounds; }

// Which extra pass call `index` of a round of `rounds` rounds is (1, 2, ...); 0 for the round itself.
int extra_pass_of(int index, int rounds) { return std::max(0, in_two_calls(rounds) ? index - 1 : index); }

// What runner call `index` of a round of `rounds` rounds is, for the log.
std::string call_intro(int index, int rounds) {
  if (in_two_calls(rounds) && index == 1)
    return "disktune: confirmation round: no contender is far ahead of the others after " +
           std::to_string(kMinConfirmRounds) + " rounds; rounds " + std::to_string(kMinConfirmRounds + 1) + "-" +
           std::to_string(rounds) + " follow\n";
  const int extra = extra_pass_of(index, rounds);
  if (extra == 0) return "";
  return "disktune: confirmation round, extra pass " + std::to_string(extra) + " (of at most " +
         std::to_string(strategies::kMaxExtraConfirmRounds) + "): the fastest contender is ahead of another by more "
         "than the minimum gain, but their samples do not separate them yet; measuring again and pooling\n";
}

std::string kind_of(const PipelineInput& input) { return results::device_kind(input.simulated, input.emulated); }

// One runner call of a confirmation round: the contenders it measures (`measured`), those of
// its first call (`all`: [0] the baseline; a later call may leave the baseline out), its index
// and the round's rounds.
struct RoundCall {
  const std::vector<probe::Settings>& all;
  const std::vector<probe::Settings>& measured;
  int index;
  int round_rounds;
};

// The round's own pace: seconds per unit (a warm-up and a kept sample of one contender) over
// the calls measured so far. A later call is announced at this pace, not the baseline's: a
// contender's samples take their own time (on the EMULATED ssd an extra pass announced at the
// baseline's took 54 s of an "about 144 s").
struct RoundPace {
  double seconds = 0.0;
  double units = 0.0;
  void add(const std::vector<TrialResult>& results) {
    for (const auto& r : results) {
      seconds += r.measured_s;
      units += static_cast<double>(r.samples.size());
    }
  }
  // Seconds per unit: the round's own, else `fallback`.
  double per_unit(double fallback) const { return units > 0.0 ? seconds / units : fallback; }
};

// "3 finalists and the baseline", or a later call's "3 finalists (the baseline is far behind)".
std::string who_is_measured(const RoundCall& call) {
  if (call.measured.front() == call.all.front())
    return probe::counted(call.measured.size() - 1, "finalist") + " and the baseline";
  return probe::counted(call.measured.size(), "finalist") + " (the baseline, far behind them all, is not measured again)";
}

// What the call measures and about how long it takes: at the round's own pace once a call
// measured (RoundPace), else the baseline's (`baseline_unit_s`, unit_seconds: as measured, for
// on a slow disk a sample reads whole chunks and outlasts --duration, on a steady one it ends
// early; two --duration's only when the baseline has no time).
std::string call_announcement(const PipelineInput& input, const RoundCall& call, const RoundPace& pace,
                              double baseline_unit_s) {
  const int rounds = rounds_in_call(call.index, call.round_rounds);
  const double unit_s =
      pace.per_unit(baseline_unit_s > 0.0 ? baseline_unit_s : 2.0 * input.trial.workload.duration.count());
  const std::string estimate = probe::printf_number("%.0f", unit_s * static_cast<double>(call.measured.size()) * rounds);
  const bool part = call.index == 0 && in_two_calls(call.round_rounds);
  const bool extra = extra_pass_of(call.index, call.round_rounds) > 0;
  return call_intro(call.index, call.round_rounds) + "disktune: confirmation round" +
         (extra ? ", extra pass: " : ": ") + who_is_measured(call) + " x " + std::to_string(rounds) +
         (extra ? " more rounds" : " rounds") + (part ? " (of " + std::to_string(call.round_rounds) + ")" : "") +
         ", interleaved (a warm-up and a kept sample each; about " + estimate +
         (input.simulated ? " s of simulated reads)\n" : " s of reads)\n");
}

// A unit's line, its contender named as in the round's first call (the baseline, finalist i/N)
// and its round counted over the round's two calls (rounds 4-6 of 6 in the second).
std::string unit_line(const PipelineInput& input, const RoundCall& call, ConfirmUnit unit) {
  if (in_two_calls(call.round_rounds) && call.index <= 1) {
    unit.round += call.index == 1 ? kMinConfirmRounds : 0;
    unit.rounds = call.round_rounds;
  }
  const probe::Settings& contender = call.measured[unit.contender];
  unit.contender = static_cast<std::size_t>(std::find(call.all.begin(), call.all.end(), contender) - call.all.begin());
  unit.contenders = call.all.size();
  return confirm_progress_line(unit, contender, call.all.front(), kind_of(input), input.trial.objective,
                               extra_pass_of(call.index, call.round_rounds));
}

// What a call measures, as the log names it: "rounds 1-3" and "rounds 4-6" of a round in two
// calls, "its 3 rounds" of one in one, "extra pass 1".
std::string call_label(int index, int rounds) {
  if (const int extra = extra_pass_of(index, rounds); extra > 0) return "extra pass " + std::to_string(extra);
  if (!in_two_calls(rounds)) return "its " + std::to_string(rounds) + " rounds";
  return index == 0 ? "rounds 1-" + std::to_string(kMinConfirmRounds)
                    : "rounds " + std::to_string(kMinConfirmRounds + 1) + "-" + std::to_string(rounds);
}

// The call through the Evaluator (the store keeps it as one unit) and announced (it runs for
// minutes on a real device): what it measures, each unit, then where its answer came from.
strategies::Rounded announced_round(const PipelineInput& input, strategies::Evaluator& evaluator,
                                    const RoundCall& call, RoundPace& pace, double unit_s, std::ostream& log) {
  bool measured = false;
  strategies::ConfirmHooks hooks;
  hooks.before_measure = [&](const std::vector<probe::Settings>&) {
    measured = true;
    log << call_announcement(input, call, pace, unit_s);
  };
  hooks.progress = [&](const ConfirmUnit& unit) { log << unit_line(input, call, unit) << '\n' << std::flush; };
  auto round = evaluator.confirm(call.measured, call.index, rounds_in_call(call.index, call.round_rounds), hooks);
  // Each call says what it measured: "done" alone read as the round's end right before an
  // extra pass, and a resume said "taken from the journal" once per call, alike.
  const std::string label = call_label(call.index, call.round_rounds);
  if (const auto* done = std::get_if<strategies::Round>(&round)) {
    pace.add(done->results);
    if (!done->skipped.empty()) log << "disktune: " << done->skipped << '\n';
    else if (!measured) log << "disktune: confirmation round: " << label << " taken from the journal\n";
    else if (!(in_two_calls(call.round_rounds) && call.index == 0))
      log << "disktune: confirmation round: " << label << " done\n";
  }
  return round;
}

}  // namespace

double seconds_per_sample(const TrialResult& baseline) {
  const auto samples = baseline.samples.size() + (baseline.warmup > 0.0 ? 1 : 0);
  return samples > 0 ? baseline.measured_s / static_cast<double>(samples) : 0.0;
}

double unit_seconds(const TrialResult& baseline) {
  if (baseline.sample_seconds.empty() || baseline.sample_seconds.size() != baseline.samples.size())
    return 2.0 * seconds_per_sample(baseline);
  double kept_s = 0.0;
  for (const double s : baseline.sample_seconds) kept_s += s;
  const double warmup_s = std::max(0.0, baseline.measured_s - kept_s);
  return warmup_s + kept_s / static_cast<double>(baseline.sample_seconds.size());
}

double confirmation_cost_s(int rounds, double sample_s) {
  return rounds * kMaxContenders * 2.0 * sample_s * kContenderSampleSlack;
}

int rounds_in_call(int index, int rounds) {
  if (!in_two_calls(rounds) || index > 1) return rounds;
  return index == 0 ? kMinConfirmRounds : rounds - kMinConfirmRounds;
}

int confirm_rounds_for(const PipelineInput& input, const PipelineResult& result) {
  if (!input.time_budget_s) return input.trial.confirm_rounds;
  return confirm_rounds_within(*input.time_budget_s - result.before_search_s - result.search_s,
                               seconds_per_sample(result.baseline->trial), input.trial.confirm_rounds);
}

std::variant<Decision, strategies::Stop> decide_winner(const PipelineInput& input, const PipelineResult& result,
                                                       strategies::Evaluator& evaluator, int rounds, std::ostream& log) {
  const double unit_s = unit_seconds(result.baseline->trial);
  std::vector<probe::Settings> all;  // the first call's contenders
  RoundPace pace;
  return decide(
      evaluator,
      [&](const std::vector<probe::Settings>& contenders, int index) {
        if (index == 0) all = contenders;
        return announced_round(input, evaluator, RoundCall{all, contenders, index, rounds}, pace, unit_s, log);
      },
      kMaxContenders - 1, extra_rounds_within(input, result, rounds), in_two_calls(rounds));
}

}  // namespace disktune::tuner
