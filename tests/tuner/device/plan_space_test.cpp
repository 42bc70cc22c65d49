// SPDX-License-Identifier: GPL-2.0-or-later
// plan_space on the simulated seed drive: --allow-mounted leaves the data-safe knobs only.
#include "tuner/device/open_device.hpp"
#include "tuner/device_context.hpp"

#include "probe/in_use.hpp"
#include "tests/support/require_value.hpp"
#include "tuner/device/device_factory.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;

namespace {

// The simulated seed drive ("sim:") as open_device sees it, without the probe-record files.
tuner::DeviceContext seed_drive() {
  tuner::DeviceContext context;
  context.device = testing::require_value(tuner::make_device("sim:", {}));
  context.identify = testing::require_value(context.device->identify());
  context.capabilities = context.device->capabilities();
  context.original = testing::require_value(context.device->snapshot());
  return context;
}

const strategies::Excluded* excluded(const strategies::SearchSpace& space, SettingId id) {
  for (const auto& e : space.excluded())
    if (e.id == id) return &e;
  return nullptr;
}

}  // namespace

TEST_CASE("plan_space with --allow-mounted refuses the seed drive's ATA knobs, which it otherwise searches",
          "[tuner]") {
  const auto context = seed_drive();
  tuner::SpaceBounds bounds;
  const auto free_space = tuner::plan_space(context, bounds);
  bounds.data_in_use = true;
  const auto in_use = tuner::plan_space(context, bounds);
  // Not vacuous: without --allow-mounted the simulated drive searches every ATA knob.
  for (const auto id : {SettingId::multcount, SettingId::io_support, SettingId::unmaskirq, SettingId::using_dma,
                        SettingId::xfermode}) {
    INFO(probe::setting_name(id));
    REQUIRE_FALSE(free_space.values(id).empty());
    REQUIRE(in_use.values(id).empty());
    const auto* e = excluded(in_use, id);
    REQUIRE(e);
    REQUIRE_THAT(e->reason, Catch::StartsWith(std::string(probe::kInUsePrefix)));
  }
  REQUIRE(in_use.values(SettingId::readahead) == free_space.values(SettingId::readahead));
  REQUIRE(in_use.legal_count() == in_use.values(SettingId::readahead).size());
  const auto described = tuner::describe_space(in_use);
  std::size_t refused_values = 0;
  for (const auto& p : described.pruned)
    if (p.reason.starts_with(probe::kInUsePrefix)) refused_values += p.count;
  REQUIRE(refused_values == 6 + 3 + 2 + 2 + 11);
}
