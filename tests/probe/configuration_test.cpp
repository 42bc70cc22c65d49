// SPDX-License-Identifier: GPL-2.0-or-later
// apply_configuration against a fake device whose settings are coupled in several ways.
#include "probe/configuration.hpp"

#include "tests/support/coupled_device.hpp"
#include "tests/support/setting_values.hpp"

#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <set>

using namespace disktune::probe;
using disktune::testing::name;
using disktune::testing::num;
using disktune::testing::CoupledDevice;

namespace {


// Writing `from` sets `to` to factor times the value written (any direction).
CoupledDevice::Rule scales(SettingId from, SettingId to, std::int64_t factor) {
  return [=](Settings& state, SettingId written, const SettingValue& value) {
    if (written == from) state[to] = num(value.number() * factor);
  };
}

// Writing `from` (whatever the value) resets `to` to `value`.
CoupledDevice::Rule resets(SettingId from, SettingId to, SettingValue value) {
  return [=](Settings& state, SettingId written, const SettingValue&) {
    if (written == from) state[to] = value;
  };
}

// nr_requests up to 64 under "none", up to 1024 under anything else.
bool range_by_scheduler(const Settings& state, SettingId id, const SettingValue& value) {
  if (id != SettingId::nr_requests) return true;
  return value.number() <= (state.at(SettingId::scheduler) == name("none") ? 64 : 1024);
}

void require_reads_back(CoupledDevice& device, const Settings& target) {
  for (const auto& [id, value] : target) {
    INFO(setting_name(id));
    REQUIRE(device.read(id).value() == value);
  }
}

const Settings kTarget{{SettingId::scheduler, name("none")},
                       {SettingId::nr_requests, num(32)},
                       {SettingId::max_sectors_kb, num(512)},
                       {SettingId::read_ahead_kb, num(64)}};

}  // namespace

TEST_CASE("apply_configuration reaches the target when writing one setting changes another", "[probe]") {
  CoupledDevice device;
  SECTION("a later setting in apply order moves an earlier one") {
    device.rules = {scales(SettingId::read_ahead_kb, SettingId::max_sectors_kb, 3)};
  }
  SECTION("an earlier setting moves a later one") {
    device.rules = {scales(SettingId::max_sectors_kb, SettingId::read_ahead_kb, 2)};
  }
  SECTION("a chain: each write moves the setting before it") {
    device.rules = {scales(SettingId::read_ahead_kb, SettingId::max_sectors_kb, 5),
                    scales(SettingId::max_sectors_kb, SettingId::nr_requests, 7)};
  }
  REQUIRE(apply_configuration(device, kTarget));
  require_reads_back(device, kTarget);
}

TEST_CASE("apply_configuration reaches the target when writing one setting resets another", "[probe]") {
  CoupledDevice device;
  device.rules = {resets(SettingId::scheduler, SettingId::nr_requests, num(2)),
                  resets(SettingId::nr_requests, SettingId::read_ahead_kb, num(4096))};
  REQUIRE(apply_configuration(device, kTarget));
  require_reads_back(device, kTarget);
  SECTION("and back to the original, even a value only the reset produces") {
    const Settings original{{SettingId::scheduler, name("mq-deadline")},
                            {SettingId::nr_requests, num(2)},
                            {SettingId::max_sectors_kb, num(1280)},
                            {SettingId::read_ahead_kb, num(128)}};
    device.accepts = [](const Settings&, SettingId id, const SettingValue& value) {
      return id != SettingId::nr_requests || value.number() >= 4;  // 2 cannot be written
    };
    REQUIRE(apply_configuration(device, original));
    require_reads_back(device, original);
  }
}

TEST_CASE("apply_configuration reaches the target when one setting's range depends on another", "[probe]") {
  CoupledDevice device;
  device.accepts = range_by_scheduler;
  device.rules = {resets(SettingId::scheduler, SettingId::nr_requests, num(16))};
  const auto original = device.state;  // nr_requests 256: legal under mq-deadline only
  REQUIRE(apply_configuration(device, kTarget));
  require_reads_back(device, kTarget);
  REQUIRE(apply_configuration(device, original));
  require_reads_back(device, original);
  SECTION("a value the range refuses is an unsupported error naming the setting") {
    auto refused = apply_configuration(device, {{SettingId::scheduler, name("none")}, {SettingId::nr_requests, num(512)}});
    REQUIRE_FALSE(refused);
    REQUIRE(refused.error().is_unsupported());
    REQUIRE_THAT(refused.error().op, Catch::Contains("(setting nr_requests=512)"));
  }
}

TEST_CASE("apply_configuration holds the settings the target does not name", "[probe]") {
  CoupledDevice device;
  device.rules = {scales(SettingId::max_sectors_kb, SettingId::read_ahead_kb, 2),
                  resets(SettingId::scheduler, SettingId::nr_requests, num(2))};
  const auto before = device.state;
  const Settings changes{{SettingId::scheduler, name("kyber")}, {SettingId::max_sectors_kb, num(256)}};
  REQUIRE(apply_configuration(device, changes));
  require_reads_back(device, with_changes(before, changes));
}

TEST_CASE("apply_configuration converges from random states under mixed couplings", "[probe]") {
  std::mt19937 random(9);
  const std::vector<SettingValue> schedulers{name("none"), name("mq-deadline"), name("kyber")};
  const std::vector<std::int64_t> sizes{4, 16, 64, 128, 512, 1024};
  auto pick = [&](const auto& values) { return values[random() % values.size()]; };
  for (int round = 0; round < 200; ++round) {
    CoupledDevice device;
    device.accepts = range_by_scheduler;
    device.rules = {resets(SettingId::scheduler, SettingId::nr_requests, num(8)),
                    [](Settings& state, SettingId written, const SettingValue& value) {  // raise, never lower
                      if (written == SettingId::max_sectors_kb)
                        state[SettingId::read_ahead_kb] =
                            num(std::max(state.at(SettingId::read_ahead_kb).number(), 2 * value.number()));
                    },
                    resets(SettingId::read_ahead_kb, SettingId::nr_requests, num(8))};
    device.state = {{SettingId::scheduler, pick(schedulers)},
                    {SettingId::nr_requests, num(pick(std::vector<std::int64_t>{4, 8, 32}))},
                    {SettingId::max_sectors_kb, num(pick(sizes))},
                    {SettingId::read_ahead_kb, num(pick(sizes))}};
    const Settings target{{SettingId::scheduler, pick(schedulers)},
                          {SettingId::nr_requests, num(pick(std::vector<std::int64_t>{4, 16, 64}))},
                          {SettingId::max_sectors_kb, num(pick(sizes))},
                          {SettingId::read_ahead_kb, num(pick(sizes))}};
    INFO("round " << round << ": " << format_settings(device.state) << " -> " << format_settings(target));
    REQUIRE(apply_configuration(device, target));
    require_reads_back(device, target);
  }
}

TEST_CASE("apply_configuration gives up after a bounded number of passes, naming every setting", "[probe]") {
  CoupledDevice device;
  // Each write moves the other: no order reaches both.
  device.rules = {scales(SettingId::max_sectors_kb, SettingId::read_ahead_kb, 2),
                  scales(SettingId::read_ahead_kb, SettingId::max_sectors_kb, 2)};
  const Settings target{{SettingId::max_sectors_kb, num(512)}, {SettingId::read_ahead_kb, num(64)}};
  auto failed = apply_configuration(device, target);
  REQUIRE_FALSE(failed);
  REQUIRE(is_not_read_back(failed.error()));
  REQUIRE_FALSE(failed.error().is_unsupported());
  const auto passes = max_configuration_passes(device.state.size());
  REQUIRE_THAT(failed.error().op, Catch::EndsWith("(after " + std::to_string(passes) + " passes)"));
  int named = 0;
  for (const auto& [id, value] : target) {
    const auto now = device.state.at(id);
    const auto text = std::string(setting_name(id)) + " reads back " + format_value(id, now) + " instead of " +
                      format_value(id, value);
    if (now == value) {
      REQUIRE_THAT(failed.error().op, !Catch::Contains(std::string(setting_name(id))));
    } else {
      REQUIRE_THAT(failed.error().op, Catch::Contains(text));
      ++named;
    }
  }
  REQUIRE(named > 0);
  REQUIRE(device.writes <= static_cast<int>(2 * passes));
}

TEST_CASE("apply_configuration keeps the kind of every failure", "[probe]") {
  CoupledDevice device;
  SECTION("a write kept silently does not read back") {
    device.keep = {SettingId::max_sectors_kb};
    auto kept = apply_configuration(device, {{SettingId::max_sectors_kb, num(512)}});
    REQUIRE_FALSE(kept);
    REQUIRE(is_not_read_back(kept.error()));
    REQUIRE_THAT(kept.error().op, Catch::StartsWith("max_sectors_kb reads back 1280 instead of 512"));
  }
  SECTION("an unsupported write stays unsupported") {
    device.unsupported = {SettingId::read_ahead_kb};
    auto refused = apply_configuration(device, {{SettingId::read_ahead_kb, num(512)}});
    REQUIRE_FALSE(refused);
    REQUIRE(refused.error().is_unsupported());
    REQUIRE_THAT(refused.error().op, Catch::Contains("(setting read_ahead_kb=512)"));
  }
  SECTION("an EIO write stays EIO") {
    device.rejected = {SettingId::nr_requests};
    auto rejected = apply_configuration(device, {{SettingId::nr_requests, num(64)}});
    REQUIRE_FALSE(rejected);
    REQUIRE(rejected.error().code == std::errc::io_error);
    REQUIRE_THAT(rejected.error().op, Catch::Contains("(setting nr_requests=64)"));
  }
}

TEST_CASE("apply_configuration re-sends a setting whose read-back is not trusted, only when asked", "[probe]") {
  CoupledDevice device;
  device.untrusted = {SettingId::max_sectors_kb};
  REQUIRE(apply_configuration(device, {{SettingId::read_ahead_kb, num(128)}}));
  REQUIRE(device.writes == 0);  // nothing differs, the untrusted setting was not named
  REQUIRE(apply_configuration(device, device.state));
  REQUIRE(device.writes == 1);  // named: sent although it reads back as wanted
}
