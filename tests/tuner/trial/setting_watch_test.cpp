// SPDX-License-Identifier: GPL-2.0-or-later
// SettingWatch: a setting another process changes and changes back during a measurement is seen.
#include "tests/support/confirm_round.hpp"
#include "tuner/trial/setting_watch.hpp"

#include "tests/support/measure_baseline.hpp"
#include "tests/support//fake_block_io.hpp"
#include "tests/support/trial_settings.hpp"
#include "tests/support/setting_values.hpp"
#include "tuner/trial/trial_runner.hpp"
#include "tuner/trial/trial_verdict.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using strategies::TrialStatus;
using testing::num;

namespace {

// A SIMULATED device: `on_read(n)` runs before the n-th data read (0-based, counted over
// every BlockIo it opened): another process acting while the measurement reads. Settings
// not in `trusted` read back as untrusted (as Linux's ATA knobs); reads are counted.
class ToggledDevice final : public probe::Device {
 public:
  probe::Settings values{{SettingId::read_ahead_kb, num(128)}, {SettingId::nr_requests, num(64)}};
  std::set<SettingId> trusted{SettingId::read_ahead_kb, SettingId::nr_requests};
  std::map<SettingId, int> reads_of;
  std::function<void(std::size_t, ToggledDevice&)> on_read = [](std::size_t, ToggledDevice&) {};
  std::size_t data_reads = 0;

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return true; }
  probe::Result<probe::IdentifyInfo> identify() override {
    return probe::Error{std::make_error_code(std::errc::not_supported), "identify", path_};
  }
  std::vector<probe::Capability> capabilities() override { return {}; }
  probe::Result<SettingValue> read(SettingId id) override {
    ++reads_of[id];
    return values.at(id);
  }
  probe::Result<void> apply(SettingId id, const SettingValue& value) override {
    values[id] = value;
    return {};
  }
  probe::Result<probe::Settings> snapshot() override { return values; }
  [[nodiscard]] bool read_back_trusted(SettingId id) const override { return trusted.contains(id); }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode) override {
    return std::unique_ptr<probe::BlockIo>(std::make_unique<Io>(*this));
  }

 private:
  class Io final : public probe::BlockIo {
   public:
    explicit Io(ToggledDevice& device) : device_(device) {}
    probe::Result<void> read_at(std::uint64_t offset, std::span<std::byte> buffer) override {
      device_.on_read(device_.data_reads++, device_);
      return fake_.read_at(offset, buffer);
    }
    probe::Result<void> flush_cache() override { return fake_.flush_cache(); }
    probe::Result<void> drop_cached(std::uint64_t offset, std::uint64_t length) override {
      return fake_.drop_cached(offset, length);
    }
    probe::Result<probe::Seconds> settle(probe::Seconds bound) override { return fake_.settle(bound); }
    std::optional<std::uint64_t> completed_bytes() override { return fake_.completed_bytes(); }
    [[nodiscard]] std::uint64_t size_bytes() const override { return fake_.size_bytes(); }
    probe::Clock& clock() override { return fake_.clock(); }

   private:
    ToggledDevice& device_;
    testing::FakeBlockIo fake_{{.size_bytes = 256u << 20, .disk_mib_s = 100.0}};
  };

  std::string path_ = "sim:toggled";
};

// A sample's reads: 10 chunks of 2 MiB at 100 MiB/s (0.2 s); the warm-up's, a third of that
// (bench::ReadSampler): reads of 20 ms until 67 ms.
constexpr std::size_t kSampleReads = 10, kWarmupReads = 4;

tuner::TrialSettings in_process() {
  return testing::in_process_trial_settings(bench::disk_read_workload(probe::Seconds(0.2), false),
                                            bench::SamplingPlan{2, 2, 0.02, true}, 2);
}

// nr_requests is 32 from data read `from` to read `to` (exclusive), then back at 64.
void toggle_nr_requests(ToggledDevice& device, std::size_t from, std::size_t to) {
  device.on_read = [from, to](std::size_t n, ToggledDevice& d) {
    if (n == from) d.values[SettingId::nr_requests] = num(32);
    if (n == to) d.values[SettingId::nr_requests] = num(64);
  };
}

}  // namespace

TEST_CASE("a setting changed and changed back within one sample makes the trial unstable, naming it and when",
          "[tuner]") {
  ToggledDevice device;
  const auto original = device.values;
  // The warm-up's reads, then sample 1's; nr_requests is 32 during its reads 3-5 only.
  toggle_nr_requests(device, kWarmupReads + 3, kWarmupReads + 6);
  tuner::TrialRunner runner(device, original, in_process());
  const auto trial = runner.run(probe::with_changes(original, {{SettingId::read_ahead_kb, num(0)}})).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::unstable);
  REQUIRE_THAT(trial->detail, Catch::StartsWith(std::string(tuner::kChangedPrefix)) &&
                                  Catch::Contains("nr_requests changed from 64 to 32 during sample 1") &&
                                  Catch::Contains("read back as claimed again after measuring"));
  REQUIRE(device.values == original);
}

TEST_CASE("a setting toggled during the warm-up is named as changed during the warm-up", "[tuner]") {
  ToggledDevice device;
  const auto original = device.values;
  toggle_nr_requests(device, 1, 3);  // within the warm-up's reads
  tuner::TrialRunner runner(device, original, in_process());
  const auto trial = runner.run(probe::with_changes(original, {{SettingId::read_ahead_kb, num(0)}})).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::unstable);
  REQUIRE_THAT(trial->detail, Catch::Contains("nr_requests changed from 64 to 32 during the warm-up"));
}

TEST_CASE("a setting toggled during a confirmation unit makes that contender unstable", "[tuner]") {
  ToggledDevice device;
  const auto original = device.values;
  // Units of a warm-up, a kept sample and the data checksum's 8 block reads: contender 1's is
  // round 1's second; its kept sample's reads 3-4.
  constexpr std::size_t unit = kWarmupReads + kSampleReads + 8;
  toggle_nr_requests(device, unit + kWarmupReads + 3, unit + kWarmupReads + 5);
  tuner::TrialRunner runner(device, original, in_process());
  const auto results =
      testing::confirm_round(runner, {original, probe::with_changes(original, {{SettingId::read_ahead_kb, num(0)}})});
  REQUIRE(results.has_value());
  REQUIRE((*results)[0].status == TrialStatus::ok);
  REQUIRE((*results)[1].status == TrialStatus::unstable);
  REQUIRE_THAT((*results)[1].detail, Catch::Contains("nr_requests changed from 64 to 32 during sample 1"));
  REQUIRE(device.values == original);
}

TEST_CASE("the watch compares only settings whose read-back the device trusts", "[tuner]") {
  ToggledDevice device;
  device.trusted = {SettingId::read_ahead_kb};
  tuner::SettingWatch watch(device, device.values, false);
  device.values[SettingId::nr_requests] = num(8);  // untrusted: never read while measuring
  watch.next_sample();
  REQUIRE_FALSE(watch.change().has_value());
  REQUIRE(device.reads_of[SettingId::nr_requests] == 0);
  REQUIRE(device.reads_of[SettingId::read_ahead_kb] == 1);
  device.values[SettingId::read_ahead_kb] = num(4096);
  watch.next_sample();
  REQUIRE(watch.change() == std::optional<std::string>("read_ahead_kb changed from 128 to 4096 during sample 2"));
}

TEST_CASE("the watch compares at most once per interval of the measurement's clock while reading", "[tuner]") {
  ToggledDevice device;
  probe::VirtualClock clock;
  tuner::SettingWatch watch(device, device.values, true, probe::Seconds(0.01));
  for (int i = 0; i < 10; ++i) {  // 10 reads 4 ms apart: comparisons at 0, 12, 24, 36 ms
    watch.check_every(clock);
    clock.advance(probe::Seconds(0.004));
  }
  REQUIRE(device.reads_of[SettingId::nr_requests] == 4);
}

TEST_CASE("a baseline during which another process changed a setting is an error that says so", "[tuner]") {
  ToggledDevice device;
  const auto original = device.values;
  toggle_nr_requests(device, kWarmupReads + 2, kWarmupReads + 4);  // during the first baseline child's sample 1
  tuner::TrialRunner runner(device, original, in_process());
  const auto baseline = testing::measure_baseline(runner);
  REQUIRE_FALSE(baseline.has_value());
  REQUIRE(tuner::baseline_changed_behind(baseline.error()));
  REQUIRE_THAT(baseline.error().message(), Catch::Contains("nr_requests changed from 64 to 32 during sample 1") &&
                                               !Catch::Contains("Input/output error"));
}
