// SPDX-License-Identifier: GPL-2.0-or-later
// SettingsWriter: every restore path puts settings back through it, in process only for simulated drives.
#include "tuner/trial/settings_writer.hpp"

#include "tests/support/fake_block_io.hpp"
#include "tests/support/temp_dir.hpp"
#include "tuner/device_context.hpp"
#include "tuner/journal/run_journal.hpp"
#include "tuner/trial/trial_runner.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {

// One knob, read_ahead_kb; counts the writes made IN THIS PROCESS: a restore from a watched
// child writes to the child's copy and leaves `writes` at 0 here.
class CountingDevice final : public probe::Device {
 public:
  explicit CountingDevice(bool simulated) : simulated_(simulated) {}
  std::int64_t read_ahead_kb = 256;  // a trial's value, left by a crash
  int writes = 0;
  bool fail_writes = false;

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return simulated_; }
  probe::Result<probe::IdentifyInfo> identify() override {
    return probe::Error{std::make_error_code(std::errc::not_supported), "identify", path_};
  }
  std::vector<probe::Capability> capabilities() override {
    return {{SettingId::read_ahead_kb, probe::Support::supported, {}, ""}};
  }
  probe::Result<SettingValue> read(SettingId) override { return SettingValue(read_ahead_kb); }
  probe::Result<void> apply(SettingId, const SettingValue& value) override {
    if (fail_writes) return probe::errno_error(EIO, "write queue/read_ahead_kb", path_);
    ++writes;
    read_ahead_kb = value.number();
    return {};
  }
  probe::Result<probe::Settings> snapshot() override { return original(); }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode) override {
    return std::unique_ptr<probe::BlockIo>(std::make_unique<testing::FakeBlockIo>(testing::FakeBlockIoConfig{}));
  }
  [[nodiscard]] probe::Settings original() const {
    return {{SettingId::read_ahead_kb, SettingValue(read_ahead_kb)}};
  }

 private:
  bool simulated_;
  std::string path_ = "/dev/disktune-restorer-test";
};

probe::Settings read_ahead(std::int64_t kb) { return {{SettingId::read_ahead_kb, SettingValue(kb)}}; }

// A context over a CountingDevice that is not simulated (a real disk, to the restorer).
tuner::DeviceContext real_context(CountingDevice*& device) {
  tuner::DeviceContext context;
  auto owned = std::make_unique<CountingDevice>(false);
  device = owned.get();
  context.device = std::move(owned);
  context.original = read_ahead(128);
  return context;
}

// A journal whose start record holds read_ahead_kb=128, as a crashed run leaves it.
std::string crashed_journal(const testing::TempDir& dir, tuner::JournalOptions& config) {
  config.path = dir.path() + "/run.journal";
  CountingDevice* device = nullptr;
  auto context = real_context(device);
  device->read_ahead_kb = 128;
  std::ostringstream log;
  tuner::RunJournal::open(config, {}, context, {}, log);
  return *config.path;
}

}  // namespace

TEST_CASE("restorer: a simulated drive is restored in this process, through the converging apply", "[tuner]") {
  CountingDevice device(true);
  const tuner::SettingsWriter restorer(device);
  REQUIRE(restorer.in_process());
  const auto restored = restorer.restore(read_ahead(128));
  REQUIRE(restored.done);
  REQUIRE(device.writes == 1);
  REQUIRE(device.read_ahead_kb == 128);
}

TEST_CASE("restorer: a real device is restored from a watched child, never from this process", "[tuner]") {
  CountingDevice device(false);
  const tuner::SettingsWriter restorer(device);
  REQUIRE_FALSE(restorer.in_process());
  const auto restored = restorer.restore(read_ahead(128));
  REQUIRE(restored.done);
  REQUIRE(restored.end == probe::ChildEnd::finished);
  REQUIRE(device.writes == 0);
  device.fail_writes = true;
  const auto failed = restorer.restore(read_ahead(64));
  REQUIRE_FALSE(failed.done);
  REQUIRE(failed.done.error().code == std::errc::io_error);
  REQUIRE_THAT(failed.done.error().op, Catch::StartsWith("restore the original settings (write queue/read_ahead_kb"));
}

TEST_CASE("restorer: the restore guard restores through the restorer", "[tuner]") {
  CountingDevice simulated(true);
  CountingDevice real(false);
  {
    const tuner::SettingsWriter sim_restorer(simulated);
    const tuner::SettingsWriter real_restorer(real);
    const tuner::RestoreGuard sim_guard(sim_restorer, read_ahead(128));
    const tuner::RestoreGuard real_guard(real_restorer, read_ahead(128));
  }
  REQUIRE(simulated.read_ahead_kb == 128);
  REQUIRE(real.writes == 0);  // restored in a child
  CountingDevice dismissed(true);
  {
    const tuner::SettingsWriter restorer(dismissed);
    tuner::RestoreGuard guard(restorer, read_ahead(128));
    guard.dismiss();
  }
  REQUIRE(dismissed.writes == 0);
}

TEST_CASE("restorer: opening the journal puts a crashed run's settings back from a watched child",
          "[tuner]") {
  const testing::TempDir dir("restorer");
  tuner::JournalOptions config;
  crashed_journal(dir, config);
  CountingDevice* device = nullptr;
  auto context = real_context(device);  // the device holds the crashed trial's 256
  std::ostringstream log;
  const auto journal = tuner::RunJournal::open(config, {}, context, {}, log);
  REQUIRE_THAT(log.str(), Catch::Contains("restored the original settings recorded in"));
  REQUIRE(device->writes == 0);  // not in this process: in a watched child
}

TEST_CASE("restorer: disktune restore puts the journal's settings back from a watched child", "[tuner]") {
  const testing::TempDir dir("restorer");
  tuner::JournalOptions config;
  crashed_journal(dir, config);
  CountingDevice* device = nullptr;
  auto context = real_context(device);
  std::ostringstream log;
  tuner::restore_from_journal(config, {}, context, log);
  REQUIRE_THAT(log.str(), Catch::Contains("disktune: restored the settings from before the tune: read_ahead_kb=128"));
  REQUIRE(device->writes == 0);
}

TEST_CASE("restorer: TrialRunner's restore of a real device runs in a watched child, not here", "[tuner]") {
  CountingDevice device(false);
  tuner::TrialSettings settings;
  settings.timeout = probe::Seconds{10.0};
  tuner::TrialRunner runner(device, read_ahead(128), settings);
  REQUIRE(runner.restore_watched());
  REQUIRE(device.writes == 0);
  REQUIRE_FALSE(runner.health().wedged());
  CountingDevice simulated(true);
  tuner::TrialRunner local(simulated, read_ahead(128), settings);
  REQUIRE(local.restore_watched());
  REQUIRE(simulated.writes == 1);
}
