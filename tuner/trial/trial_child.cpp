// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's body, one for every kind of trial, and the read check (run inside the watchdog child).
#include "tuner/trial/trial_child.hpp"

#include "tuner/trial/sampler_factory.hpp"

#include "bench/stats.hpp"
#include "probe/configuration.hpp"
#include "probe/watch/heartbeat_block_io.hpp"
#include "tuner/trial/setting_watch.hpp"

#include <boost/crc.hpp>

#include <optional>

namespace disktune::tuner {
namespace {

using strategies::TrialStatus;

constexpr std::size_t kCrcBlocks = 8;

// A setting the driver refuses is "unsupported"; EIO means the drive rejected it.
TrialStatus apply_failure_status(const probe::Error& error) {
  return error.is_unsupported() ? TrialStatus::unsupported : TrialStatus::error;
}

std::string apply_failure_detail(const probe::Error& error) {
  if (!error.is_unsupported() && error.code == std::errc::io_error)
    return std::string(kRejectedPrefix) + error.message();
  return "apply: " + error.message();
}

// "" when every setting reads back as `expected`, else each that differs ("X reads back A
// instead of B", joined by "; ").
std::string readback_mismatch(probe::Device& device, const probe::Settings& expected) {
  std::string differs;
  for (const auto& [id, value] : expected) {
    const auto now = device.read(id);
    std::string what;
    if (!now)
      what = "cannot read back " + std::string(probe::setting_name(id)) + ": " + now.error().message();
    else if (*now != value)
      what = std::string(probe::setting_name(id)) + " reads back " + probe::format_value(id, *now) +
             " instead of " + probe::format_value(id, value);
    if (!what.empty()) differs += (differs.empty() ? "" : "; ") + what;
  }
  return differs;
}

// The settings of `original` a measurement of `changes` does not change, as they exist after
// the changes (a scheduler switch removes the old scheduler's tunables).
probe::Settings unchanged_settings(const probe::Settings& original, const probe::Settings& changes) {
  probe::Settings kept = probe::with_changes(original, changes);
  std::erase_if(kept, [&changes](const auto& entry) { return changes.contains(entry.first); });
  return kept;
}

struct Failure {
  TrialStatus status;
  std::string detail;
};

// What applying a configuration came to: a setting the device refused (nothing measured),
// or what did not read back (still measured: a drive's read-back can lie).
struct Applied {
  std::optional<Failure> refused;
  std::string ineffective;
};

// Sets the device to `target` through probe::apply_configuration (coupling-aware, every
// setting read back, re-written until it holds), beating after each write.
Applied apply_changes(probe::Device& device, const probe::Settings& target, probe::Heartbeat& heartbeat) {
  heartbeat.beat();
  const auto done = probe::apply_configuration(device, target, [&heartbeat] { heartbeat.beat(); });
  if (done) return {};
  if (probe::is_not_read_back(done.error())) return {std::nullopt, done.error().op};
  return {Failure{apply_failure_status(done.error()), apply_failure_detail(done.error())}, ""};
}

// A setting the measurement does not change that no longer reads back as the original
// (another process, or the kernel coupling it to a changed one) makes it unstable.
std::optional<Failure> unchanged_check(probe::Device& device, const probe::Settings& original,
                                       const probe::Settings& changes) {
  const auto moved = readback_mismatch(device, unchanged_settings(original, changes));
  if (moved.empty()) return std::nullopt;
  return Failure{TrialStatus::unstable, std::string(kChangedPrefix) + moved + " before measuring"};
}

// After measuring, every setting must still read back as the configuration claims.
std::optional<Failure> after_check(probe::Device& device, const probe::Settings& expected) {
  const auto moved = readback_mismatch(device, expected);
  if (moved.empty()) return std::nullopt;
  return Failure{TrialStatus::unstable, std::string(kChangedPrefix) + moved + " after measuring"};
}

// A setting the watch saw change while measuring (another process toggling it, perhaps
// back again) makes the measurement unstable; the detail says whether it came back.
std::optional<Failure> watch_check(const SettingWatch& watch, probe::Device& device, const probe::Settings& expected) {
  if (!watch.change()) return std::nullopt;
  const auto after = after_check(device, expected);
  const std::string then = after ? "; then " + after->detail.substr(kChangedPrefix.size())
                                 : "; every setting read back as claimed again after measuring";
  return Failure{TrialStatus::unstable, std::string(kChangedPrefix) + *watch.change() + then};
}

// CRC-32 of a fixed sample of blocks spread over the device: the same blocks under every
// configuration, so any difference from the baseline means the data was read wrongly.
probe::Result<std::uint32_t> data_checksum(probe::BlockIo& io) {
  boost::crc_32_type crc;
  std::vector<std::byte> block(kCrcBlockBytes);
  const std::uint64_t stride = io.size_bytes() / kCrcBlocks / 4096 * 4096;
  for (std::size_t i = 0; i < kCrcBlocks; ++i) {
    if (auto read = io.read_at(i * stride, block); !read) return read.error();
    crc.process_bytes(block.data(), block.size());
  }
  return crc.checksum();
}

probe::Result<double> cached_median(probe::BlockIo& io, const bench::Workload& buffered, int repeats) {
  bench::Workload cached = buffered;
  cached.method = bench::Method::cached;
  cached.duration = probe::Seconds(2.0);  // hdparm -T times 2 s
  auto samples = bench::run_samples(io, cached, repeats);
  if (!samples) return samples.error();
  std::vector<double> rates;
  for (const auto& s : *samples) rates.push_back(s.value);
  return bench::median(rates);
}

double seconds_of(const std::vector<bench::Sample>& samples) {
  double total = 0.0;
  for (const auto& s : samples) total += s.elapsed.count();
  return total;
}

// The guard objective's figures: the plan's minimum samples of settings.guard through its
// own sampler on the same opened device, no adaptive stop; nullopt without a guard.
probe::Result<std::optional<strategies::GuardFigures>> measure_guard(probe::Device& device, probe::BlockIo& io,
                                                                     const TrialSettings& settings,
                                                                     const std::function<void()>& hook) {
  if (!settings.guard) return std::optional<strategies::GuardFigures>{};
  TrialSettings guarded = settings;
  guarded.objective = *settings.guard;
  auto sampler = make_sampler(device, io, guarded);
  if (!sampler) return sampler.error();
  bench::SamplingPlan plan = settings.sampling;
  plan.max_samples = plan.min_samples;
  auto sampled = bench::run_adaptive(**sampler, plan, std::nullopt, hook);
  if (!sampled) return sampled.error();
  auto figures = strategies::guard_figures_of(bench::values_of(sampled->samples));
  figures.measured_s = seconds_of(sampled->samples) + (sampled->warmup ? sampled->warmup->elapsed.count() : 0.0);
  return std::optional{std::move(figures)};
}

// A configuration as the child applies and checks it, worked out once: the settings it
// changes from the original, and every setting as it must read back.
struct Target {
  probe::Settings changes;
  probe::Settings expected;  // the original with the changes
};

Target target_of(const probe::Settings& original, const probe::Settings& config) {
  auto changes = strategies::changes_from(original, config);
  auto expected = probe::with_changes(original, changes);
  return {std::move(changes), std::move(expected)};
}

}  // namespace

// The trial child's body: apply, read every setting back, THEN open (a file's readahead
// window is fixed at open), measure, read every setting back again, checksum.
ChildReport measure_trial(probe::Device& device, const probe::Settings& original, const TrialPlan& trial_plan,
                          const TrialSettings& settings, probe::Heartbeat& heartbeat) {
  const auto [changes, expected] = target_of(original, trial_plan.config);
  ChildReport r = ok_report();
  auto fail = [&r](TrialStatus status, std::string detail) {
    r.trial.status = status;
    r.trial.detail = std::move(detail);
    return r;
  };
  const auto applied = apply_changes(device, changes, heartbeat);
  if (applied.refused) return fail(applied.refused->status, applied.refused->detail);
  // A value that does not read back is still measured: a drive's read-back can lie (QEMU
  // keeps word 59 at 16 after SET MULTIPLE 0) while the setting's effect, e.g. EIO on every
  // read, is the evidence that matters.
  const std::string& ineffective = applied.ineffective;
  const std::string also = ineffective.empty() ? "" : "; " + std::string(kIneffectivePrefix) + ineffective;
  if (auto moved = unchanged_check(device, original, changes)) return fail(moved->status, moved->detail + also);
  auto opened = device.open_io(probe::IoMode::buffered);
  if (!opened) return fail(TrialStatus::error, opened.error().message() + also);
  probe::HeartbeatBlockIo beating(**opened, heartbeat);
  const bench::SamplingPlan& plan = trial_plan.sampling;
  SettingWatch watch(device, expected, plan.warmup);
  SettingWatchBlockIo watched(beating, watch);
  auto sampler = make_sampler(device, watched, settings);
  if (!sampler) return fail(TrialStatus::error, sampler.error().message() + also);
  auto sampled = bench::run_adaptive(**sampler, plan, trial_plan.incumbent_low, [&watch] { watch.next_sample(); });
  if (!sampled)
    return fail(TrialStatus::error, "read error during measurement: " + sampled.error().message() + also);
  if (!ineffective.empty()) return fail(TrialStatus::unstable, std::string(kIneffectivePrefix) + ineffective);
  r.trial.samples = bench::values_of(sampled->samples);
  for (const auto& sample : sampled->samples) {
    r.trial.sample_seconds.push_back(sample.elapsed.count());
    if (sample.completions > 0) r.trial.sample_completions.push_back(sample.completions);
  }
  if (r.trial.sample_completions.size() != r.trial.samples.size()) r.trial.sample_completions.clear();
  r.trial.latency = bench::pooled_latency(sampled->samples);
  r.trial.warmup = sampled->warmup ? sampled->warmup->value : 0.0;
  r.trial.sampling_stop = std::string(bench::to_string(sampled->stop));
  r.trial.measured_s = seconds_of(sampled->samples) + (sampled->warmup ? sampled->warmup->elapsed.count() : 0.0);
  if (trial_plan.guard) {
    auto guard = measure_guard(device, watched, settings, [&watch] { watch.next_sample(); });
    if (!guard) return fail(TrialStatus::error, "guard objective: " + guard.error().message());
    r.trial.guard = std::move(*guard);
  }
  if (trial_plan.cached) {
    auto cached = cached_median(beating, settings.workload, plan.min_samples);
    if (!cached) return fail(TrialStatus::error, "cached reads: " + cached.error().message());
    r.cached_median_mib_s = *cached;
  }
  if (auto moved = watch_check(watch, device, expected)) return fail(moved->status, moved->detail);
  if (auto moved = after_check(device, expected)) return fail(moved->status, moved->detail);
  auto crc = data_checksum(beating);
  if (!crc) return fail(TrialStatus::error, "integrity read: " + crc.error().message());
  r.data_crc32 = *crc;
  return r;
}

std::string read_first_block(probe::Device& device) {
  auto io = device.open_io(probe::IoMode::buffered);
  if (!io) return io.error().message();
  if (auto flushed = (*io)->flush_cache(); !flushed) return flushed.error().message();
  std::vector<std::byte> block(kCrcBlockBytes);
  if (auto read = (*io)->read_at(0, block); !read) return read.error().message();
  return std::string();
}

}  // namespace disktune::tuner
