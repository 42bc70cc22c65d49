// SPDX-License-Identifier: GPL-2.0-or-later
// Adaptive repetitions: sample until the median's interval is tight or clearly too slow.
#pragma once

#include "bench/benchmark.hpp"
#include "bench/sampler.hpp"
#include "bench/stats.hpp"

#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace disktune::bench {

/// How many samples one configuration gets.
struct SamplingPlan {
  int min_samples = 3;              ///< always taken (--repeats)
  int max_samples = 10;             ///< never more (--max-repeats)
  double target_half_width = 0.02;  ///< stop once the median's 95 % interval is within ± this fraction
  bool warmup = true;               ///< one sample before the others, measured and discarded
  /// Stop after the warm-up and one kept sample when both are below this fraction of the
  /// incumbent's lower bound: clearly slower without the other min_samples (a configuration
  /// at a fraction of the incumbent's rate never wins; on a real device its samples are the
  /// longest: a 2 MiB read at 0.3 MB/s takes 7 s). 0: off (min_samples always taken).
  double hopeless_fraction = 0.0;
  /// false: never stop for precision, only for clearly_slower or at max_samples (the baseline's
  /// noise between trials exceeds the smallest gain: a tight interval of a few samples is
  /// tighter than the noise; tuner/run/noise.cpp). A hopeless or clearly slower configuration
  /// still stops early: it cannot win however many samples it gets.
  bool stop_when_precise = true;
  /// A first kept sample below this [score unit] ends sampling (SamplingStop::no_gain): the
  /// configuration cannot beat the incumbent by the minimum gain (Evaluator::evaluate sets it
  /// from the incumbent and the measured noise). Never for a pooled percentile. nullopt: off.
  std::optional<double> no_gain_below{};
};

/// Why sampling stopped.
enum class SamplingStop {
  precise,         ///< the interval's half-width is within the target
  clearly_slower,  ///< the interval's upper bound is below the incumbent's lower bound
  max_samples,     ///< max_samples reached without either
  no_gain,         ///< the first sample is below SamplingPlan::no_gain_below
};

/// "precise", "clearly slower", "max samples", "no gain".
std::string_view to_string(SamplingStop stop);

/// Decide after each sample: nullopt = take another. Fewer than min_samples: nullopt;
/// max_samples reached: max_samples unless one of the others holds; otherwise clearly_slower
/// when the median_interval's high < `incumbent_low` (in the samples' score unit), precise when its
/// relative_half_width <= target_half_width (and its low > 0) and plan.stop_when_precise.
/// Precondition: 1 <= min_samples <= max_samples.
std::optional<SamplingStop> sampling_verdict(std::span<const double> samples, const SamplingPlan& plan,
                                             std::optional<double> incumbent_low);

/// The completion latencies of `samples` pooled (add_bins over each sample's
/// Sample::latency), when every sample has some and all name the same fraction; else nullopt
/// (the other engines, the SIMULATED drive, a fio:FILE job).
std::optional<LatencyPool> pooled_latency(std::span<const Sample> samples);

/// An interval of a configuration's figure in score units (higher is better) and its center.
struct ScoreInterval {
  Interval interval;  ///< low may be 0: no lower bound (a pooled percentile without enough completions)
  double center = 0.0;
  /// A pooled percentile's interval (pooled_score_interval), and the best score of the samples
  /// it pools: its interval assumes independent completions, which samples of a noisy device
  /// are not (per-sample p99s 40x apart were seen on a loop device in the page cache).
  bool pooled = false;
  double best_sample = 0.0;
};

/// The score interval a pooled percentile gives (pooled_percentile at 95 %; a latency's score
/// is 1e6 / µs, so its high latency bound is the low score bound, 0 when it has none).
/// nullopt for an empty pool.
std::optional<ScoreInterval> pooled_score_interval(const LatencyPool& pool);

/// What run_adaptive judges `samples` by: pooled_score_interval of their pooled_latency when
/// there is one (a percentile rests on all the completions, not on each sample's few beyond
/// it), else the median_interval of their values around their median. Precondition: non-empty.
ScoreInterval judged_interval(std::span<const Sample> samples);

/// sampling_verdict on a judged interval of `count` samples. On a pooled interval, clearly
/// slower also needs two samples or more, each below `incumbent_low` (best_sample): one sample,
/// or samples that disagree, never dismiss a configuration on the independence assumption alone.
std::optional<SamplingStop> sampling_verdict(const ScoreInterval& judged, int count, const SamplingPlan& plan,
                                             std::optional<double> incumbent_low);

/// The completions the next sample of a pooled percentile should take so that the pool of
/// `samples` (judged: their judged_interval) reaches `target_half_width` (SamplingPlan): the
/// interval narrows as 1/sqrt(N), so the pool of N needs N (h / target)^2 in all, 20 % more as a
/// margin for the estimate's own noise, h its relative_half_width (while it has no lower bound,
/// its upper side alone, (high - center) / center); and at least completions_to_bound, the
/// fewest that bound the percentile at all. Less the N it has, at least a tenth of N (a sample of
/// a few reads is mostly fio's start-up). nullopt when `judged` is not pooled: a whole sample.
/// Why: at 100 IOPS a p99 needs 368 reads (3.7 s) and a 3 s sample holds 300; a second whole
/// sample made a trial cost 7.6 s against 3.7 (docs/measurement-fidelity.md).
std::optional<std::uint64_t> completions_wanted(std::span<const Sample> samples, const ScoreInterval& judged,
                                                double target_half_width);

/// The samples of one configuration and why they stopped.
struct AdaptiveSamples {
  std::optional<Sample> warmup;  ///< the discarded warm-up sample, when the plan asks for one
  std::vector<Sample> samples;   ///< the kept samples, in order
  SamplingStop stop = SamplingStop::max_samples;
};

/// "<n> samples (<stop>)", so that Catch2 can print a Result<AdaptiveSamples>.
std::ostream& operator<<(std::ostream& out, const AdaptiveSamples& samples);

/// Run an optional warm-up sample, then run_sample until sampling_verdict says stop (or, with
/// plan.hopeless_fraction, after one kept sample that and the warm-up are hopeless). Once
/// min_samples are kept and plan.stop_when_precise, a pooled percentile's next sample takes
/// completions_wanted (Sampler::sample_completions).
/// Errors: the first failing sample's error.
probe::Result<AdaptiveSamples> run_adaptive(probe::BlockIo& io, const Workload& workload, const SamplingPlan& plan,
                                            std::optional<double> incumbent_low);

/// Called after each sample run_adaptive takes (the warm-up included), before the stop rule:
/// a sample boundary, where a caller can check the device (tuner::SettingWatch).
using SampleHook = std::function<void()>;

/// run_adaptive, calling `after_sample` after every sample that succeeded.
probe::Result<AdaptiveSamples> run_adaptive(probe::BlockIo& io, const Workload& workload, const SamplingPlan& plan,
                                            std::optional<double> incumbent_low, const SampleHook& after_sample);

/// run_adaptive over any objective's sampler (the warm-up and every sample from
/// sampler.sample()), calling `after_sample` after every sample that succeeded.
probe::Result<AdaptiveSamples> run_adaptive(Sampler& sampler, const SamplingPlan& plan,
                                            std::optional<double> incumbent_low, const SampleHook& after_sample);

/// The values (scores) of samples, in order.
std::vector<double> values_of(std::span<const Sample> samples);

}  // namespace disktune::bench
