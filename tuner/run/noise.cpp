// SPDX-License-Identifier: GPL-2.0-or-later
// The noise check after the baseline.
#include "tuner/run/noise.hpp"

#include "probe/core/text.hpp"
#include "strategies/baseline_trials.hpp"
#include "tuner/trial/trial_verdict.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <utility>

namespace disktune::tuner {

std::string noise_figures(const std::vector<double>& medians, double noise_pct, const bench::Objective& objective) {
  std::string text = std::to_string(medians.size()) + " baseline trials, medians ";
  for (std::size_t i = 0; i < medians.size(); ++i) text += (i ? ", " : "") + bench::figure_number(objective, medians[i]);
  const bool equal = std::adjacent_find(medians.begin(), medians.end(), std::not_equal_to<>()) == medians.end();
  return text + " " + std::string(bench::unit_of(objective)) + ": noise " + probe::printf_number("%.2f", noise_pct) + " %" +
         (equal && noise_pct > 0.0 ? " (the medians are equal: from the scatter of their samples)" : "");
}

namespace {

// More samples per trial must take the noise down by at least this factor to be kept: a noise
// within trials falls as the median of 10 samples instead of 3 spreads less (to about 55 %,
// 1 / sqrt(10 / 3)); a noise between trials (a device that reads 51 or 100 MB/s from one fio
// run to the next) does not move, and 10 samples a trial would only triple the tune's cost.
constexpr double kMustFallTo = 0.75;

// After the re-measurement: back to the configured samples, and to the noise measured with
// them (the trials compared will be sampled so), when more samples did not lower the noise.
void keep_samples_that_help(const NoiseInput& input, const strategies::Baseline& first, strategies::Baseline& baseline,
                            double min_gain_pct, NoiseCheck& check, bench::SamplingPlan& plan, std::ostream& log) {
  const double first_pct = first.noise_floor_pct;
  if (!check.remeasured || baseline.noise_floor_pct <= min_gain_pct || baseline.noise_floor_pct <= kMustFallTo * first_pct)
    return;
  log << "  " << input.sampling.max_samples << " samples per trial did not lower the noise ("
      << probe::printf_number("%.2f", first_pct) << " % -> " << probe::printf_number("%.2f", baseline.noise_floor_pct)
      << " %): it lies between trials, not within one; trials keep " << input.sampling.min_samples << "-"
      << input.sampling.max_samples << " samples, judged by the first noise\n";
  plan = input.sampling;
  baseline.aa_medians = first.aa_medians;
  baseline.noise_floor_pct = first_pct;
  check.all_samples = false;
  check.remeasured = false;  // the baseline as first recorded stands
}

// "10" or "3-10": the samples per trial of `plan`.
std::string samples_text(const bench::SamplingPlan& plan) {
  return plan.min_samples == plan.max_samples ? std::to_string(plan.max_samples)
                                              : std::to_string(plan.min_samples) + "-" + std::to_string(plan.max_samples);
}

// The baseline's noise measured again with every trial at plan.max_samples, into `baseline`.
void remeasure(const NoiseInput& input, const bench::SamplingPlan& plan, strategies::Baseline& baseline, NoiseCheck& check,
               std::ostream& log) {
  const auto count = static_cast<int>(baseline.aa_medians.size());
  const auto again = strategies::measure_repeats(input.executor, input.store, input.original, count, true, count);
  if (!again.failed) {
    strategies::set_noise(baseline, again.samples, again.figures);
    check.remeasured = true;
    log << "  noise again with " << plan.max_samples << " samples per trial: "
        << noise_figures(baseline.aa_medians, baseline.noise_floor_pct, input.objective) << '\n';
  } else if (!again.stopped && again.failed->status == strategies::TrialStatus::unstable) {
    check.unstable = baseline_error(*again.failed, input.device, false);
  }
  check.measured_s = again.measured_s;
}

// Not resolvable: the noise on record, with `samples` per trial, exceeds the smallest gain `gain`.
void unresolvable(const NoiseInput& input, const strategies::Baseline& baseline, const std::string& samples,
                  const std::string& gain, NoiseCheck& check, std::ostream& log) {
  check.resolvable = false;
  check.summary = "noise " + probe::printf_number("%.2f", baseline.noise_floor_pct) + " % with " + samples +
                  " samples per trial, above the " + gain + " smallest gain";
  check.detail = noise_figures(baseline.aa_medians, baseline.noise_floor_pct, input.objective) + " with " +
                 samples + " samples per trial, more than the smallest gain the winner rule accepts (" + gain +
                 "): only gains above the noise can be told apart; for an answer, measure longer (--duration, " +
                 "--max-repeats) on a quieter machine (nothing else reading the disk, an idle CPU)";
  // The figures were just said (once, or again after the re-measurement): only the consequence.
  log << "disktune: still more than " << gain << " with " << samples
      << " samples per trial: only gains above the noise can be told apart; for an answer, measure longer "
         "(--duration, --max-repeats) on a quieter machine\n";
}

// A resumed run: the decision the run it resumes took, with the noise it took it on.
NoiseCheck kept_decision(const NoiseInput& input, const strategies::Baseline& baseline, double min_gain_pct,
                         std::ostream& log) {
  NoiseCheck check;
  check.all_samples = *input.kept_all_samples;
  bench::SamplingPlan plan = input.sampling;
  if (check.all_samples) plan.min_samples = plan.max_samples;
  const std::string samples = samples_text(plan);
  log << "  kept from the interrupted run: " << samples << " samples per trial, judged by its noise of "
      << probe::printf_number("%.2f", baseline.noise_floor_pct) << " % (its trials and this resume's compare alike)\n";
  if (baseline.noise_floor_pct > min_gain_pct)
    unresolvable(input, baseline, samples, probe::printf_number("%g", min_gain_pct) + " %", check, log);
  return check;
}

}  // namespace

NoiseCheck settle_noise(const NoiseInput& input, strategies::Baseline& baseline, bool keep_figures, double min_gain_pct,
                        std::ostream& log) {
  if (input.kept_all_samples) return kept_decision(input, baseline, min_gain_pct, log);
  NoiseCheck check;
  if (baseline.noise_floor_pct <= min_gain_pct) return check;
  bench::SamplingPlan plan = input.sampling;
  const bool more = plan.min_samples < plan.max_samples;
  const std::string gain = probe::printf_number("%g", min_gain_pct) + " %";
  log << "disktune: the noise between repeated measurements of the baseline is larger than the smallest gain "
      << "the winner rule accepts (" << gain << "): " << noise_figures(baseline.aa_medians, baseline.noise_floor_pct, input.objective)
      << (more ? "; taking " + std::to_string(plan.max_samples) + " samples per trial (--max-repeats)" : "") << '\n';
  const strategies::Baseline first = baseline;
  bool had_all = false;
  if (more) {
    plan.min_samples = plan.max_samples;
    check.all_samples = true;
    // Its first trial already took them all (its interval never closed): measured again, the
    // noise would be the same trials' again, at the cost of as many (100 s on a throttled bed).
    had_all = std::cmp_greater_equal(baseline.trial.samples.size(), plan.max_samples);
    if (had_all)
      log << "  the baseline's trials took " << plan.max_samples << " samples already: this noise is theirs\n";
    else if (!keep_figures)
      remeasure(input, plan, baseline, check, log);
  }
  keep_samples_that_help(input, first, baseline, min_gain_pct, check, plan, log);
  if (baseline.noise_floor_pct <= min_gain_pct) return check;
  // The samples the noise was measured with: not measured again (no room, a failed repeat), the first trials'.
  unresolvable(input, baseline, samples_text(check.remeasured || had_all ? plan : input.sampling), gain, check, log);
  return check;
}

}  // namespace disktune::tuner
