// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the simulated drive's faults: hang, eio, corrupt, revert, reject, unsupported, slow.
#include "probe/sim/sim_device.hpp"
#include "tests/support/sim_fixture.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace disktune;
using namespace disktune::probe;
using testing::make_sim;
using testing::seed_identify;
using testing::settings_of;

namespace {

SimProfile with_fault(Settings when, FaultEffect effect) {
  SimProfile profile;
  profile.faults.push_back(SimFault{std::move(when), effect});
  return profile;
}

// Run one 2 MiB read of `device` in a forked child. True when the child was still
// blocked after `wait` (then it is SIGKILLed and reaped); false when it exited by itself.
bool read_blocks(Device& device, std::chrono::milliseconds wait) {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    auto io = device.open_io(IoMode::buffered);
    std::vector<std::byte> buffer(2u << 20);
    if (io) (void)(*io)->read_at(0, buffer);
    _exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(child, &status, WNOHANG) == child) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(child, SIGKILL);
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  return true;
}

}  // namespace

TEST_CASE("a hang fault blocks the read for real until the process is killed", "[probe]") {
  auto device = make_sim(seed_identify(),
                         with_fault(settings_of({{"unmaskirq", "1"}}), FaultEffect::hang));
  CHECK_FALSE(read_blocks(*device, std::chrono::milliseconds(2000)));
  testing::apply_all(*device, settings_of({{"unmaskirq", "1"}}));
  CHECK(read_blocks(*device, std::chrono::milliseconds(300)));
}

TEST_CASE("an eio fault fails drive reads with EIO while its settings are current", "[probe]") {
  auto device = make_sim(seed_identify(),
                         with_fault(settings_of({{"multcount", "8"}}), FaultEffect::eio));
  auto io = device->open_io(IoMode::buffered);
  REQUIRE(io);
  std::vector<std::byte> buffer(2u << 20);
  REQUIRE((*io)->read_at(0, buffer));
  testing::apply_all(*device, settings_of({{"multcount", "8"}}));
  REQUIRE((*io)->flush_cache());
  auto failed = (*io)->read_at(0, buffer);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().code.value() == EIO);
  CHECK(failed.error().message().find("simulated") != std::string::npos);
  testing::apply_all(*device, settings_of({{"multcount", "16"}}));
  CHECK((*io)->read_at(0, buffer));
}

TEST_CASE("a corrupt fault changes the data silently", "[probe]") {
  auto device = make_sim(seed_identify(),
                         with_fault(settings_of({{"io_support", "3"}}), FaultEffect::corrupt));
  auto io = device->open_io(IoMode::buffered);
  REQUIRE(io);
  const auto baseline = testing::read_chunk(**io, 4u << 20);
  testing::apply_all(*device, settings_of({{"io_support", "3"}}));
  REQUIRE((*io)->flush_cache());
  const auto corrupted = testing::read_chunk(**io, 4u << 20);
  CHECK(corrupted != baseline);
  testing::apply_all(*device, settings_of({{"io_support", "1"}}));
  REQUIRE((*io)->flush_cache());
  CHECK(testing::read_chunk(**io, 4u << 20) == baseline);
}

TEST_CASE("a revert fault accepts the value but keeps the old one", "[probe]") {
  auto device = make_sim(seed_identify(),
                         with_fault(settings_of({{"using_dma", "1"}}), FaultEffect::revert));
  CHECK(device->apply(SettingId::using_dma, SettingValue(std::int64_t{1})));
  CHECK(device->read(SettingId::using_dma)->number() == 0);
  CHECK(device->apply(SettingId::unmaskirq, SettingValue(std::int64_t{1})));
  CHECK(device->read(SettingId::unmaskirq)->number() == 1);
  auto restored = device->restore(settings_of({{"using_dma", "1"}}));
  REQUIRE_FALSE(restored);  // Device::restore notices the value did not read back
}

TEST_CASE("reject and unsupported faults fail apply with EIO and ENOTTY", "[probe]") {
  SimProfile profile = with_fault(settings_of({{"xfermode", "mdma2"}}), FaultEffect::reject);
  profile.faults.push_back(SimFault{settings_of({{"readahead", "256"}}), FaultEffect::unsupported});
  auto device = make_sim(seed_identify(), profile);
  auto rejected = device->apply(SettingId::xfermode, SettingValue(std::int64_t{34}));
  REQUIRE_FALSE(rejected);
  CHECK(rejected.error().code.value() == EIO);
  CHECK_FALSE(rejected.error().is_unsupported());
  CHECK(device->read(SettingId::xfermode)->number() == 66);
  auto refused = device->apply(SettingId::readahead, SettingValue(std::int64_t{256}));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code.value() == ENOTTY);
  CHECK(refused.error().is_unsupported());
  CHECK(device->apply(SettingId::readahead, SettingValue(std::int64_t{128})));
}

TEST_CASE("a slow fault divides the drive's throughput by four", "[probe]") {
  SimProfile profile = with_fault(settings_of({{"readahead", "16"}}), FaultEffect::slow);
  profile.noise_pct = 0.0;
  auto device = make_sim(seed_identify(), profile);
  auto io = device->open_io(IoMode::buffered);
  REQUIRE(io);
  testing::apply_all(*device, settings_of({{"using_dma", "1"}, {"readahead", "32"}}));
  const double normal = testing::buffered_mib_s(**io);
  testing::apply_all(*device, settings_of({{"readahead", "16"}}));
  const double slow = testing::buffered_mib_s(**io);
  CHECK(normal / slow == Approx(4.0).epsilon(0.08));
  // Cached reads never reach the drive.
  CHECK(testing::cached_mib_s(**io) == Approx(102.0).epsilon(0.01));
}
