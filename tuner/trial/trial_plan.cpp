// SPDX-License-Identifier: GPL-2.0-or-later
// TrialPlan from a trial's request: the one place where the kinds of trial differ.
#include "tuner/trial/trial_plan.hpp"

namespace disktune::tuner {

using strategies::TrialKind;

TrialPlan plan_of(const probe::Settings& config, const TrialSettings& settings, const strategies::TrialRequest& request) {
  TrialPlan plan{config, settings.sampling, request.incumbent_low, true, false, true};
  if (request.kind == TrialKind::confirmation_unit) {
    // The round's figure is its units' kept samples, taken in turn (A B C A B C ...): the
    // warm-up brings the device to the contender's running state, one sample is kept.
    plan.sampling = bench::SamplingPlan{1, 1, settings.sampling.target_half_width, true};
    plan.incumbent_low.reset();
    plan.guard = false;
    return plan;
  }
  if (request.quick) plan.sampling.max_samples = plan.sampling.min_samples;
  // The noise exceeds the smallest gain: no stop for precision; clearly slower still stops.
  if (request.all_samples) plan.sampling.stop_when_precise = false;
  plan.sampling.no_gain_below = request.gain_bar;
  plan.cached = request.kind == TrialKind::baseline;
  plan.compare_checksum = request.kind != TrialKind::baseline && request.kind != TrialKind::baseline_check;
  return plan;
}

}  // namespace disktune::tuner
