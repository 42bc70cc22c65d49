// SPDX-License-Identifier: GPL-2.0-or-later
// Adaptive repetitions: the stop rule and the sampling loop.
#include "bench/adaptive.hpp"

#include "bench/stats.hpp"
#include "probe/core/assert.hpp"

namespace disktune::bench {

std::string_view to_string(SamplingStop stop) {
  switch (stop) {
    case SamplingStop::precise: return "precise";
    case SamplingStop::clearly_slower: return "clearly slower";
    case SamplingStop::max_samples: return "max samples";
  }
  return "max samples";
}

std::optional<SamplingStop> sampling_verdict(std::span<const double> samples_of_score, const SamplingPlan& plan,
                                             std::optional<double> incumbent_low) {
  DT_ASSERT(plan.min_samples >= 1 && plan.min_samples <= plan.max_samples);
  const auto n = static_cast<int>(samples_of_score.size());
  if (n < plan.min_samples) return std::nullopt;
  const Interval interval = median_interval(samples_of_score);
  if (incumbent_low && interval.high < *incumbent_low) return SamplingStop::clearly_slower;
  if (plan.stop_when_precise && relative_half_width(interval, median(samples_of_score)) <= plan.target_half_width)
    return SamplingStop::precise;
  if (n >= plan.max_samples) return SamplingStop::max_samples;
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, const AdaptiveSamples& samples) {
  return out << samples.samples.size() << " samples (" << to_string(samples.stop) << ")";
}

std::vector<double> values_of(const std::vector<Sample>& samples) {
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
  if (plan.warmup) {
    auto warmup = sampler.warmup();
    if (!warmup) return warmup.error();
    result.warmup = *warmup;
    if (after_sample) after_sample();
  }
  std::vector<double> scores;
  for (;;) {
    auto sample = sampler.sample();
    if (!sample) return sample.error();
    result.samples.push_back(*sample);
    scores.push_back(sample->value);
    if (after_sample) after_sample();
    if (hopeless(result, plan, incumbent_low)) {
      result.stop = SamplingStop::clearly_slower;
      return result;
    }
    if (const auto stop = sampling_verdict(scores, plan, incumbent_low)) {
      result.stop = *stop;
      return result;
    }
  }
}

}  // namespace disktune::bench
