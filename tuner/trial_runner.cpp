// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: the child's work (apply, read back, measure, checksum) and the parent's verdict.
#include "tuner/trial_runner.hpp"

#include "bench/stats.hpp"
#include "probe/configuration.hpp"
#include "probe/device_names.hpp"
#include "probe/device_progress.hpp"
#include "probe/heartbeat_block_io.hpp"
#include "probe/in_flight.hpp"
#include "probe/kernel_log.hpp"
#include "probe/watchdog.hpp"
#include "strategies/evaluator.hpp"
#include "tuner/time_limits.hpp"
#include "tuner/trial_wire.hpp"

#include <boost/crc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace disktune::tuner {
namespace {

using strategies::TrialResult;
using strategies::TrialStatus;

constexpr std::size_t kCrcBlocks = 8;
constexpr std::size_t kCrcBlockBytes = 64 * 1024;

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

// The settings of `all` a measurement does not change.
probe::Settings unchanged_settings(const probe::Settings& all, const probe::Settings& changes) {
  probe::Settings kept;
  for (const auto& [id, value] : all)
    if (!changes.contains(id)) kept.emplace(id, value);
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
  cached.duration = bench::Seconds(2.0);  // hdparm -T times 2 s
  auto samples = bench::run_samples(io, cached, repeats);
  if (!samples) return samples.error();
  std::vector<double> rates;
  for (const auto& s : *samples) rates.push_back(s.mib_s);
  return bench::median(rates);
}

double seconds_of(const std::vector<bench::Sample>& samples) {
  double total = 0.0;
  for (const auto& s : samples) total += s.elapsed.count();
  return total;
}

// The trial child's body: apply, read every setting back, THEN open (a file's readahead
// window is fixed at open), measure, read every setting back again, checksum.
ChildReport measure(probe::Device& device, const probe::Settings& original, const probe::Settings& changes,
                    const TrialSettings& settings, bool with_cached, const strategies::TrialRequest& request,
                    probe::Heartbeat& heartbeat) {
  ChildReport r;
  auto fail = [&r](TrialStatus status, std::string detail) {
    r.status = status;
    r.detail = std::move(detail);
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
  bench::SamplingPlan plan = settings.sampling;
  if (request.quick) plan.max_samples = plan.min_samples;
  auto sampled = bench::run_adaptive(beating, settings.workload, plan, request.incumbent_low_mib_s);
  if (!sampled)
    return fail(TrialStatus::error, "read error during measurement: " + sampled.error().message() + also);
  if (!ineffective.empty()) return fail(TrialStatus::unstable, std::string(kIneffectivePrefix) + ineffective);
  r.samples = bench::rates_mib_s(sampled->samples);
  r.warmup_mib_s = sampled->warmup ? sampled->warmup->mib_s : 0.0;
  r.stop = std::string(bench::to_string(sampled->stop));
  r.measured_s = seconds_of(sampled->samples) + (sampled->warmup ? sampled->warmup->elapsed.count() : 0.0);
  if (with_cached) {
    auto cached = cached_median(beating, settings.workload, plan.min_samples);
    if (!cached) return fail(TrialStatus::error, "cached reads: " + cached.error().message());
    r.cached_mib_s = *cached;
  }
  if (auto moved = after_check(device, probe::with_changes(original, changes))) return fail(moved->status, moved->detail);
  auto crc = data_checksum(beating);
  if (!crc) return fail(TrialStatus::error, "integrity read: " + crc.error().message());
  r.crc = *crc;
  return r;
}

// What a killed child's limits were, to say which one fired and how to raise it.
struct LimitNote {
  bench::Seconds timeout{0.0};
  std::optional<bench::Seconds> stall;
  bool derived = false;        // from the baseline's rate, not given as an option
  std::uint64_t chunk_bytes = 0;
};

std::string rate_text(double mib_s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g MiB/s", mib_s);
  return text;
}

// The rate a killed child reached: the device's sectors read, else one chunk per heartbeat.
double reached_mib_s(const probe::ChildOutcome& outcome, std::uint64_t chunk_bytes) {
  const double seconds = std::max(outcome.elapsed.count(), 1e-3);
  const double bytes = outcome.progress > 0 ? static_cast<double>(outcome.progress)
                                            : static_cast<double>(outcome.heartbeats) * static_cast<double>(chunk_bytes);
  return bytes / seconds / (1024.0 * 1024.0);
}

// A child killed at its time limit while still progressing is slow; one that stopped
// progressing (the stall limit fired, or silent for 2 s, half the stall limit if shorter,
// when the time limit fired) hung.
TrialResult killed_trial(const probe::ChildOutcome& outcome, const LimitNote& limits) {
  TrialResult trial;
  const std::string origin = limits.derived ? "derived from the baseline's rate" : "as given";
  // Progress shows every 10-200 ms while a child reads (heartbeats, the device's sectors).
  const bench::Seconds recent = std::min(bench::Seconds{2.0}, limits.stall.value_or(bench::Seconds{4.0}) / 2.0);
  const bool progressing = !outcome.stalled && outcome.since_progress < recent;
  if (progressing) {
    trial.status = TrialStatus::slow;
    trial.detail = "slow: reached about " + rate_text(reached_mib_s(outcome, limits.chunk_bytes)) +
                   ", still reading when the trial time limit fired (" + outcome.detail + "; " + origin +
                   "; raise it with --trial-timeout S)";
    return trial;
  }
  trial.status = TrialStatus::hang;
  trial.detail = "trial hung: " + outcome.detail +
                 (outcome.stalled ? " (the stall limit, " + origin + "; raise it with --stall-timeout S)"
                                  : " (the trial time limit, " + origin + "; raise it with --trial-timeout S)");
  return trial;
}

TrialResult from_outcome(const probe::ChildOutcome& outcome, const LimitNote& limits) {
  if (outcome.end == probe::ChildEnd::timed_out) return killed_trial(outcome, limits);
  TrialResult trial;
  if (outcome.end == probe::ChildEnd::stopped) {
    trial.status = TrialStatus::error;
    trial.detail = outcome.detail;
    return trial;
  }
  if (outcome.end == probe::ChildEnd::wedged) {
    trial.status = TrialStatus::wedged;
    trial.detail = "device wedged: " + outcome.detail;
    return trial;
  }
  const auto report = outcome.end == probe::ChildEnd::finished ? deserialize(outcome.payload) : std::nullopt;
  if (!report) {
    trial.status = TrialStatus::error;
    trial.detail = "trial process failed: " + outcome.detail;
    return trial;
  }
  trial.status = report->status;
  trial.samples_mib_s = report->samples;
  trial.detail = report->detail;
  trial.warmup_mib_s = report->warmup_mib_s;
  trial.sampling_stop = report->stop;
  trial.measured_s = report->measured_s;
  if (trial.status == TrialStatus::ok) strategies::summarize_samples(trial);
  return trial;
}

// One unit of the confirmation round: back to the original, this contender's changes,
// every setting read back, THEN the device opened (a file's readahead window is fixed at
// open: a BlockIo opened earlier would measure the previous contender's readahead), a
// warm-up sample and one kept sample, every setting read back again.
std::optional<Failure> measure_unit(probe::Device& device, const probe::Settings& original,
                                    const probe::Settings& contender, const TrialSettings& settings,
                                    probe::Heartbeat& heartbeat, ChildReport& r) {
  // The whole contender, not only its changes: the previous unit's values are undone too.
  const auto changes = strategies::changes_from(original, contender);
  const auto applied = apply_changes(device, probe::with_changes(original, changes), heartbeat);
  if (applied.refused) return applied.refused;
  if (!applied.ineffective.empty())
    return Failure{TrialStatus::unstable, std::string(kIneffectivePrefix) + applied.ineffective};
  if (auto moved = unchanged_check(device, original, changes)) return moved;
  auto opened = device.open_io(probe::IoMode::buffered);
  if (!opened) return Failure{TrialStatus::error, opened.error().message()};
  probe::HeartbeatBlockIo beating(**opened, heartbeat);
  auto samples = bench::run_samples(beating, settings.workload, 2);  // warm-up, then the kept one
  if (!samples) return Failure{TrialStatus::error, "read error during measurement: " + samples.error().message()};
  if (auto moved = after_check(device, probe::with_changes(original, changes))) return moved;
  r.samples.push_back((*samples)[1].mib_s);
  r.measured_s += seconds_of(*samples);
  return std::nullopt;
}

// Confirmation round: every contender in turn, rounds times, each unit measured as
// measure_unit says. A contender that fails once is not applied again.
std::vector<ChildReport> measure_interleaved(probe::Device& device, const probe::Settings& original,
                                             const std::vector<probe::Settings>& contenders,
                                             const TrialSettings& settings, probe::Heartbeat& heartbeat) {
  std::vector<ChildReport> reports(contenders.size());
  for (int round = 0; round < settings.confirm_rounds; ++round)
    for (std::size_t i = 0; i < contenders.size(); ++i) {
      ChildReport& r = reports[i];
      if (r.status != TrialStatus::ok) continue;
      if (auto failed = measure_unit(device, original, contenders[i], settings, heartbeat, r)) {
        r.status = failed->status;
        r.detail = std::move(failed->detail);
      }
    }
  return reports;
}

std::vector<TrialResult> confirmation_results(const probe::ChildOutcome& outcome,
                                              const std::vector<probe::Settings>& contenders) {
  std::vector<TrialResult> results(contenders.size());
  const auto reports = outcome.end == probe::ChildEnd::finished ? deserialize_reports(outcome.payload, contenders.size())
                                                                 : std::nullopt;
  for (std::size_t i = 0; i < contenders.size(); ++i) {
    TrialResult& trial = results[i];
    trial.settings = contenders[i];
    if (!reports) {
      trial.status = outcome.end == probe::ChildEnd::timed_out ? TrialStatus::hang
                     : outcome.end == probe::ChildEnd::wedged  ? TrialStatus::wedged
                                                               : TrialStatus::error;
      trial.detail = "confirmation round failed: " + outcome.detail;
      continue;
    }
    const ChildReport& r = (*reports)[i];
    trial.status = r.status;
    trial.samples_mib_s = r.samples;
    trial.detail = r.detail;
    trial.measured_s = r.measured_s;
    trial.sampling_stop = "confirmation";
    if (trial.status == TrialStatus::ok && !trial.samples_mib_s.empty()) strategies::summarize_samples(trial);
  }
  return results;
}

// Any ATA or I/O error the kernel logged about the device fails the trial, and is kept.
void add_kernel_log_evidence(TrialResult& trial, std::vector<std::string> errors) {
  if (errors.empty()) return;
  trial.kernel_log = std::move(errors);
  if (trial.status != TrialStatus::ok) return;
  trial.status = TrialStatus::unstable;
  trial.median_mib_s = 0.0;
  trial.detail = "kernel logged errors during the trial: " + trial.kernel_log.front();
}

}  // namespace

TrialRunner::TrialRunner(probe::Device& device, probe::Settings original, TrialSettings settings)
    : device_(device), original_(std::move(original)), settings_(settings), stall_(settings.stall) {}

probe::ChildOutcome TrialRunner::run_body(const std::function<std::string(probe::Heartbeat&)>& body,
                                          bench::Seconds timeout, bool stoppable) {
  if (!settings_.in_process) {
    probe::WatchHooks hooks;
    if (stoppable) hooks.stop_now = settings_.stop_now;
    // A real device's sectors read count as progress: one slow read() is not a stall.
    if (!device_.simulated())
      hooks.progress = [name = probe::kernel_name(device_.path())] { return probe::device_bytes_read(name); };
    auto outcome = probe::run_in_child(body, probe::WatchLimits{timeout, stall_, bench::Seconds{2.0}, true}, hooks);
    if (outcome.end == probe::ChildEnd::timed_out && !device_.simulated()) check_reads_drained(outcome);
    stopped_ = outcome.end == probe::ChildEnd::stopped;
    return outcome;
  }
  probe::ChildOutcome outcome;  // the same body, run here: simulated drives only (evaluate)
  probe::Heartbeat unwatched;
  outcome.end = probe::ChildEnd::finished;
  outcome.exit_code = 0;
  outcome.payload = body(unwatched);
  return outcome;
}

TrialResult TrialRunner::result_of(const probe::ChildOutcome& outcome) const {
  return from_outcome(outcome, LimitNote{settings_.timeout, stall_, settings_.derive_limits && !settings_.stall,
                                         settings_.workload.chunk_bytes});
}

// A killed reader's requests stay queued until the device answers; if they never drain,
// the device is wedged even though the child itself is gone.
void TrialRunner::check_reads_drained(probe::ChildOutcome& outcome) const {
  const long stuck = probe::reads_stuck_in_flight(probe::kernel_name(device_.path()), bench::Seconds{2.0});
  if (stuck == 0) return;
  outcome.end = probe::ChildEnd::wedged;
  outcome.detail += "; " + std::to_string(stuck) + " read(s) of " + device_.path() +
                    " still in flight 2 s after the child was killed: the device no longer completes reads";
}

// The first wedged child names the device's state for the rest of the run.
void TrialRunner::note_wedged(const probe::ChildOutcome& outcome, std::string_view what) {
  if (outcome.end == probe::ChildEnd::wedged && wedged_detail_.empty())
    wedged_detail_ = std::string(what) + ": " + outcome.detail;
}

TrialResult TrialRunner::run_child(const probe::Settings& config, bool with_cached,
                                   const strategies::TrialRequest& request) {
  const auto changes = strategies::changes_from(original_, config);
  const auto outcome = run_body(
      [&](probe::Heartbeat& heartbeat) {
        const ChildReport report = measure(device_, original_, changes, settings_, with_cached, request, heartbeat);
        (void)device_.restore(original_);  // the parent restores again and checks
        return serialize(report);
      },
      settings_.timeout);
  note_wedged(outcome, changes.empty() ? "baseline" : "trial " + probe::format_settings(changes));
  TrialResult trial = result_of(outcome);
  trial.settings = config;
  if (outcome.end == probe::ChildEnd::finished) {
    if (const auto parsed = deserialize(outcome.payload)) {
      last_cached_mib_s_ = parsed->cached_mib_s;
      last_crc_ = parsed->crc;
    }
  }
  return trial;
}

namespace {

// errc::timed_out for a baseline that was merely slow: a limit fired, the device is fine.
probe::Error baseline_error(const TrialResult& trial, const std::string& path) {
  const auto code = trial.status == TrialStatus::slow ? std::errc::timed_out : std::errc::io_error;
  return probe::Error{std::make_error_code(code),
                      "measure the baseline (" + std::string(to_string(trial.status)) + ": " + trial.detail + ")", path};
}

}  // namespace

probe::Result<BaselineMeasurement> TrialRunner::measure_baseline() {
  BaselineMeasurement baseline;
  // Before any rate is known, a stall is a long silence of the device itself.
  if (settings_.derive_limits && !settings_.stall) stall_ = bench::Seconds(kFirstStallS);
  baseline.trial = run_child(original_, true, {});
  if (baseline.trial.status != TrialStatus::ok) return baseline_error(baseline.trial, device_.path());
  baseline.cached_median_mib_s = last_cached_mib_s_;
  baseline.data_crc32 = last_crc_;
  adopt_baseline(baseline);
  auto repeated = remeasure_baseline(settings_.noise_repeats);
  if (!repeated) return repeated.error();
  repeated->insert(repeated->begin(), baseline.trial.samples_mib_s);
  set_noise(baseline, *repeated);
  baseline.measured_s = baseline.trial.measured_s + noise_measured_s_;
  return baseline;
}

void set_noise(BaselineMeasurement& baseline, const std::vector<std::vector<double>>& trials) {
  baseline.aa_samples_mib_s.clear();
  for (const auto& samples : trials) baseline.aa_samples_mib_s.push_back(bench::median(samples));
  baseline.noise_floor_pct = bench::repeat_noise(trials).pct;
}

probe::Result<std::vector<std::vector<double>>> TrialRunner::remeasure_baseline(int count) {
  std::vector<std::vector<double>> trials;
  noise_measured_s_ = 0.0;
  for (int i = 0; i < count; ++i) {
    TrialResult again = run_child(original_, false, {});
    noise_measured_s_ += again.measured_s;
    if (again.status != TrialStatus::ok) return baseline_error(again, device_.path());
    trials.push_back(again.samples_mib_s);
  }
  return trials;
}

void TrialRunner::limits_from_rate(double rate_mib_s) {
  const TrialShape shape{settings_.workload.duration, settings_.sampling.min_samples, settings_.sampling.max_samples,
                         settings_.workload.chunk_bytes};
  if (settings_.derive_limits) settings_.timeout = trial_time_limit(shape, rate_mib_s, false);
  // A chunk takes chunk/rate seconds at the baseline's rate; far longer silence is a stall.
  if (!settings_.stall) {
    const double chunk_mib = static_cast<double>(settings_.workload.chunk_bytes) / (1024.0 * 1024.0);
    stall_ = probe::stall_limit_for(bench::Seconds(chunk_mib / rate_mib_s), settings_.timeout);
  }
}

void TrialRunner::adopt_baseline(const BaselineMeasurement& baseline) {
  baseline_crc_ = baseline.data_crc32;
  if (baseline.trial.median_mib_s > 0.0) limits_from_rate(baseline.trial.median_mib_s);
}

probe::Result<TrialResult> TrialRunner::run(const probe::Settings& config,
                                            const strategies::TrialRequest& request) {
  // Simulated drives log nothing to the kernel; a real one is watched for the trial's span.
  std::optional<probe::KernelLogWatch> kernel_log;
  if (!device_.simulated()) kernel_log.emplace(probe::kernel_name(device_.path()));
  TrialResult trial = run_child(config, false, request);
  if (kernel_log) add_kernel_log_evidence(trial, kernel_log->new_errors());
  if (trial.status == TrialStatus::wedged) return trial;  // a restore from here could block too
  // On data in use the file system writes too: a checksum difference proves nothing.
  if (trial.status == TrialStatus::ok && baseline_crc_ && !settings_.data_in_use && last_crc_ != *baseline_crc_) {
    trial.status = TrialStatus::unstable;
    trial.detail = "data read under this configuration differs from the baseline (CRC-32 mismatch): corruption";
    trial.median_mib_s = 0.0;
  }
  if (auto restored = restore_watched(); !restored) {
    if (wedged_detail_.empty()) return restored.error();
    return mark_wedged(std::move(trial), "device wedged after the trial");
  }
  if (stopped_) return trial;  // killed to stop the run: nothing says the device is at fault
  if (trial.status != TrialStatus::ok) {
    if (auto readable = verify_readable(); !readable) {
      if (!wedged_detail_.empty()) return mark_wedged(std::move(trial), "device wedged after the trial");
      unreadable_ = true;
      return readable.error();
    }
  }
  return trial;
}

TrialResult TrialRunner::mark_wedged(TrialResult trial, std::string_view why) const {
  trial.status = TrialStatus::wedged;
  trial.detail = (trial.detail.empty() ? "" : trial.detail + "; ") + std::string(why) + ": " + wedged_detail_;
  trial.median_mib_s = 0.0;
  return trial;
}

probe::Result<void> TrialRunner::restore_watched() {
  // A simulated drive's state lives in this process (and cannot wedge): restore it here.
  if (settings_.in_process || device_.simulated()) return device_.restore(original_);
  // Writing a handful of settings takes milliseconds; 10 s (or the stall limit) is a hang.
  const bench::Seconds limit = std::min(settings_.timeout, std::max(bench::Seconds{10.0}, stall_.value_or(bench::Seconds{0.0})));
  const auto outcome = probe::run_in_child(
      [&](probe::Heartbeat&) {
        const auto restored = device_.restore(original_);
        return restored ? std::string() : restored.error().message();
      },
      probe::WatchLimits{limit, std::nullopt, bench::Seconds{2.0}, true});
  if (outcome.end == probe::ChildEnd::finished && outcome.payload.empty()) return {};
  if (outcome.end == probe::ChildEnd::wedged) restore_blocks_ = true;
  note_wedged(outcome, "restore");
  const bool hung = outcome.end == probe::ChildEnd::timed_out || outcome.end == probe::ChildEnd::wedged;
  const std::string why = outcome.end == probe::ChildEnd::finished ? outcome.payload : outcome.detail;
  return probe::Error{std::make_error_code(hung ? std::errc::timed_out : std::errc::io_error),
                      "restore the original settings (" + why + ")", device_.path()};
}

// In a watchdog child: a drive wedged by the trial could block this read for ever.
probe::Result<void> TrialRunner::verify_readable() {
  const auto outcome = run_body(
      [this](probe::Heartbeat&) {
        auto io = device_.open_io(probe::IoMode::buffered);
        if (!io) return io.error().message();
        if (auto flushed = (*io)->flush_cache(); !flushed) return flushed.error().message();
        std::vector<std::byte> block(kCrcBlockBytes);
        if (auto read = (*io)->read_at(0, block); !read) return read.error().message();
        return std::string();
      },
      settings_.timeout, false);
  if (outcome.end == probe::ChildEnd::finished && outcome.payload.empty()) return {};
  note_wedged(outcome, "read check after the restore");
  const std::string why = outcome.end == probe::ChildEnd::finished ? outcome.payload : outcome.detail;
  return probe::Error{std::make_error_code(std::errc::io_error),
                      "read a block after restoring the original settings (" + why +
                          "); the device may need a reset",
                      device_.path()};
}

probe::Result<std::vector<TrialResult>> TrialRunner::confirm(const std::vector<probe::Settings>& contenders) {
  // One child for the whole round; its time limit grows with the samples it takes.
  const double samples = 2.0 * settings_.confirm_rounds * static_cast<double>(contenders.size());
  const double per_trial = 1.0 + settings_.sampling.max_samples;
  const bench::Seconds timeout = settings_.timeout * std::max(1.0, samples / per_trial);
  const auto outcome = run_body(
      [&](probe::Heartbeat& heartbeat) {
        auto reports = measure_interleaved(device_, original_, contenders, settings_, heartbeat);
        (void)device_.restore(original_);
        return serialize_reports(reports);
      },
      timeout);
  note_wedged(outcome, "confirmation round");
  auto results = confirmation_results(outcome, contenders);
  if (!wedged_detail_.empty())
    return probe::Error{std::make_error_code(std::errc::timed_out), "confirmation round: device wedged",
                        device_.path()};
  if (auto restored = restore_watched(); !restored) return restored.error();
  return results;
}

}  // namespace disktune::tuner
