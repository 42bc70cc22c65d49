// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: the child's work (apply, read back, measure, checksum) and the parent's verdict.
#include "tuner/trial_runner.hpp"

#include "bench/stats.hpp"
#include "probe/device_names.hpp"
#include "probe/kernel_log.hpp"
#include "probe/watchdog.hpp"
#include "strategies/evaluator.hpp"

#include <boost/crc.hpp>
#include <boost/json.hpp>

#include <vector>

namespace disktune::tuner {
namespace {

namespace json = boost::json;
using strategies::TrialResult;
using strategies::TrialStatus;

constexpr std::size_t kCrcBlocks = 8;
constexpr std::size_t kCrcBlockBytes = 64 * 1024;

// What the child sends back through the watchdog pipe.
struct ChildReport {
  TrialStatus status = TrialStatus::ok;
  std::vector<double> samples;
  double cached_mib_s = 0.0;
  std::uint32_t crc = 0;
  std::string detail;
};

std::string serialize(const ChildReport& r) {
  json::array samples(r.samples.begin(), r.samples.end());
  return json::serialize(json::object{{"status", std::string(to_string(r.status))},
                                      {"samples", std::move(samples)},
                                      {"cached", r.cached_mib_s},
                                      {"crc", r.crc},
                                      {"detail", r.detail}});
}

std::optional<ChildReport> deserialize(const std::string& payload) {
  boost::system::error_code ec;
  const auto value = json::parse(payload, ec);
  if (ec || !value.is_object()) return std::nullopt;
  const auto& o = value.as_object();
  ChildReport r;
  r.status = strategies::trial_status_from_name(o.at("status").as_string()).value_or(TrialStatus::error);
  for (const auto& s : o.at("samples").as_array()) r.samples.push_back(s.to_number<double>());
  r.cached_mib_s = o.at("cached").to_number<double>();
  r.crc = o.at("crc").to_number<std::uint32_t>();
  r.detail = std::string(o.at("detail").as_string());
  return r;
}

// A setting the driver refuses is "unsupported"; EIO means the drive rejected it.
TrialStatus apply_failure_status(const probe::Error& error) {
  return error.is_unsupported() ? TrialStatus::unsupported : TrialStatus::error;
}

std::string apply_failure_detail(const probe::Error& error) {
  if (!error.is_unsupported() && error.code == std::errc::io_error)
    return std::string(kRejectedPrefix) + error.message();
  return "apply: " + error.message();
}

// "" when every setting reads back as `expected`, else what differs.
std::string readback_mismatch(probe::Device& device, const probe::Settings& expected) {
  for (const auto& [id, value] : expected) {
    const auto now = device.read(id);
    if (!now) return "cannot read back " + std::string(probe::setting_name(id)) + ": " + now.error().message();
    if (*now != value)
      return std::string(probe::setting_name(id)) + " reads back " + probe::format_value(id, *now) +
             " instead of " + probe::format_value(id, value);
  }
  return "";
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

ChildReport measure(probe::Device& device, const probe::Settings& changes, const TrialSettings& settings,
                    bool with_cached) {
  ChildReport r;
  auto fail = [&r](TrialStatus status, std::string detail) {
    r.status = status;
    r.detail = std::move(detail);
    return r;
  };
  for (const auto& [id, value] : changes)
    if (auto applied = device.apply(id, value); !applied)
      return fail(apply_failure_status(applied.error()), apply_failure_detail(applied.error()));
  // A value that does not read back is still measured: a drive's read-back can lie (QEMU
  // keeps word 59 at 16 after SET MULTIPLE 0) while the setting's effect, e.g. EIO on every
  // read, is the evidence that matters.
  const auto ineffective = readback_mismatch(device, changes);
  const std::string also = ineffective.empty() ? "" : "; " + std::string(kIneffectivePrefix) + ineffective;
  auto io = device.open_io(probe::IoMode::buffered);
  if (!io) return fail(TrialStatus::error, io.error().message() + also);
  auto samples = bench::run_samples(**io, settings.workload, settings.repeats);
  if (!samples)
    return fail(TrialStatus::error, "read error during measurement: " + samples.error().message() + also);
  for (const auto& s : *samples) r.samples.push_back(s.mib_s);
  if (!ineffective.empty()) return fail(TrialStatus::unstable, std::string(kIneffectivePrefix) + ineffective);
  if (with_cached) {
    auto cached = cached_median(**io, settings.workload, settings.repeats);
    if (!cached) return fail(TrialStatus::error, "cached reads: " + cached.error().message());
    r.cached_mib_s = *cached;
  }
  if (auto mismatch = readback_mismatch(device, changes); !mismatch.empty())
    return fail(TrialStatus::unstable, "reverted during the trial: " + mismatch);
  auto crc = data_checksum(**io);
  if (!crc) return fail(TrialStatus::error, "integrity read: " + crc.error().message());
  r.crc = *crc;
  return r;
}

TrialResult from_outcome(const probe::ChildOutcome& outcome) {
  TrialResult trial;
  if (outcome.end == probe::ChildEnd::timed_out) {
    trial.status = TrialStatus::hang;
    trial.detail = "trial hung: " + outcome.detail;
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
  if (trial.status == TrialStatus::ok && !trial.samples_mib_s.empty()) {
    trial.median_mib_s = bench::median(trial.samples_mib_s);
    trial.spread_pct = 50.0 * bench::relative_spread(trial.samples_mib_s);  // ± half the range
  }
  return trial;
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
    : device_(device), original_(std::move(original)), settings_(settings) {}

TrialResult TrialRunner::run_child(const probe::Settings& config, bool with_cached) {
  const auto changes = strategies::changes_from(original_, config);
  const auto outcome = probe::run_in_child(
      [&] {
        const ChildReport report = measure(device_, changes, settings_, with_cached);
        (void)device_.restore(original_);  // the parent restores again and checks
        return serialize(report);
      },
      settings_.timeout);
  TrialResult trial = from_outcome(outcome);
  trial.settings = config;
  if (outcome.end == probe::ChildEnd::finished) {
    if (const auto parsed = deserialize(outcome.payload)) {
      last_cached_mib_s_ = parsed->cached_mib_s;
      last_crc_ = parsed->crc;
    }
  }
  return trial;
}

probe::Result<BaselineMeasurement> TrialRunner::measure_baseline() {
  BaselineMeasurement baseline;
  baseline.trial = run_child(original_, true);
  if (baseline.trial.status != TrialStatus::ok)
    return probe::Error{std::make_error_code(std::errc::io_error),
                        "measure the baseline (" + std::string(to_string(baseline.trial.status)) + ": " +
                            baseline.trial.detail + ")",
                        device_.path()};
  baseline.cached_median_mib_s = last_cached_mib_s_;
  baseline.data_crc32 = last_crc_;
  baseline_crc_ = last_crc_;
  return baseline;
}

// In a watchdog child: a drive wedged by the trial could block this read for ever.
probe::Result<void> TrialRunner::verify_readable() {
  const auto outcome = probe::run_in_child(
      [this] {
        auto io = device_.open_io(probe::IoMode::buffered);
        if (!io) return io.error().message();
        if (auto flushed = (*io)->flush_cache(); !flushed) return flushed.error().message();
        std::vector<std::byte> block(kCrcBlockBytes);
        if (auto read = (*io)->read_at(0, block); !read) return read.error().message();
        return std::string();
      },
      settings_.timeout);
  if (outcome.end == probe::ChildEnd::finished && outcome.payload.empty()) return {};
  const std::string why = outcome.end == probe::ChildEnd::finished ? outcome.payload : outcome.detail;
  return probe::Error{std::make_error_code(std::errc::io_error),
                      "read a block after restoring the original settings (" + why +
                          "); the device may need a reset",
                      device_.path()};
}

probe::Result<TrialResult> TrialRunner::run(const probe::Settings& config) {
  // Simulated drives log nothing to the kernel; a real one is watched for the trial's span.
  std::optional<probe::KernelLogWatch> kernel_log;
  if (!device_.simulated()) kernel_log.emplace(probe::kernel_name(device_.path()));
  TrialResult trial = run_child(config, false);
  if (kernel_log) add_kernel_log_evidence(trial, kernel_log->new_errors());
  if (trial.status == TrialStatus::ok && baseline_crc_ && last_crc_ != *baseline_crc_) {
    trial.status = TrialStatus::unstable;
    trial.detail = "data read under this configuration differs from the baseline (CRC-32 mismatch): corruption";
    trial.median_mib_s = 0.0;
  }
  if (auto restored = device_.restore(original_); !restored) return restored.error();
  if (trial.status != TrialStatus::ok) {
    if (auto readable = verify_readable(); !readable) {
      unreadable_ = true;
      return readable.error();
    }
  }
  return trial;
}

}  // namespace disktune::tuner
