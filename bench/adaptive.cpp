// SPDX-License-Identifier: GPL-2.0-or-later
// Adaptive repetitions: the stop rule and the sampling loop.
#include "bench/adaptive.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <cmath>

namespace disktune::bench {

std::string_view to_string(SamplingStop stop) {
  switch (stop) {
    case SamplingStop::precise: return "precise";
    case SamplingStop::clearly_slower: return "clearly slower";
    case SamplingStop::max_samples: return "max samples";
    case SamplingStop::no_gain: return "no gain";
  }
  return "max samples";
}

std::optional<SamplingStop> sampling_verdict(const ScoreInterval& judged, int count, const SamplingPlan& plan,
                                             std::optional<double> incumbent_low) {
  DT_ASSERT(plan.min_samples >= 1 && plan.min_samples <= plan.max_samples);
  if (count < plan.min_samples) return std::nullopt;
  const bool samples_agree = !judged.pooled || (count >= 2 && judged.best_sample < incumbent_low.value_or(0.0));
  if (incumbent_low && judged.interval.high < *incumbent_low && samples_agree) return SamplingStop::clearly_slower;
  // An interval without a lower bound is not precise, however close its high end.
  if (plan.stop_when_precise && judged.interval.low > 0.0 &&
      relative_half_width(judged.interval, judged.center) <= plan.target_half_width)
    return SamplingStop::precise;
  if (count >= plan.max_samples) return SamplingStop::max_samples;
  return std::nullopt;
}

std::optional<SamplingStop> sampling_verdict(std::span<const double> samples_of_score, const SamplingPlan& plan,
                                             std::optional<double> incumbent_low) {
  const auto n = static_cast<int>(samples_of_score.size());
  if (n == 0) return sampling_verdict(ScoreInterval{}, 0, plan, incumbent_low);
  const ScoreInterval judged{median_interval(samples_of_score), median(samples_of_score)};
  return sampling_verdict(judged, n, plan, incumbent_low);
}

std::optional<LatencyPool> pooled_latency(std::span<const Sample> samples) {
  if (samples.empty()) return std::nullopt;
  LatencyPool pool{samples.front().latency.fraction, {}};
  for (const auto& sample : samples) {
    if (sample.latency.bins.empty() || sample.latency.fraction != pool.fraction) return std::nullopt;
    add_bins(pool, sample.latency.bins);
  }
  return pool;
}

std::optional<ScoreInterval> pooled_score_interval(const LatencyPool& pool) {
  const auto p = pooled_percentile(pool);
  if (!p || p->value_us <= 0.0 || p->low_us <= 0.0) return std::nullopt;
  const double low = p->high_us > 0.0 ? 1e6 / p->high_us : 0.0;
  return ScoreInterval{Interval{low, 1e6 / p->low_us, p->coverage}, 1e6 / p->value_us};
}

ScoreInterval judged_interval(std::span<const Sample> samples) {
  DT_ASSERT(!samples.empty());
  if (const auto pool = pooled_latency(samples))
    if (auto pooled = pooled_score_interval(*pool)) {
      pooled->pooled = true;
      for (const auto& sample : samples) pooled->best_sample = std::max(pooled->best_sample, sample.value);
      return *pooled;
    }
  const auto values = values_of(samples);
  return ScoreInterval{median_interval(values), median(values)};
}

std::optional<std::uint64_t> completions_wanted(std::span<const Sample> samples, const ScoreInterval& judged,
                                                double target_half_width) {
  DT_ASSERT(target_half_width > 0.0);
  if (!judged.pooled || judged.center <= 0.0) return std::nullopt;
  const auto pool = pooled_latency(samples);
  if (!pool) return std::nullopt;
  const auto have = static_cast<double>(completions_of(*pool));
  const double half_width = judged.interval.low > 0.0 ? relative_half_width(judged.interval, judged.center)
                                                      : (judged.interval.high - judged.center) / judged.center;
  const double ratio = half_width / target_half_width;
  const double total = std::max(1.2 * have * ratio * ratio, static_cast<double>(completions_to_bound(pool->fraction)));
  const double more = std::max({total - have, have / 10.0, 1.0});
  return static_cast<std::uint64_t>(std::min(std::ceil(more), 1e12));
}

std::ostream& operator<<(std::ostream& out, const AdaptiveSamples& samples) {
  return out << samples.samples.size() << " samples (" << to_string(samples.stop) << ")";
}

std::vector<double> values_of(std::span<const Sample> samples) {
  std::vector<double> rates;
  rates.reserve(samples.size());
  for (const auto& s : samples) rates.push_back(s.value);
  return rates;
}

probe::Result<AdaptiveSamples> run_adaptive(probe::BlockIo& io, const Workload& workload, const SamplingPlan& plan,
                                            std::optional<double> incumbent_low) {
  return run_adaptive(io, workload, plan, incumbent_low, SampleHook{});
}

probe::Result<AdaptiveSamples> run_adaptive(probe::BlockIo& io, const Workload& workload, const SamplingPlan& plan,
                                            std::optional<double> incumbent_low, const SampleHook& after_sample) {
  ReadSampler sampler(io, workload);
  return run_adaptive(sampler, plan, incumbent_low, after_sample);
}

namespace {

// The warm-up and the first kept sample both below plan.hopeless_fraction x incumbent_low.
bool hopeless(const AdaptiveSamples& so_far, const SamplingPlan& plan, std::optional<double> incumbent_low) {
  if (plan.hopeless_fraction <= 0.0 || !incumbent_low || !so_far.warmup || so_far.samples.size() != 1) return false;
  const double below = plan.hopeless_fraction * *incumbent_low;
  return so_far.warmup->value < below && so_far.samples.front().value < below;
}

}  // namespace

probe::Result<AdaptiveSamples> run_adaptive(Sampler& sampler, const SamplingPlan& plan,
                                            std::optional<double> incumbent_low, const SampleHook& after_sample) {
  AdaptiveSamples result;
  std::optional<std::uint64_t> wanted;  // a pooled percentile's next sample: what its pool still needs
  if (plan.warmup) {
    auto warmup = sampler.warmup();
    if (!warmup) return warmup.error();
    result.warmup = *warmup;
    if (after_sample) after_sample();
  }
  for (;;) {
    auto sample = wanted ? sampler.sample_completions(*wanted) : sampler.sample();
    if (!sample) return sample.error();
    result.samples.push_back(std::move(*sample));
    if (after_sample) after_sample();
    if (hopeless(result, plan, incumbent_low)) {
      result.stop = SamplingStop::clearly_slower;
      return result;
    }
    const auto count = static_cast<int>(result.samples.size());
    const auto judged = judged_interval(result.samples);
    if (const auto stop = sampling_verdict(judged, count, plan, incumbent_low)) {
      result.stop = *stop;
      return result;
    }
    if (count == 1 && plan.no_gain_below && !judged.pooled && result.samples.front().value < *plan.no_gain_below) {
      result.stop = SamplingStop::no_gain;
      return result;
    }
    // Before min_samples a short sample cannot end the trial; without the precise stop only
    // max_samples or clearly_slower can, and both want whole samples.
    if (count >= plan.min_samples && plan.stop_when_precise)
      wanted = completions_wanted(result.samples, judged, plan.target_half_width);
  }
}

}  // namespace disktune::bench
