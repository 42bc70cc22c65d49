// SPDX-License-Identifier: GPL-2.0-or-later
// bench through FioSampler: the samples, their figures in the objective's unit, the output.
#include "tuner/cli/fio_bench.hpp"

#include "tuner/cli/bench_json.hpp"

#include "bench/fio_job.hpp"
#include "bench/adaptive.hpp"
#include "bench/fio_sampler.hpp"
#include "bench/stats.hpp"
#include "results/pretty_json.hpp"
#include "results/report.hpp"
#include "tuner/device/open_device.hpp"
#include "tuner/host/emulation.hpp"
#include "tuner/cli/summaries.hpp"

#include <boost/json.hpp>

#include <sstream>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

std::string command_line(const std::vector<std::string>& args) {
  std::string text = "fio";
  for (const auto& a : args) text += " " + a;
  return text;
}

// The samples' completions pooled: the percentile a tune judges by (bench/latency_pool.hpp).
json::object pooled_json(const bench::PooledPercentile& p) {
  json::array interval{p.low_us, nullptr};
  if (p.high_us > 0.0) interval[1] = p.high_us;  // null: too few completions beyond it to bound it
  json::object o;
  o["figure"] = p.value_us;
  o["interval"] = std::move(interval);
  o["coverage"] = p.coverage;
  o["completions"] = p.completions;
  return o;
}

std::string pooled_line(const bench::Objective& objective, const bench::PooledPercentile& p) {
  std::ostringstream line;
  line.setf(std::ios::fixed);
  line.precision(1);
  line << "  pooled over " << p.completions << " completions: " << bench::to_string(objective.metric) << " "
       << p.value_us << " us, 95 % interval [" << p.low_us << ", ";
  if (p.high_us > 0.0) line << p.high_us << "]";
  else line << "unbounded: too few completions beyond it]";
  line << "\n";
  return line.str();
}

}  // namespace

ExitCode run_fio_bench(const Config& config, const probe::Device& device, std::ostream& out) {
  if (device.simulated())
    throw RunError(kExitUsage, "--objective " + config.measure.objectives[0].name +
                                   " is measured by fio on a block device; bench of the simulated drive measures seq-read only (tune and evaluate simulate the fio objectives)");
  const auto objective = bench::check_fio_job(config.measure.objectives[0], device.path());
  if (!objective) throw_device_error(objective.error());
  const auto version = bench::fio_version();
  if (!version) throw_device_error(version.error());
  const probe::Seconds duration(config.measure.duration_s);
  bench::FioSampler sampler(*objective, device.held(), duration, !config.measure.full_samples);
  std::vector<double> figures;
  std::vector<bench::Sample> samples;
  for (int i = 0; i < config.measure.repeats; ++i) {
    auto sample = sampler.sample();
    if (!sample) throw_device_error(sample.error());
    figures.push_back(bench::figure_of(*objective, sample->value));
    samples.push_back(std::move(*sample));
  }
  // A plain value and a flag, not an optional: g++ 12 warns of a maybe-uninitialized optional here.
  bench::PooledPercentile pooled{};
  bool has_pooled = false;
  if (const auto pool = bench::pooled_latency(samples))
    if (const auto p = bench::pooled_percentile(*pool)) pooled = *p, has_pooled = true;
  if (config.json) {
    const auto emulated_by = emulation_of(device);
    const auto backing_note = page_cache_note(device.held());
    json::object o{{"device", device.path()}, {"simulated", false},
                   {"emulated_by", emulated_by.empty() ? json::value(nullptr) : json::value(emulated_by)},
                   {"backing_note", backing_note.empty() ? json::value(nullptr) : json::value(backing_note)},
                   {"objective", objective->name},
                   {"metric", bench::to_string(objective->metric)}, {"unit", bench::unit_of(*objective)},
                   {"direction", bench::to_string(objective->direction)}, {"median", bench::median(figures)},
                   {"samples", json::array(figures.begin(), figures.end())},
                   {"median_interval", median_interval_or_null(figures)}, {"fio_version", *version},
                   {"method", command_line(bench::fio_arguments(*objective, device.held().path, duration)) +
                                  " (one run per sample, /proc/self/fd/N being the device disktune holds open; "
                                  "MB = 2^20 bytes; us = microseconds)"}};
    o["pooled"] = nullptr;
    if (has_pooled) o["pooled"] = pooled_json(pooled);
    out << results::pretty_json(o);
  } else {
    const auto kind = results::device_kind(false, !emulation_of(device).empty());
    out << objective_bench_summary(device.path() + (kind.empty() ? "" : " [" + kind + " drive]"), *objective, *version, figures);
    if (has_pooled) out << pooled_line(*objective, pooled);
  }
  return kExitOk;
}

}  // namespace disktune::tuner
