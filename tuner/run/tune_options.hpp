// SPDX-License-Identifier: GPL-2.0-or-later
// What a tune is asked to do: its device, journal, measurement, search bounds and outputs.
#pragma once

#include "bench/objective.hpp"
#include "probe/settings.hpp"
#include "tuner/device_context.hpp"
#include "tuner/host/output_file.hpp"
#include "tuner/journal/run_journal.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace disktune::tuner {

/// How a configuration is measured and the search bounded: tune's, bench's (its sample
/// options and objective) and evaluate's (its sampling). Durations in seconds.
struct MeasureOptions {
  int repeats = 3;                             ///< --repeats N: first samples per configuration
  int max_repeats = 10;                        ///< --max-repeats N: adaptive sampling's maximum
  /// --noise-repeats N: baseline trials after the first, for the noise; nullopt: not given
  /// (2, or on a resume the journal's: tuner/journal/search_bounds.hpp).
  std::optional<int> noise_repeats;
  double duration_s = 3.0;                     ///< --duration S: seconds per buffered sample (hdparm -t: 3)
  std::optional<double> trial_timeout_s;       ///< --trial-timeout S (default: from the expected trial time)
  std::optional<double> stall_timeout_s;       ///< --stall-timeout S (default: from the baseline's chunk time)
  /// --objective A[,B] (with --metric), parsed (bench/objective.hpp): A is optimised, B
  /// (optional) guarded; default seq-read. bench takes one.
  std::vector<bench::Objective> objectives{bench::parse_objective("seq-read", "").value()};
  double tolerance = 0.05;                     ///< --tolerance PCT / 100: how much worse than the baseline B may be
  bool full_samples = false;                   ///< --full-samples: no steady stop (bench/steady.hpp), every sample --duration s
  std::optional<double> time_budget_s;         ///< --time-budget S: measurement seconds for the search
  std::string strategy;                        ///< --strategy NAME
  std::optional<std::vector<probe::SettingId>> only;  ///< --only SETTING,...
  std::optional<std::size_t> max_trials;       ///< --max-trials N
};

/// Everything `disktune tune` of one drive is asked to do (README "CLI"; a tune of several
/// drives runs one such tune per drive in a worker process, tuner/fleet/multi_tune.hpp).
struct TuneOptions {
  DeviceRequest device;                   ///< DEVICE, --seed, --sim-profile, --allow-mounted
  JournalOptions journal;                 ///< --journal, --fresh, --force
  MeasureOptions measure;                 ///< sampling, objective, strategy and search bounds
  OutputPaths output;                     ///< --report, --html and the snippets
  bool safe_only = false;                 ///< --safe-only: search only settings that cannot lose data
  std::vector<std::string> command_line;  ///< argv as given, for the record (journal and report)
};

}  // namespace disktune::tuner
