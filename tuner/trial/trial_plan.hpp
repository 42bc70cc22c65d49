// SPDX-License-Identifier: GPL-2.0-or-later
// TrialPlan: what one trial of any kind applies, measures and checks, worked out from its request.
#pragma once

#include "bench/adaptive.hpp"
#include "probe/settings.hpp"
#include "strategies/trial_executor.hpp"
#include "tuner/trial/trial_settings.hpp"

#include <optional>

namespace disktune::tuner {

/// One trial's plan, the same shape for every kind (strategies::TrialKind): the trial body
/// (trial_child.hpp) applies `config`, reads every setting back, measures as planned, reads
/// back again and checksums; the runner watches the kernel log, compares the checksum and
/// restores around it, whatever the kind.
struct TrialPlan {
  probe::Settings config;                ///< the full configuration (applied: its changes from the original)
  bench::SamplingPlan sampling;          ///< the samples of TrialSettings::objective (a warm-up, then kept ones)
  std::optional<double> incumbent_low;   ///< sampling stops once clearly below this [score unit]
  bool guard = true;                     ///< the guard objective's samples too (TrialSettings::guard)
  bool cached = false;                   ///< the cached-read figure (hdparm -T) too
  bool compare_checksum = true;          ///< the data checksum must match the adopted baseline's
};

/// The plan of a trial of `config` as `request` asks it, under `settings`:
/// - search and baseline_repeat: settings.sampling, its minimum when request.quick, no stop
///   for precision when request.all_samples, request.gain_bar and incumbent_low; the guard;
/// - baseline: as those, with the cached-read figure, and no checksum comparison (its
///   checksum is the reference); baseline_check: no comparison either (it re-reads the
///   reference after a resume);
/// - confirmation_unit: a warm-up and one kept sample (nothing adaptive), no guard.
TrialPlan plan_of(const probe::Settings& config, const TrialSettings& settings, const strategies::TrialRequest& request);

}  // namespace disktune::tuner
