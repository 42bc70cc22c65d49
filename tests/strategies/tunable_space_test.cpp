// SPDX-License-Identifier: GPL-2.0-or-later
// build_space: a scheduler's tunables exist only under it (a constraint, with pruning reasons).
#include "strategies/search_space.hpp"
#include "tests/support/setting_values.hpp"
#include "tests/support/space_walk.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace disktune;
using probe::SettingId;
using testing::name;
using testing::num;
using testing::every_configuration;

namespace {

probe::Capability cap(SettingId id, std::vector<probe::SettingValue> values) {
  return probe::Capability{id, probe::Support::supported, std::move(values), ""};
}

// A queue under mq-deadline that also offers none and bfq (not kyber), as LinuxQueue lists
// the tunables: supported also while another scheduler is active.
std::vector<probe::Capability> queue_capabilities() {
  return {cap(SettingId::scheduler, {name("none"), name("mq-deadline"), name("bfq")}),
          cap(SettingId::nomerges, {num(0), num(1), num(2)}),
          cap(SettingId::fifo_batch, {num(1), num(4), num(16), num(64)}),
          cap(SettingId::low_latency, {num(0), num(1)}),
          cap(SettingId::read_lat_nsec, {num(1000000), num(2000000)})};
}

const probe::Settings kBaseline{{SettingId::scheduler, name("mq-deadline")},
                                {SettingId::nomerges, num(0)},
                                {SettingId::fifo_batch, num(8)}};

const strategies::Pruned* pruned_with(const strategies::SearchSpace& space, const std::string& text) {
  const auto it = std::find_if(space.pruned().begin(), space.pruned().end(),
                               [&](const auto& p) { return p.reason.find(text) != std::string::npos; });
  return it == space.pruned().end() ? nullptr : &*it;
}

std::string exclusion(const strategies::SearchSpace& space, SettingId id) {
  for (const auto& e : space.excluded())
    if (e.id == id) return e.reason;
  return "";
}

}  // namespace

TEST_CASE("applicable_only drops the tunables of a scheduler the configuration does not hold", "[probe]") {
  const probe::Settings mixed{{SettingId::scheduler, name("bfq")},
                              {SettingId::fifo_batch, num(4)},
                              {SettingId::low_latency, num(0)},
                              {SettingId::nomerges, num(2)}};
  REQUIRE(probe::applicable_only(mixed) == probe::Settings{{SettingId::scheduler, name("bfq")},
                                                           {SettingId::low_latency, num(0)},
                                                           {SettingId::nomerges, num(2)}});
  // Without a scheduler entry (a queue that cannot switch) the tunables the device has stay.
  REQUIRE(probe::applicable(SettingId::fifo_batch, {{SettingId::nomerges, num(0)}}));
  REQUIRE_FALSE(probe::applicable(SettingId::read_lat_nsec, {{SettingId::scheduler, name("none")}}));
  REQUIRE(probe::setting_info(SettingId::read_expire).sysfs_attr == "iosched/read_expire");
  REQUIRE(probe::is_tunable_name(probe::setting_info(SettingId::slice_idle).sysfs_attr));
}

TEST_CASE("build_space sets a tunable only under its scheduler and says what it pruned", "[strategies]") {
  const auto space = strategies::build_space(std::nullopt, queue_capabilities(), kBaseline, {});
  std::size_t deadline = 0, bfq = 0;
  for (const auto& config : every_configuration(space)) {
    INFO(probe::format_settings(config));
    REQUIRE(probe::applicable_only(config) == config);
    REQUIRE(space.contains(config));
    const auto scheduler = config.at(SettingId::scheduler).text();
    REQUIRE(config.count(SettingId::fifo_batch) == (scheduler == "mq-deadline" ? 1U : 0U));
    REQUIRE(config.count(SettingId::low_latency) == (scheduler == "bfq" ? 1U : 0U));
    deadline += scheduler == "mq-deadline";
    bfq += scheduler == "bfq";
  }
  REQUIRE(deadline > 0);
  REQUIRE(bfq > 0);
  // fifo_batch's 5 values (the ladder and the baseline's 8) under the 2 other schedulers.
  const auto* fifo = pruned_with(space, "fifo_batch only under mq-deadline");
  REQUIRE(fifo);
  REQUIRE(fifo->count == 5 * 2);
  REQUIRE(pruned_with(space, "low_latency only under bfq")->count == 2 * 2);
  REQUIRE(exclusion(space, SettingId::read_lat_nsec).find("kyber") != std::string::npos);
  REQUIRE(space.values(SettingId::fifo_batch).size() == 5);
  REQUIRE(space.contains({{SettingId::scheduler, name("bfq")}, {SettingId::nomerges, num(1)},
                          {SettingId::low_latency, num(0)}}));
  REQUIRE_FALSE(space.contains({{SettingId::scheduler, name("bfq")}, {SettingId::nomerges, num(1)},
                                {SettingId::low_latency, num(0)}, {SettingId::fifo_batch, num(8)}}));
  REQUIRE_FALSE(space.contains({{SettingId::scheduler, name("mq-deadline")}, {SettingId::nomerges, num(1)}}));
  REQUIRE(space.contains(kBaseline));
}

TEST_CASE("with_choice brings a scheduler's tunables with it: as found, else the kernel default", "[strategies]") {
  const auto space = strategies::build_space(std::nullopt, queue_capabilities(), kBaseline, {});
  const auto& groups = space.groups();
  const auto scheduler_group = static_cast<std::size_t>(std::distance(
      groups.begin(), std::find_if(groups.begin(), groups.end(),
                                   [](const auto& g) { return g.settings.front() == SettingId::scheduler; })));
  const auto choice = [&](const char* scheduler) {
    const auto& choices = groups[scheduler_group].choices;
    for (std::size_t c = 0; c < choices.size(); ++c)
      if (choices[c].at(SettingId::scheduler).text() == scheduler) return c;
    FAIL("no choice " << scheduler);
    return std::size_t{0};
  };
  const auto under_bfq = space.with_choice(kBaseline, scheduler_group, choice("bfq"));
  REQUIRE_FALSE(under_bfq.count(SettingId::fifo_batch));
  REQUIRE(under_bfq.at(SettingId::low_latency) == probe::tunable_default(SettingId::low_latency));
  const auto back = space.with_choice(under_bfq, scheduler_group, choice("mq-deadline"));
  REQUIRE(back.at(SettingId::fifo_batch) == num(8));
  REQUIRE_FALSE(back.count(SettingId::low_latency));
}

TEST_CASE("build_space leaves out a tunable whose scheduler no configuration holds", "[strategies]") {
  strategies::SpaceOptions only;
  only.only = std::vector<SettingId>{SettingId::fifo_batch, SettingId::nomerges};
  const probe::Settings under_none{{SettingId::scheduler, name("none")}, {SettingId::nomerges, num(0)}};
  const auto space = strategies::build_space(std::nullopt, queue_capabilities(), under_none, only);
  REQUIRE(exclusion(space, SettingId::fifo_batch).find("neither active nor searched") != std::string::npos);
  REQUIRE(space.values(SettingId::fifo_batch).empty());
  REQUIRE(space.values(SettingId::nomerges) == std::vector{num(0), num(1), num(2)});
  // Under its own scheduler the same --only searches it.
  const auto here = strategies::build_space(std::nullopt, queue_capabilities(), kBaseline, only);
  REQUIRE(here.values(SettingId::fifo_batch).size() == 5);
}
