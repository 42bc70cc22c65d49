// SPDX-License-Identifier: GPL-2.0-or-later
// SimSampler: the random-read model's figures as samples, with the simulated drive's noise.
#include "bench/sim_sampler.hpp"

#include "bench/sim_latency.hpp"

#include "probe/core/assert.hpp"
#include "probe/sim/sim_device.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <chrono>
#include <thread>
#include <utility>

namespace disktune::bench {
namespace {

constexpr double kSlowFactor = 4.0;         // as a "slow" fault slows a simulated read
constexpr double kErrorCostS = 30e-3;       // a failed command before the driver reports EIO
// Coefficient of variation of one read's service time: random 4 KiB reads on a disk (a uniform
// rotational wait plus a square-root seek: about 0.35) and 1 MiB sequential ones (transfer-bound).
constexpr double kRandomCv = 0.35;
constexpr double kSequentialCv = 0.05;
constexpr std::uint64_t kSamplerSalt = 0x51a5a3d1e5ULL;  // keeps these noise streams apart

struct Named {
  std::string_view name;
  probe::SimWorkload workload;
};

constexpr std::array<Named, 3> kWorkloads{{
    {"seq-read-direct", {1u << 20, 16, false}},
    {"rand-read-iops", {4096, 32, true}},
    {"rand-read-latency", {4096, 1, true}},
}};

std::uint64_t text_hash(std::string_view text) {
  std::uint64_t hash = kSamplerSalt;
  for (const char c : text) hash = probe::mix64(hash ^ static_cast<unsigned char>(c));
  return hash;
}

// Digest of the queue configuration (not in SimState, so not in sim_state_hash).
std::uint64_t queue_hash(const probe::QueueConfig& queue) {
  std::uint64_t hash = text_hash(queue.scheduler);
  for (const std::int64_t v : {std::int64_t{queue.nr_requests}, std::int64_t{queue.max_sectors_kb},
                               std::int64_t{queue.nomerges},
                               std::int64_t{queue.device_queue_depth.value_or(-1)}})
    hash = probe::mix64(hash ^ static_cast<std::uint64_t>(v));
  return hash;
}

double figure_of_metric(Metric metric, const probe::SimFigures& figures) {
  switch (metric) {
    case Metric::bw: return figures.mib_s;
    case Metric::iops: return figures.iops;
    case Metric::p99: return figures.p99_latency_s * 1e6;
    case Metric::p999: return figures.p999_latency_s * 1e6;
  }
  return 0.0;
}

probe::Error not_supported(const std::string& what, const std::string& path) {
  return probe::Error{std::make_error_code(std::errc::not_supported), what, path};
}

class SimSampler final : public Sampler {
 public:
  SimSampler(std::shared_ptr<probe::SimCore> core, Objective objective,
             probe::SimWorkload workload, probe::Seconds duration)
      : core_(std::move(core)), objective_(std::move(objective)), workload_(workload),
        duration_(duration), key_(text_hash(objective_.name)),
        open_index_(core_->opens.next(probe::mix64(key_ ^ config_hash()))) {}

  probe::Result<Sample> sample() override { return sample_up_to(std::nullopt, duration_); }
  probe::Result<Sample> sample_completions(std::uint64_t completions) override {
    return sample_up_to(completions, duration_);
  }
  // As fio's (builtin_warmup), so that the SIMULATED clock pays what a real one would.
  probe::Result<Sample> warmup() override {
    const auto size = builtin_warmup(objective_, duration_);
    return sample_up_to(size.completions, size.duration);
  }

 private:
  probe::Result<Sample> sample_up_to(std::optional<std::uint64_t> bound, probe::Seconds duration) {
    const probe::Settings settings = probe::sim_settings(core_->state);
    if (probe::has_fault(core_->profile, probe::FaultEffect::hang, settings)) hang_forever();
    if (probe::has_fault(core_->profile, probe::FaultEffect::eio, settings)) {
      core_->clock.advance(probe::Seconds(kErrorCostS));
      return probe::errno_error(EIO, "simulated " + objective_.name + " sample [eio fault: " +
                                         probe::format_settings(settings) + "]",
                                core_->path);
    }
    const probe::SimDriveConfig drive = probe::sim_drive_config(*core_);
    const probe::SimFigures figures = probe::sim_workload_figures(drive, workload_);
    // A percentile's sample ends after percentile_completions reads or at the duration (fio:
    // --number_ios with --runtime as the bound).
    double completions = figures.iops * duration.count();
    if (const auto wanted = percentile_completions(objective_))
      completions = std::min(completions, static_cast<double>(std::clamp<std::uint64_t>(bound.value_or(*wanted), 1, *wanted)));
    const probe::Seconds elapsed(figures.iops > 0.0 ? completions / figures.iops : duration.count());
    const bool latency = objective_.metric == Metric::p99 || objective_.metric == Metric::p999;
    // A noisy percentile draws its reads (sim_latency_draws): their own spread is its sampling
    // noise, and its samples pool as fio's do. Rates (and a noise-free profile) get the model's
    // figure times the noise their completions would give.
    const bool draws = latency && core_->profile.noise_pct > 0.0;
    const double noise_pct = draws ? core_->profile.noise_pct
                                   : sim_sample_noise_pct(objective_.metric, workload_, figures, completions,
                                                          core_->profile.noise_pct);
    const std::uint64_t stream = core_->seed ^ key_ ^ queue_hash(drive.queue);
    const std::uint64_t epoch = samples_++ ^ (open_index_ << 40);
    double time_factor = probe::noise_factor(stream, core_->state, epoch, 0, noise_pct);
    if (probe::has_fault(core_->profile, probe::FaultEffect::slow, settings))
      time_factor *= kSlowFactor;
    Sample sample;
    double figure = figure_of_metric(objective_.metric, figures) * (latency ? time_factor : 1.0 / time_factor);
    if (draws) {
      const auto reads = static_cast<std::uint64_t>(std::max(1.0, std::round(completions)));
      sample.latency = sim_latency_draws(figures, percentile_fraction(objective_.metric), reads,
                                         time_factor, probe::mix64(stream ^ probe::sim_state_hash(core_->state) ^ (epoch << 1)));
      figure = pooled_percentile(sample.latency)->value_us;
      sample.completions = reads;
    }
    core_->clock.advance(elapsed);
    sample.value = score_of(objective_, figure);
    sample.bytes = static_cast<std::uint64_t>(figures.iops / time_factor * elapsed.count() *
                                              static_cast<double>(workload_.block_bytes));
    sample.elapsed = elapsed;
    return sample;
  }

  [[noreturn]] static void hang_forever() {
    // As a simulated read under a "hang" fault: only the watchdog's kill ends it.
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
  }

  std::uint64_t config_hash() const {
    return probe::sim_state_hash(core_->state) ^ queue_hash(probe::sim_drive_config(*core_).queue);
  }

  std::shared_ptr<probe::SimCore> core_;
  Objective objective_;
  probe::SimWorkload workload_;
  probe::Seconds duration_;
  std::uint64_t key_;         // the objective's noise stream
  std::uint64_t open_index_;  // samplers opened before this one under the same settings
  std::uint64_t samples_ = 0;
};

}  // namespace

double sim_sample_noise_pct(Metric metric, const probe::SimWorkload& workload, const probe::SimFigures& figures,
                            double completions, double environment_pct) {
  if (environment_pct <= 0.0) return 0.0;  // a noise-free profile: the model's exact figures
  const double n = std::max(completions, 1.0);
  double sampling = 0.0;
  if (metric == Metric::p99 || metric == Metric::p999) {
    const bool p99 = metric == Metric::p99;
    const double beyond = 1.0 - percentile_fraction(metric);
    // sim_latency_draws' slopes: p50 to p99 (body), p99 on (tail); a p99 sits where they meet.
    const double body = (figures.p99_latency_s - figures.p50_latency_s) / std::log(50.0);
    const double tail = (figures.p999_latency_s - figures.p99_latency_s) / std::log(10.0);
    const double slope = p99 ? (body + tail) / 2.0 : tail;
    const double quantile = p99 ? figures.p99_latency_s : figures.p999_latency_s;
    sampling = quantile > 0.0 ? slope / (quantile * std::sqrt(std::max(n * beyond, 1.0))) : 0.0;
  } else {
    sampling = (workload.random ? kRandomCv : kSequentialCv) / std::sqrt(n);
  }
  return std::hypot(environment_pct, 100.0 * sampling);
}

probe::Result<probe::SimWorkload> sim_workload_of(const Objective& objective) {
  if (objective.engine == Engine::fio && objective.job_file.empty())
    for (const Named& named : kWorkloads)
      if (named.name == objective.name) return named.workload;
  return not_supported("objective " + objective.name +
                           " has no simulated workload (simulated: seq-read-direct, "
                           "rand-read-iops, rand-read-latency; seq-read reads the simulated "
                           "drive itself)",
                       "");
}

probe::Result<std::unique_ptr<Sampler>> make_sim_sampler(probe::Device& device,
                                                         const Objective& objective,
                                                         probe::Seconds duration) {
  DT_ASSERT(duration.count() > 0.0);
  auto core = probe::sim_core_of(device);
  if (!core)
    return not_supported("objective " + objective.name +
                             ": the simulated sampler needs a simulated drive (sim:)",
                         device.path());
  auto workload = sim_workload_of(objective);
  if (!workload) return workload.error();
  return std::unique_ptr<Sampler>(
      std::make_unique<SimSampler>(std::move(core), objective, *workload, duration));
}

}  // namespace disktune::bench
