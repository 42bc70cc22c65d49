// SPDX-License-Identifier: GPL-2.0-or-later
// FakeHost: each open of a sim spec hands out a view of one persistent simulated disk.
#include "tests/support/fake_host.hpp"

#include "probe/sim/sim_device.hpp"

#include <catch2/catch.hpp>

#include <cerrno>
#include <filesystem>

namespace disktune::testing {
namespace {

bool is_fake(const std::string& path) { return path.starts_with("/dev/disktune-fake"); }

// A Device that forwards every call to a disk it shares (what one command writes, the next
// reads), under the fake path, as a disk and not a simulation.
class SharedDisk final : public probe::Device {
 public:
  SharedDisk(std::shared_ptr<probe::Device> disk, std::string path) : disk_(std::move(disk)), path_(std::move(path)) {}
  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return false; }
  probe::Result<probe::IdentifyInfo> identify() override { return disk_->identify(); }
  std::vector<probe::Capability> capabilities() override { return disk_->capabilities(); }
  probe::Result<probe::SettingValue> read(probe::SettingId id) override { return disk_->read(id); }
  probe::Result<void> apply(probe::SettingId id, const probe::SettingValue& value) override {
    return disk_->apply(id, value);
  }
  probe::Result<probe::Settings> snapshot() override { return disk_->snapshot(); }
  probe::Result<void> restore(const probe::Settings& settings) override { return disk_->restore(settings); }
  probe::Result<probe::SchedulerTunables> scheduler_tunables() override { return disk_->scheduler_tunables(); }
  void keep_tunables(const probe::SchedulerTunables& tunables) override { disk_->keep_tunables(tunables); }
  [[nodiscard]] bool read_back_trusted(probe::SettingId id) const override { return disk_->read_back_trusted(id); }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode mode) override { return disk_->open_io(mode); }

 private:
  std::shared_ptr<probe::Device> disk_;
  std::string path_;
};

tuner::Host fake_host(FakeHost* self, const std::string& root) {
  tuner::Host host;
  host.lock_dir = root + "/run";
  host.state_dir = root + "/state";
  host.open_device = [self](const std::string& spec, const probe::DeviceOptions&) { return self->open_spec(spec); };
  host.device_exists = is_fake;  // no real node is a candidate for the fake machine's drives
  host.devices_in_memory = true;
  return host;
}

}  // namespace

FakeHost::FakeHost() : dir_("fake-host"), scoped_(fake_host(this, dir_.path())) {
  std::filesystem::create_directories(lock_dir());
  std::filesystem::create_directories(state_dir());
}

probe::Result<std::unique_ptr<probe::Device>> FakeHost::open_spec(const std::string& spec) {
  if (!is_fake(spec)) return probe::errno_error(ENOENT, "open", spec);
  auto& disk = disks_[spec];
  if (!disk) {
    auto made = probe::make_sim_device(std::nullopt, probe::DeviceOptions{});
    if (!made) return made.error();
    disk = std::move(*made);
  }
  return std::unique_ptr<probe::Device>(std::make_unique<SharedDisk>(disk, spec));
}

probe::Device& FakeHost::disk(const std::string& path) {
  REQUIRE(is_fake(path));
  REQUIRE(open_spec(path).has_value());
  return *disks_.at(path);
}

}  // namespace disktune::testing
