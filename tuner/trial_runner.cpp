// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner: the child's work (apply, read back, measure, checksum) and the parent's verdict.
#include "tuner/trial_runner.hpp"

#include "bench/stats.hpp"
#include "probe/heartbeat_block_io.hpp"
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

TrialStatus status_from_name(std::string_view name) {
  for (const auto s : {TrialStatus::ok, TrialStatus::hang, TrialStatus::error, TrialStatus::unsupported,
                       TrialStatus::unstable, TrialStatus::wedged})
    if (to_string(s) == name) return s;
  return TrialStatus::error;
}

std::optional<ChildReport> deserialize(const std::string& payload) {
  boost::system::error_code ec;
  const auto value = json::parse(payload, ec);
  if (ec || !value.is_object()) return std::nullopt;
  const auto& o = value.as_object();
  ChildReport r;
  r.status = status_from_name(o.at("status").as_string());
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
                    bool with_cached, probe::Heartbeat& heartbeat) {
  ChildReport r;
  auto fail = [&r](TrialStatus status, std::string detail) {
    r.status = status;
    r.detail = std::move(detail);
    return r;
  };
  heartbeat.beat();
  for (const auto& [id, value] : changes) {
    if (auto applied = device.apply(id, value); !applied)
      return fail(apply_failure_status(applied.error()), "apply: " + applied.error().message());
    heartbeat.beat();
  }
  if (auto mismatch = readback_mismatch(device, changes); !mismatch.empty())
    return fail(TrialStatus::unstable, "ineffective: " + mismatch);
  auto opened = device.open_io(probe::IoMode::buffered);
  if (!opened) return fail(TrialStatus::error, opened.error().message());
  probe::HeartbeatBlockIo io(**opened, heartbeat);
  auto samples = bench::run_samples(io, settings.workload, settings.repeats);
  if (!samples) return fail(TrialStatus::error, "read error during measurement: " + samples.error().message());
  for (const auto& s : *samples) r.samples.push_back(s.mib_s);
  if (with_cached) {
    auto cached = cached_median(io, settings.workload, settings.repeats);
    if (!cached) return fail(TrialStatus::error, "cached reads: " + cached.error().message());
    r.cached_mib_s = *cached;
  }
  if (auto mismatch = readback_mismatch(device, changes); !mismatch.empty())
    return fail(TrialStatus::unstable, "reverted during the trial: " + mismatch);
  auto crc = data_checksum(io);
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
  if (trial.status == TrialStatus::ok && !trial.samples_mib_s.empty()) {
    trial.median_mib_s = bench::median(trial.samples_mib_s);
    trial.spread_pct = 50.0 * bench::relative_spread(trial.samples_mib_s);  // ± half the range
  }
  return trial;
}

}  // namespace

TrialRunner::TrialRunner(probe::Device& device, probe::Settings original, TrialSettings settings)
    : device_(device), original_(std::move(original)), settings_(settings), stall_(settings.stall) {}

TrialResult TrialRunner::run_child(const probe::Settings& config, bool with_cached) {
  const auto changes = strategies::changes_from(original_, config);
  const auto outcome = probe::run_in_child(
      [&](probe::Heartbeat& heartbeat) {
        const ChildReport report = measure(device_, changes, settings_, with_cached, heartbeat);
        (void)device_.restore(original_);  // the parent restores again and checks
        return serialize(report);
      },
      probe::WatchLimits{settings_.timeout, stall_, bench::Seconds{2.0}, true});
  TrialResult trial = from_outcome(outcome);
  trial.settings = config;
  if (trial.status == TrialStatus::wedged && wedged_detail_.empty()) wedged_detail_ = outcome.detail;
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
  if (!settings_.stall && baseline.trial.median_mib_s > 0.0) {
    const double chunk_mib = static_cast<double>(settings_.workload.chunk_bytes) / (1024.0 * 1024.0);
    stall_ = probe::stall_limit_for(bench::Seconds(chunk_mib / baseline.trial.median_mib_s), settings_.timeout);
  }
  baseline.cached_median_mib_s = last_cached_mib_s_;
  baseline.data_crc32 = last_crc_;
  baseline_crc_ = last_crc_;
  return baseline;
}

probe::Result<TrialResult> TrialRunner::run(const probe::Settings& config) {
  TrialResult trial = run_child(config, false);
  if (trial.status == TrialStatus::wedged) return trial;  // a restore from here could block too
  if (trial.status == TrialStatus::ok && baseline_crc_ && last_crc_ != *baseline_crc_) {
    trial.status = TrialStatus::unstable;
    trial.detail = "data read under this configuration differs from the baseline (CRC-32 mismatch): corruption";
    trial.median_mib_s = 0.0;
  }
  // Restored from a watched child: a write that freezes the queue (scheduler, nr_requests)
  // waits for in-flight reads, which on a wedged device never complete.
  if (auto restored = restore_watched(); !restored) {
    if (wedged_detail_.empty()) return restored.error();
    trial.status = TrialStatus::wedged;
    trial.detail = (trial.detail.empty() ? "" : trial.detail + "; ") + "device wedged after the trial: " + wedged_detail_;
  }
  return trial;
}

probe::ChildOutcome TrialRunner::restore_in_child(bench::Seconds timeout) {
  return probe::run_in_child(
      [&](probe::Heartbeat&) {
        const auto restored = device_.restore(original_);
        return restored ? std::string() : restored.error().message();
      },
      probe::WatchLimits{timeout, std::nullopt, bench::Seconds{2.0}, true});
}

probe::Result<void> TrialRunner::restore_watched() {
  const auto outcome = restore_in_child(stall_.value_or(std::min(settings_.timeout, bench::Seconds{10.0})));
  if (outcome.end == probe::ChildEnd::finished && outcome.payload.empty()) return {};
  if (outcome.end == probe::ChildEnd::wedged) {
    restore_blocks_ = true;
    if (wedged_detail_.empty()) wedged_detail_ = "restore: " + outcome.detail;
  }
  const bool hung = outcome.end == probe::ChildEnd::timed_out || outcome.end == probe::ChildEnd::wedged;
  const std::string why = outcome.end == probe::ChildEnd::finished ? outcome.payload : outcome.detail;
  return probe::Error{std::make_error_code(hung ? std::errc::timed_out : std::errc::io_error),
                      "restore the original settings (" + why + ")", device_.path()};
}

}  // namespace disktune::tuner
