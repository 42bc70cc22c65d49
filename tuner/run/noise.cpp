// SPDX-License-Identifier: GPL-2.0-or-later
// The noise check after the baseline.
#include "tuner/run/noise.hpp"

#include "probe/core/text.hpp"
#include "strategies/baseline_trials.hpp"
#include "tuner/trial/trial_verdict.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace disktune::tuner {

std::string noise_figures(const std::vector<double>& medians, double noise_pct, const bench::Objective& objective) {
  std::string text = std::to_string(medians.size()) + " baseline trials, medians ";
  for (std::size_t i = 0; i < medians.size(); ++i) text += (i ? ", " : "") + bench::figure_number(objective, medians[i]);
  const bool equal = std::adjacent_find(medians.begin(), medians.end(), std::not_equal_to<>()) == medians.end();
  return text + " " + std::string(bench::unit_of(objective)) + ": noise " + probe::printf_number("%.2f", noise_pct) + " %" +
         (equal && noise_pct > 0.0 ? " (the medians are equal: from the scatter of their samples)" : "");
}

NoiseCheck settle_noise(const NoiseInput& input, strategies::Baseline& baseline, bool keep_figures, double min_gain_pct,
                        std::ostream& log) {
  NoiseCheck check;
  if (baseline.noise_floor_pct <= min_gain_pct) return check;
  bench::SamplingPlan plan = input.sampling;
  const bool more = plan.min_samples < plan.max_samples;
  const std::string gain = probe::printf_number("%g", min_gain_pct) + " %";
  log << "disktune: the noise between repeated measurements of the baseline is larger than the smallest gain "
      << "the winner rule accepts (" << gain << "): " << noise_figures(baseline.aa_medians, baseline.noise_floor_pct, input.objective)
      << (more ? "; taking " + std::to_string(plan.max_samples) + " samples per trial (--max-repeats)" : "") << '\n';
  if (more) {
    plan.min_samples = plan.max_samples;
    check.all_samples = true;
    if (!keep_figures) {
      const auto count = static_cast<int>(baseline.aa_medians.size());
      const auto again = strategies::measure_repeats(input.executor, input.original, count, true);
      if (!again.failed) {
        strategies::set_noise(baseline, again.samples, again.figures);
        check.remeasured = true;
        log << "  noise again with " << plan.max_samples << " samples per trial: "
            << noise_figures(baseline.aa_medians, baseline.noise_floor_pct, input.objective) << '\n';
      } else if (auto error = baseline_error(*again.failed, input.device, again.stopped); baseline_changed_behind(error)) {
        check.changed_behind = error;
      }
      check.measured_s = again.measured_s;
    }
  }
  if (baseline.noise_floor_pct <= min_gain_pct) return check;
  check.resolvable = false;
  const std::string samples = plan.min_samples == plan.max_samples
                                  ? std::to_string(plan.max_samples)
                                  : std::to_string(plan.min_samples) + "-" + std::to_string(plan.max_samples);
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
  return check;
}

}  // namespace disktune::tuner
