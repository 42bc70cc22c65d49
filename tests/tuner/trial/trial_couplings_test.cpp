// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner on a device whose queue settings are coupled: a trial measures what it reports.
#include "tests/support/confirm_round.hpp"
#include "tuner/trial/trial_runner.hpp"

#include "tests/support/fake_block_io.hpp"
#include "tests/support/setting_values.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using strategies::TrialStatus;
using testing::num;

namespace {

// A SIMULATED queue where a max_sectors_kb write raises read_ahead_kb to twice the value
// (and never lowers it); every open_io records the settings it measures under.
class CoupledQueue final : public probe::Device {
 public:
  probe::Settings state{{SettingId::max_sectors_kb, num(1280)}, {SettingId::read_ahead_kb, num(128)}};
  std::vector<probe::Settings> measured_under;

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return true; }
  probe::Result<probe::IdentifyInfo> identify() override { return probe::errno_error(ENOTTY, "identify", path_); }
  std::vector<probe::Capability> capabilities() override { return {}; }
  probe::Result<SettingValue> read(SettingId id) override { return state.at(id); }
  probe::Result<void> apply(SettingId id, const SettingValue& value) override {
    state[id] = value;
    if (id == SettingId::max_sectors_kb)
      state[SettingId::read_ahead_kb] =
          num(std::max(state.at(SettingId::read_ahead_kb).number(), 2 * value.number()));
    return {};
  }
  probe::Result<probe::Settings> snapshot() override { return state; }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode) override {
    measured_under.push_back(state);
    testing::FakeBlockIoConfig config;
    config.size_bytes = 16u << 20;
    return std::unique_ptr<probe::BlockIo>(std::make_unique<testing::FakeBlockIo>(config));
  }

 private:
  std::string path_ = "sim:coupled-queue";
};

tuner::TrialSettings quick() {
  tuner::TrialSettings settings{bench::Workload{bench::Method::buffered, 0, 2u << 20, probe::Seconds(0.2)},
                                bench::SamplingPlan{2, 2, 0.02, false}, probe::Seconds(10.0), true, 2, std::nullopt};
  return settings;
}

}  // namespace

TEST_CASE("TrialRunner: a trial of max_sectors_kb measures at the read_ahead_kb it reports", "[tuner]") {
  CoupledQueue device;
  const auto original = device.state;
  tuner::TrialRunner runner(device, original, quick());
  const auto config = probe::with_changes(original, {{SettingId::max_sectors_kb, num(512)}});
  auto trial = runner.run(config).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::ok);
  REQUIRE_FALSE(device.measured_under.empty());
  for (const auto& under : device.measured_under) {
    INFO("measured under " << probe::format_settings(under));
    REQUIRE(under == config);
  }
  REQUIRE(device.state == original);  // restored, read_ahead_kb included
}

TEST_CASE("TrialRunner: the confirmation round measures every finalist as reported", "[tuner]") {
  CoupledQueue device;
  const auto original = device.state;
  tuner::TrialRunner runner(device, original, quick());
  const std::vector<probe::Settings> finalists{
      original, probe::with_changes(original, {{SettingId::max_sectors_kb, num(256)}}),
      probe::with_changes(original, {{SettingId::max_sectors_kb, num(1024)}, {SettingId::read_ahead_kb, num(64)}})};
  auto results = testing::confirm_round(runner, finalists);
  REQUIRE(results.has_value());
  for (const auto& result : *results) {
    INFO(probe::format_settings(result.settings) << ": " << result.detail);
    REQUIRE(result.status == TrialStatus::ok);
  }
  REQUIRE(device.state == original);
}

namespace {

// A SIMULATED queue with the kernel's scheduler coupling: queue/iosched/fifo_batch exists
// only under mq-deadline (a switch away removes it, a switch back recreates it at 16), and
// reading it under another scheduler fails with ENOENT as sysfs does.
class SchedulerQueue final : public probe::Device {
 public:
  probe::Settings state{{SettingId::read_ahead_kb, num(128)},
                        {SettingId::scheduler, SettingValue("mq-deadline")},
                        {SettingId::fifo_batch, num(8)}};

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return true; }
  probe::Result<probe::IdentifyInfo> identify() override { return probe::errno_error(ENOTTY, "identify", path_); }
  std::vector<probe::Capability> capabilities() override { return {}; }
  probe::Result<SettingValue> read(SettingId id) override {
    const auto found = state.find(id);
    if (found == state.end()) return probe::errno_error(ENOENT, "read queue/iosched/fifo_batch", path_);
    return found->second;
  }
  probe::Result<void> apply(SettingId id, const SettingValue& value) override {
    if (id == SettingId::fifo_batch && !state.contains(id))
      return probe::errno_error(ENOENT, "write queue/iosched/fifo_batch", path_);
    state[id] = value;
    if (id == SettingId::scheduler) {
      state.erase(SettingId::fifo_batch);
      if (value.text() == "mq-deadline") state[SettingId::fifo_batch] = num(16);
    }
    return {};
  }
  probe::Result<probe::Settings> snapshot() override { return state; }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode) override {
    testing::FakeBlockIoConfig config;
    config.size_bytes = 16u << 20;
    return std::unique_ptr<probe::BlockIo>(std::make_unique<testing::FakeBlockIo>(config));
  }

 private:
  std::string path_ = "sim:scheduler-queue";
};

}  // namespace

// Seen in the ATA lab: every trial of scheduler=none was "cannot read back fifo_batch", so
// the scheduler was never measured on a disk whose baseline runs mq-deadline.
TEST_CASE("TrialRunner: a trial that switches the scheduler does not expect the old one's tunables", "[tuner]") {
  SchedulerQueue device;
  const auto original = device.state;
  tuner::TrialRunner runner(device, original, quick());
  const probe::Settings none{{SettingId::read_ahead_kb, num(128)}, {SettingId::scheduler, SettingValue("none")}};
  REQUIRE(probe::with_changes(original, {{SettingId::scheduler, SettingValue("none")}}) == none);
  auto trial = runner.run(none).result;
  REQUIRE(trial.has_value());
  INFO(trial->detail);
  REQUIRE(trial->status == TrialStatus::ok);
  auto confirmed = testing::confirm_round(runner, {original, none});
  REQUIRE(confirmed.has_value());
  for (const auto& result : *confirmed) {
    INFO(probe::format_settings(result.settings) << ": " << result.detail);
    REQUIRE(result.status == TrialStatus::ok);
  }
  REQUIRE(device.state == original);  // fifo_batch 8 again, not the switch's default 16
}
