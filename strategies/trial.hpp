// SPDX-License-Identifier: GPL-2.0-or-later
// TrialResult: what one evaluated configuration produced.
#pragma once

#include "bench/latency_pool.hpp"
#include "probe/settings.hpp"

#include <optional>
#include <string>
#include <cstddef>
#include <string_view>
#include <vector>

namespace disktune::strategies {

/// Outcome class of one trial (the report's "status").
enum class TrialStatus {
  ok,           ///< applied, read back as applied, measured without errors
  hang,         ///< the watchdog killed the trial child after it stopped progressing (no
                ///< heartbeat, no sector read within the stall limit or the last 5 s)
  slow,         ///< the watchdog killed the trial child at its time limit while it was still
                ///< progressing: merely slower than the limit allowed (detail: the rate reached)
  error,        ///< the trial failed (read error, EIO from the drive, crash of the child)
  unsupported,  ///< the driver refused a setting of this configuration
  unstable,     ///< finished, but a setting did not read back or errors were seen
  crashed,      ///< started and never finished: it took the process or the machine down (journal)
  wedged,       ///< the killed trial child stayed in uninterruptible sleep: the device is
                ///< wedged, the run ends (exit 5) and nothing touches the device again
};

/// "ok", "hang", "slow", "error", "unsupported", "unstable", "crashed", "wedged".
std::string_view to_string(TrialStatus status);
/// Inverse of to_string; nullopt for an unknown name.
std::optional<TrialStatus> trial_status_from_name(std::string_view name);

/// The guard objective's figures of one trial (`--objective A,B`: B, measured after A's
/// samples in the same child with the same settings, a fixed number of samples: the sampling
/// plan's minimum, no adaptive stop). Scores of B (higher is better), B's score unit.
struct GuardFigures {
  std::vector<double> samples;  ///< one score per sample, in order
  double median = 0.0;          ///< median of samples (bench::median)
  double ci_low = 0.0;          ///< the median's 95 % interval (bench::median_interval); 0 when too few samples
  double ci_high = 0.0;
  double measured_s = 0.0;      ///< measurement time of these samples [s; virtual when simulated]
  bool operator==(const GuardFigures&) const = default;
};

/// GuardFigures of `samples` (median and interval). Errors: none; all 0 for no samples.
GuardFigures guard_figures_of(std::vector<double> samples);

/// One trial: the full configuration, its status, raw samples and their statistics. Every
/// figure is the run's objective's score (bench/objective.hpp: higher is better; MiB/s, 2^20
/// bytes per second as hdparm reports "MB/sec", for seq-read). The statistics fields
/// are derived from samples by summarize_samples (below) and are 0 / empty when the
/// trial is not ok or has no samples. The same record is written to the report ("trials"),
/// the journal (results/journal.hpp) and the trial child's wire to its parent.
struct TrialResult {
  int id = 0;                        ///< 1-based, in evaluation order; 0 = baseline
  probe::Settings settings;          ///< the full configuration tried
  TrialStatus status = TrialStatus::error;
  std::vector<double> samples;       ///< one score per timed sample, in order (warm-up excluded)
  double median = 0.0;               ///< median of samples (bench::median); 0 when not ok
  /// ± half the range relative to the median, percent: 50 × (max − min) / median
  /// (bench::relative_spread); 5.0 means the samples lie within median ± 5 %.
  double spread_pct = 0.0;
  std::string detail;                ///< why it is not ok, or evidence; empty when ok
  /// Kernel log error messages about the device logged during the trial (evidence kept in
  /// the report; any makes an otherwise ok trial unstable).
  std::vector<std::string> kernel_log;
  /// Distribution-free 95 % interval of the median (bench::median_interval: order statistics
  /// of the binomial), score unit; both 0 when not ok or not computed; [x, x] for one sample.
  double ci_low = 0.0;
  double ci_high = 0.0;
  double ci_coverage = 0.0;          ///< the interval's actual coverage (lower than 0.95 below 6 samples)
  std::vector<std::size_t> outliers; ///< indices into samples beyond 3 scaled MADs (kept, only flagged)
  double warmup = 0.0;               ///< the discarded warm-up sample's score; 0 when none was taken
  /// Each kept sample's timed length [s; virtual when simulated], in the order of `samples`
  /// (a sample ends early once its rate is steady, or a percentile's sample once it has its
  /// completions); empty when not recorded (a confirmation figure, a report from
  /// before the field).
  std::vector<double> sample_seconds;
  /// Each kept sample's completed reads for a fio objective (fio's total_ios), in the order of
  /// `samples`; empty for the other engines and when not recorded.
  std::vector<std::uint64_t> sample_completions;
  /// A built-in percentile objective measured by fio: the completion latencies of all the kept
  /// samples pooled (fio's histograms, bench/latency_pool.hpp). When present, median and the
  /// interval are the pooled percentile's (its score), not the per-sample figures' median:
  /// a p99 rests on every completion beyond it, not on each sample's few. nullopt otherwise.
  std::optional<bench::LatencyPool> latency;
  /// Why sampling stopped (bench::to_string(SamplingStop): "precise", "clearly slower",
  /// "max samples"; "confirmation" for a confirmation-round figure).
  std::string sampling_stop;
  double measured_s = 0.0;           ///< measurement time spent, warm-up included [s; virtual when simulated]
  bool quick = false;                ///< measured with the minimum samples only (racing's first rung)
  /// The guard objective's figures (`--objective A,B`); nullopt without a guard, or when the
  /// trial is not ok, or for a confirmation-round figure (the round re-measures A only).
  std::optional<GuardFigures> guard;
  bool operator==(const TrialResult&) const = default;
};

/// A trial's whole measurement time: its objective's samples and warm-up (measured_s) and its
/// guard objective's (GuardFigures::measured_s) [s; virtual when simulated]. What --time-budget
/// counts.
double measurement_seconds(const TrialResult& trial);

/// Fill median, spread_pct (50 × (max − min) / median, percent), the 95 % median
/// interval and its coverage, and outliers (indices beyond 3 scaled MADs) from samples
/// (bench/stats.hpp); with `latency`, median and the interval are the pooled percentile's
/// (bench::pooled_score_interval). Leaves them untouched (0 / empty) when there are no
/// samples. Errors: none.
void summarize_samples(TrialResult& trial);

/// The median's 95 % interval bounds [score unit], or the median itself when no interval was
/// computed (ci_high 0: a trial from before intervals, or too few samples). The
/// evaluator's racing and the winner rule compare these.
double lower_bound(const TrialResult& trial);
double upper_bound(const TrialResult& trial);

/// True for a trial the hopeless stop ended (bench::SamplingPlan::hopeless_fraction: its warm-up
/// and one kept sample both far below the incumbent; sampling_stop "clearly slower", one sample,
/// no pooled percentile). It has no interval (one value's is the value): it was measured only
/// to show it far below the incumbent of its time, not to compare with others.
bool stopped_hopeless(const TrialResult& trial);

}  // namespace disktune::strategies
