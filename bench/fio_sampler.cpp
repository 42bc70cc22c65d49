// SPDX-License-Identifier: GPL-2.0-or-later
// FioSampler: run fio for one sample (ending it once its rate is steady) and turn its JSON into the objective's score.
#include "bench/fio_sampler.hpp"

#include "bench/fio_job.hpp"
#include "bench/fio_output.hpp"
#include "bench/fio_process.hpp"
#include "probe/core/assert.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace disktune::bench {
namespace {

// Watches fio's --status-interval reports for a steady count (bytes or completions).
class SteadyWatch {
 public:
  SteadyWatch(Metric metric, probe::Seconds duration) : metric_(metric), duration_(duration) {}

  // True once the reports so far are steady: fio should finish.
  bool steady(std::string_view out) {
    const auto documents = fio_documents(out);
    for (; parsed_ < documents.size(); ++parsed_) {
      const auto figures = parse_fio_output(documents[parsed_]);
      if (!figures || figures->runtime.count() <= 0.0) continue;
      t_.push_back(figures->runtime.count());
      count_.push_back(count_of(*figures));
    }
    if (rate_) return true;
    rate_ = steady_slope(t_, count_, fio_steady_rule(), duration_.count());
    return rate_.has_value();
  }
  [[nodiscard]] std::optional<double> rate() const { return rate_; }
  [[nodiscard]] double count_of(const FioFigures& figures) const {
    return metric_ == Metric::bw ? static_cast<double>(figures.io_bytes) : static_cast<double>(figures.ios);
  }

 private:
  Metric metric_;
  probe::Seconds duration_;
  std::size_t parsed_ = 0;
  std::vector<double> t_, count_;
  std::optional<double> rate_;
};

// The figure of a sample fio finished early: its count extended to the duration at the steady rate.
double projected_figure(Metric metric, double count, double elapsed_s, double rate, double duration_s) {
  const double per_second =
      elapsed_s < duration_s ? (count + rate * (duration_s - elapsed_s)) / duration_s : count / elapsed_s;
  return metric == Metric::bw ? per_second / (1024.0 * 1024.0) : per_second;
}

}  // namespace

SteadyRule fio_steady_rule() {
  SteadyRule rule;
  rule.enabled = true;
  rule.min_window_chunks = 8;
  // A rate that keeps drifting must not be projected: an EMULATED 2 GiB hdd's zones slow by
  // ~10 % within a 3 s sample, and 3 % between the halves of its first second projected
  // 3.5-4 % too high; 1 %, and the drift shows before a stop.
  rule.max_drift = 0.01;
  rule.max_relative_se = 0.01;  // half the winner rule's 2 % minimum gain
  return rule;
}

long fio_status_interval_ms(probe::Seconds duration) {
  return std::max(100L, std::lround(duration.count() * 1000.0 / 30.0));
}

FioSampler::FioSampler(const Objective& objective, probe::HeldName device, probe::Seconds duration, bool steady_stop)
    : objective_(objective), device_(std::move(device)), duration_(duration), steady_stop_(steady_stop) {
  DT_ASSERT(objective.engine == Engine::fio);
  DT_ASSERT(device_.fd >= 0 && !device_.path.empty());
  DT_ASSERT(duration.count() > 0.0);
}

bool FioSampler::steady_applies() const {
  return steady_stop_ && objective_.job_file.empty() && (objective_.metric == Metric::bw || objective_.metric == Metric::iops);
}

probe::Result<Sample> FioSampler::sample() { return sample_for(duration_); }

probe::Result<Sample> FioSampler::warmup() {
  if (!objective_.job_file.empty()) return sample_for(duration_);
  const auto size = builtin_warmup(objective_, duration_);
  return sample_for(size.duration, size.completions);
}

probe::Result<Sample> FioSampler::sample_completions(std::uint64_t completions) {
  return sample_for(duration_, completions);
}

probe::Result<Sample> FioSampler::sample_for(probe::Seconds duration, std::optional<std::uint64_t> completions) {
  if (!objective_.job_file.empty() && objective_.checked_job.empty()) {
    // Checked here only when the caller did not (a trial child gets a checked objective).
    auto resolved = check_fio_job(objective_, device_.shown);
    if (!resolved) return resolved.error();
    objective_ = std::move(*resolved);
  }
  if (auto same = probe::check_held(device_); !same) return same.error();
  auto args = fio_arguments(objective_, device_.path, duration, completions);
  FioLimits limits{objective_.checked_job, fio_time_limit(objective_, duration), {}};
  limits.inherit_fd = device_.fd;
  SteadyWatch watch(objective_.metric, duration);
  if (steady_applies()) {
    args.push_back("--status-interval=" + std::to_string(fio_status_interval_ms(duration)) + "ms");
    limits.finish = [&watch](std::string_view out) { return watch.steady(out); };
  }
  const auto run = run_fio(args, limits);
  if (!run) return run.error();
  // Asked to finish, fio 3.33 exits 128 after its final report; that report still decides.
  if (run->exit_code != 0 && !run->finished_early)
    return probe::Error{std::make_error_code(std::errc::io_error),
                        "fio on " + device_.shown + " failed: " + fio_message(*run), ""};
  const auto figures = parse_fio_output(run->out);
  if (!figures) return figures.error();
  auto figure = figure_for(objective_, *figures);
  if (!figure) return figure.error();
  const bool steady = run->finished_early && watch.rate() && figures->runtime.count() > 0.0;
  if (steady)
    figure = projected_figure(objective_.metric, watch.count_of(*figures), figures->runtime.count(), *watch.rate(),
                              duration.count());
  Sample sample{score_of(objective_, *figure), figures->io_bytes, figures->runtime, steady};
  sample.completions = figures->ios;
  if (percentile_completions(objective_)) {
    sample.latency.fraction = percentile_fraction(objective_.metric);
    sample.latency.bins = figures->clat_bins;
  }
  return sample;
}

probe::Result<std::string> fio_version(const std::function<bool()>& stop) {
  const auto run = run_fio({"--version"}, FioLimits{"", kFioQuickLimit, stop});
  if (!run) return run.error();
  if (run->exit_code != 0)
    return probe::Error{std::make_error_code(std::errc::io_error), "fio --version failed: " + fio_message(*run), ""};
  std::string version = run->out.substr(0, run->out.find('\n'));
  return version;
}

}  // namespace disktune::bench
