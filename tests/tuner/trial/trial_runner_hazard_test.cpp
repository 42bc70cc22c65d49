// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner against a SIMULATED device with libata's multcount hazard: detect, restore, verify it reads.
#include "tuner/trial/trial_runner.hpp"

#include "tests/support/fake_block_io.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <set>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using strategies::TrialStatus;

namespace {

// A SIMULATED drive with one knob, multcount: 0 makes every read fail with EIO (what libata
// does after a raw SET MULTIPLE 0, docs/architecture.md "The ATA lab"); counts in `rejected` are aborted
// by the drive (EIO); `wedge_on_restore` makes the drive unreadable after the parent's restore.
class HazardDevice final : public probe::Device {
 public:
  std::int64_t multcount = 16;
  std::set<std::int64_t> rejected;
  bool wedge_on_restore = false;
  bool wedged = false;

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return true; }
  probe::Result<probe::IdentifyInfo> identify() override {
    return probe::Error{std::make_error_code(std::errc::not_supported), "identify", path_};
  }
  std::vector<probe::Capability> capabilities() override { return {{SettingId::multcount, probe::Support::supported, {}, ""}}; }
  probe::Result<SettingValue> read(SettingId) override { return SettingValue(multcount); }
  probe::Result<void> apply(SettingId, const SettingValue& value) override {
    if (rejected.count(value.number()))
      return probe::errno_error(EIO, "SG_IO ATA_16 SET MULTIPLE MODE (ATA status 0x51 error 0x04)", path_);
    multcount = value.number();
    return {};
  }
  probe::Result<probe::Settings> snapshot() override { return probe::Settings{{SettingId::multcount, SettingValue(multcount)}}; }
  probe::Result<void> restore(const probe::Settings& settings) override {
    auto restored = Device::restore(settings);
    if (wedge_on_restore) wedged = true;
    return restored;
  }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode) override {
    testing::FakeBlockIoConfig config;
    config.size_bytes = 16u << 20;
    if (multcount == 0 || wedged) config.fail_read_index = 0;
    return std::unique_ptr<probe::BlockIo>(std::make_unique<testing::FakeBlockIo>(config));
  }

 private:
  std::string path_ = "sim:hazard";
};

tuner::TrialSettings quick() {
  return {bench::Workload{bench::Method::buffered, 0, 2u << 20, probe::Seconds(0.2)},
          bench::SamplingPlan{2, 2, 0.02, false}, probe::Seconds(10.0), false, 6, std::nullopt};
}

probe::Settings multcount(std::int64_t value) { return {{SettingId::multcount, SettingValue(value)}}; }

}  // namespace

TEST_CASE("TrialRunner: multcount 0 read errors are an error trial, restored, and the drive still reads",
          "[cli]") {
  HazardDevice device;
  tuner::TrialRunner runner(device, multcount(16), quick());
  const auto ran = runner.run(multcount(0));
  const auto& trial = ran.result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::error);
  REQUIRE_THAT(trial->detail, Catch::StartsWith("read error during measurement: "));
  REQUIRE_THAT(trial->detail, Catch::Contains(std::strerror(EIO)));
  REQUIRE(device.multcount == 16);
  REQUIRE_FALSE(ran.health.unreadable());
}

TEST_CASE("TrialRunner: a count the drive rejects is an error with the rejected prefix", "[cli]") {
  HazardDevice device;
  device.rejected = {4};
  tuner::TrialRunner runner(device, multcount(16), quick());
  auto trial = runner.run(multcount(4)).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::error);
  REQUIRE_THAT(trial->detail, Catch::StartsWith("rejected by the device: SG_IO ATA_16 SET MULTIPLE MODE"));
}

TEST_CASE("TrialRunner: a drive that no longer reads after the restore stops the run", "[cli]") {
  HazardDevice device;
  device.wedge_on_restore = true;
  tuner::TrialRunner runner(device, multcount(16), quick());
  const auto ran = runner.run(multcount(0));
  const auto& trial = ran.result;
  REQUIRE_FALSE(trial.has_value());
  REQUIRE(ran.health.unreadable());
  REQUIRE_THAT(trial.error().message(), Catch::Contains("the device may need a reset"));
  REQUIRE_THAT(trial.error().message(), Catch::Contains("read a block after restoring the original settings"));
}

TEST_CASE("TrialRunner: an ok trial is not followed by the readability check", "[cli]") {
  HazardDevice device;
  device.wedge_on_restore = true;  // would fail the check if it ran
  tuner::TrialRunner runner(device, multcount(16), quick());
  const auto ran = runner.run(multcount(8));
  const auto& trial = ran.result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::ok);
  REQUIRE_FALSE(ran.health.unreadable());
}
