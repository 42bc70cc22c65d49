// SPDX-License-Identifier: GPL-2.0-or-later
// disktune evaluate: every strategy over many SIMULATED drives and seeds, against exhaustive.
#pragma once

#include "tuner/run/tune_options.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// `evaluate`'s options (docs/evaluation.md): which SIMULATED drives, seeds and strategies.
struct EvaluateOptions {
  int seeds = 5;                               ///< evaluate --seeds N (seeds --seed .. --seed + N - 1)
  std::vector<std::string> strategies;         ///< evaluate --strategies A,B: empty = all; exhaustive always runs
  std::optional<std::size_t> drives;           ///< evaluate --drives N: only the first N drives
  std::string identify_dir = "../shared/data/identify";  ///< evaluate --identify-dir DIR
  std::optional<std::string> drive_filter;     ///< evaluate --drive-filter TEXT: file names containing it
};

/// What `disktune evaluate` is asked to do: its own options, the measurement (--duration,
/// --repeats, --max-repeats, --objective, --only), the first seed and the output form.
struct EvaluateRequest {
  EvaluateOptions options;
  MeasureOptions measure;
  std::uint64_t first_seed = 1;  ///< --seed N: the seeds are N .. N + options.seeds - 1
  bool json = false;             ///< --json
};

/// One strategy run on one simulated drive with one seed.
struct EvaluationRun {
  std::string strategy;
  std::string drive;          ///< identify file name
  std::uint64_t seed = 1;
  std::size_t legal_count = 0;
  std::size_t trials = 0;     ///< search trials (baseline and confirmation not counted)
  double measured_s = 0.0;    ///< simulated measurement seconds: baseline, search and confirmation
  double wall_s = 0.0;
  double true_score = 0.0;    ///< noise-free score of the final configuration (the objective's)
  bool kept_baseline = false;
  std::string final_settings; ///< changes from the baseline, hdparm names
};

/// Per-strategy figures relative to exhaustive on the same (drive, seed).
struct StrategySummary {
  std::string name;
  std::size_t runs = 0;
  double success_rate = 0.0;     ///< final true rate >= 98 % of exhaustive's final, or the same configuration
  double trial_fraction = 0.0;   ///< mean of trials / exhaustive's trials
  double time_fraction = 0.0;    ///< mean of measured_s / exhaustive's measured_s
  double wall_s = 0.0;           ///< mean wall time per run [s]
  std::size_t large_runs = 0;    ///< runs on spaces of more than 100 configurations
  double large_success_rate = 0.0;
  double large_trial_fraction = 0.0;
};

/// Identify files (*.txt) under `directory`, sorted by name, from which a simulated drive
/// with more than one legal configuration can be built; names containing `filter` only, when
/// given. Of files that simulate the same drive (same legal values, settings as found and
/// media rate, e.g. two captures of one model) only the first is kept: its runs would repeat.
/// `only` (evaluate --only): the space searches these settings only, the others keep their
/// value; drives then count as the same when they differ only in the others.
std::vector<std::string> tunable_drive_files(const std::string& directory, const std::optional<std::string>& filter,
                                             const std::optional<std::vector<probe::SettingId>>& only = std::nullopt);

/// The strategies `disktune evaluate` runs, in registry order: request.options.strategies
/// (exhaustive included, the reference) or, when empty, every registered strategy.
std::vector<std::string> evaluated_strategies(const EvaluateRequest& request);

/// The noise seeds of the evaluation: first_seed, first_seed + 1, ... (options.seeds of them).
std::vector<std::uint64_t> evaluation_seeds(const EvaluateRequest& request);

/// Run every evaluated strategy on every (drive, seed) pair, in parallel over the runs
/// with oneTBB. Each run builds its own simulated drive (noise 2 %, seeded) and measures
/// through TrialRunner in process (no fork; the same measurement body as `tune`), decides
/// with the confirmation round, and scores the final configuration by its noise-free rate.
std::vector<EvaluationRun> run_evaluation(const std::vector<std::string>& files, const EvaluateRequest& request);

/// Summaries per strategy in registry order (strategies without runs left out), each run
/// compared with exhaustive's run on the same drive and seed.
std::vector<StrategySummary> summarize(const std::vector<EvaluationRun>& runs);

/// `disktune evaluate`: prints a table (or JSON with --json) naming the default strategy.
/// Drives come from options.identify_dir (--identify-dir, default ../shared/data/identify).
int run_evaluate_command(const EvaluateRequest& request, std::ostream& out, std::ostream& err);

}  // namespace disktune::tuner
