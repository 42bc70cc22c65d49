// SPDX-License-Identifier: GPL-2.0-or-later
// build_space: nr_requests' legal values follow the scheduler they are paired with.
#include "strategies/search_space.hpp"
#include "probe/configuration.hpp"
#include "strategies/evaluator.hpp"
#include "tests/support/coupled_device.hpp"
#include "tests/support/setting_values.hpp"
#include "tests/support/space_walk.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using testing::name;
using testing::num;
using testing::every_configuration;

namespace {


std::vector<SettingValue> ladder(std::int64_t high) {
  std::vector<SettingValue> values;
  for (std::int64_t n = 4; n <= high; n *= 2) values.push_back(num(n));
  return values;
}

// A queue under "deadline" (nr_requests up to 1024) that also offers "none" (up to 64) and
// "lazy", whose ladder could not be probed.
std::vector<probe::Capability> queue_capabilities() {
  probe::Capability scheduler{SettingId::scheduler, probe::Support::supported,
                              {name("none"), name("deadline"), name("lazy")}, ""};
  probe::Capability nr{SettingId::nr_requests, probe::Support::supported, ladder(1024), ""};
  nr.values_by_scheduler = {{"none", ladder(64)}, {"deadline", ladder(1024)}};
  return {scheduler, nr};
}

const probe::Settings kBaseline{{SettingId::scheduler, name("deadline")}, {SettingId::nr_requests, num(256)}};

bool pruned_with(const strategies::SearchSpace& space, const std::string& text) {
  return std::any_of(space.pruned().begin(), space.pruned().end(),
                     [&](const auto& p) { return p.reason.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("build_space pairs each scheduler with the nr_requests values it accepts", "[strategies]") {
  const auto space = strategies::build_space(std::nullopt, queue_capabilities(), kBaseline, {});
  const auto caps = queue_capabilities();
  const auto& ladders = caps[1].values_by_scheduler;
  std::size_t none_pairs = 0;
  for (const auto& config : every_configuration(space)) {
    const auto scheduler = config.at(SettingId::scheduler).text();
    const auto n = config.at(SettingId::nr_requests);
    INFO(probe::format_settings(config));
    if (const auto it = ladders.find(scheduler); it != ladders.end())
      REQUIRE(std::find(it->second.begin(), it->second.end(), n) != it->second.end());
    if (scheduler == "none") ++none_pairs;
  }
  REQUIRE(none_pairs == ladder(64).size());
  REQUIRE(space.contains({{SettingId::scheduler, name("deadline")}, {SettingId::nr_requests, num(1024)}}));
  REQUIRE(space.contains({{SettingId::scheduler, name("lazy")}, {SettingId::nr_requests, num(1024)}}));
  REQUIRE(space.contains(kBaseline));
  REQUIRE(pruned_with(space, "nr_requests value refused under that scheduler"));
}

TEST_CASE("build_space with the scheduler alone pairs a scheduler that refuses the held nr_requests with one it accepts",
          "[strategies]") {
  strategies::SpaceOptions only;
  only.only = std::vector<SettingId>{SettingId::scheduler};
  const auto space = strategies::build_space(std::nullopt, queue_capabilities(), kBaseline, only);
  REQUIRE(space.values(SettingId::scheduler) == std::vector<SettingValue>{name("deadline"), name("lazy"), name("none")});
  // none takes at most 64: the held 256 is replaced by its value nearest to it, and said so.
  REQUIRE(space.contains({{SettingId::scheduler, name("none")}, {SettingId::nr_requests, num(64)}}));
  REQUIRE_FALSE(space.contains({{SettingId::scheduler, name("none")}}));
  REQUIRE(space.contains({{SettingId::scheduler, name("lazy")}, {SettingId::nr_requests, num(256)}}));
  REQUIRE(pruned_with(space, "scheduler none paired with nr_requests 64: its range excludes the held nr_requests 256"));
}

namespace {

// ata_piix under QEMU (docs/ata-lab.md): queue depth 1, nr_requests 2 under an elevator
// (which a write cannot produce: below 4 it is raised to 4), 1 under none (no write accepted,
// the tag depth is 1); a switch resets it to that default.
testing::CoupledDevice ata_piix_queue() {
  testing::CoupledDevice device;
  device.state = {{SettingId::scheduler, name("mq-deadline")}, {SettingId::nr_requests, num(2)}};
  device.accepts = [](const probe::Settings& state, SettingId id, const SettingValue& value) {
    if (id != SettingId::nr_requests) return true;
    return state.at(SettingId::scheduler) != name("none") && value.number() <= 256;
  };
  device.rules = {[](probe::Settings& state, SettingId written, const SettingValue& value) {
    if (written == SettingId::scheduler) state[SettingId::nr_requests] = num(value == name("none") ? 1 : 2);
    if (written == SettingId::nr_requests) state[SettingId::nr_requests] = num(std::max<std::int64_t>(value.number(), 4));
  }};
  return device;
}

// What LinuxQueue::capability reports there: nr_requests read-only (2 cannot be written
// back), with each scheduler's ladder (its default only).
std::vector<probe::Capability> ata_piix_capabilities() {
  probe::Capability scheduler{SettingId::scheduler, probe::Support::supported,
                              {name("mq-deadline"), name("kyber"), name("bfq"), name("none")}, ""};
  probe::Capability nr{SettingId::nr_requests, probe::Support::read_only, {num(2)}, "nr_requests is 2, below the 4"};
  nr.values_by_scheduler = {{"mq-deadline", {num(2)}}, {"kyber", {num(2)}}, {"bfq", {num(2)}}, {"none", {num(1)}}};
  return {scheduler, nr};
}

}  // namespace

TEST_CASE("build_space on ata_piix: every scheduler trial applies, reads back and restores", "[strategies]") {
  auto device = ata_piix_queue();
  const auto original = device.state;
  const auto space = strategies::build_space(std::nullopt, ata_piix_capabilities(), original, {});
  REQUIRE(space.values(SettingId::scheduler).size() == 4);
  for (const auto& config : every_configuration(space)) {
    INFO(probe::format_settings(config));
    // As a trial applies it: its changes, every other setting held at the original.
    REQUIRE(probe::apply_configuration(device, strategies::changes_from(original, config)));
    REQUIRE(device.state == config);
    REQUIRE(device.restore(original));
    REQUIRE(device.state == original);
  }
  REQUIRE(space.contains({{SettingId::scheduler, name("none")}, {SettingId::nr_requests, num(1)}}));
  REQUIRE(pruned_with(space, "scheduler none paired with nr_requests 1"));
}
