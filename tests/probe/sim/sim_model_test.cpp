// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the simulated drive's rate model, and that its optimum is found, not configured.
#include "probe/sim/sim_device.hpp"
#include "probe/sim/sim_model.hpp"
#include "probe/sim/sim_rules.hpp"
#include "tests/support/sim_fixture.hpp"
#include "tests/support/sim_space.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune;
using namespace disktune::probe;
using testing::make_sim;
using testing::seed_identify;
using testing::Optimum;
using testing::settings_of;

namespace {

constexpr std::uint64_t kChunk = 2u << 20;
constexpr std::int64_t kPio4 = 12;

double model_mib_s(const SimState& state, IoMode mode = IoMode::buffered, double media = 18.5) {
  const auto time = uncached_read_time(state, kPio4, media, kChunk, mode, true);
  return static_cast<double>(kChunk) / (1 << 20) / time.count();
}

SimState state_of(const Settings& settings) {
  SimState state;
  for (const auto& [id, value] : settings) state = with_value(state, id, value.number());
  return state;
}

// The seed's hdparm -t optimum by the model: every legal configuration rated noise-free.
Optimum brute_force(const IdentifyInfo& identify, const SimProfile& profile) {
  const SimLimits limits = sim_limits(identify, profile.cable_80wire);
  const double media = profile.media_mib_s.value_or(default_media_mib_s(identify));
  return testing::brute_force(identify, profile, [&](Device&, const Settings& config) {
    const auto time = uncached_read_time(state_of(config), fastest_pio_code(limits), media,
                                         kChunk, IoMode::buffered, true);
    return static_cast<double>(kChunk) / (1 << 20) / time.count();
  });
}

}  // namespace

TEST_CASE("interface rates follow the -X table", "[probe]") {
  CHECK(interface_rate_mb_s(8) == 3.3);
  CHECK(interface_rate_mb_s(12) == 16.7);
  CHECK(interface_rate_mb_s(34) == 16.7);
  CHECK(interface_rate_mb_s(66) == 33.3);
  CHECK(interface_rate_mb_s(68) == 66.7);
  CHECK(interface_rate_mb_s(69) == 100.0);
  CHECK(interface_rate_mb_s(70) == 133.0);
}

TEST_CASE("the host uses the fastest PIO mode while DMA is off in a DMA mode", "[probe]") {
  SimState state;
  state.xfermode = 66;
  CHECK(transfer_code(state, kPio4) == kPio4);
  state.using_dma = true;
  CHECK(transfer_code(state, kPio4) == 66);
  state.xfermode = 9;
  CHECK(transfer_code(state, kPio4) == 9);
}

TEST_CASE("PIO costs shrink with multcount and 32-bit I/O; DMA bypasses them", "[probe]") {
  SimState pio;  // pio4, 16-bit, one sector per interrupt
  const double base = model_mib_s(pio);
  CHECK(model_mib_s(with_value(pio, SettingId::multcount, 16)) > base * 1.5);
  CHECK(model_mib_s(with_value(pio, SettingId::io_support, 1)) > base * 1.03);
  const double unmasked = model_mib_s(with_value(pio, SettingId::unmaskirq, 1));
  CHECK(unmasked > base);
  CHECK(unmasked < base * 1.15);  // a small effect
  CHECK(model_mib_s(with_value(pio, SettingId::xfermode, 8)) < base);  // PIO0 is slower

  SimState dma = with_value(with_value(pio, SettingId::using_dma, 1), SettingId::xfermode, 66);
  const double dma_rate = model_mib_s(dma);
  CHECK(model_mib_s(with_value(dma, SettingId::multcount, 16)) == dma_rate);
  CHECK(model_mib_s(with_value(dma, SettingId::io_support, 3)) == dma_rate);
  CHECK(dma_rate < 18.5);  // never above the media rate
}

TEST_CASE("readahead helps buffered reads a little and direct reads not at all", "[probe]") {
  SimState dma;
  dma.using_dma = true;
  dma.xfermode = 66;
  const double small = model_mib_s(dma);
  const double large = model_mib_s(with_value(dma, SettingId::readahead, 256));
  CHECK(large > small * 1.01);
  CHECK(large < small * 1.10);
  CHECK(model_mib_s(dma, IoMode::direct) ==
        model_mib_s(with_value(dma, SettingId::readahead, 256), IoMode::direct));
  CHECK(cached_read_time(kChunk).count() == Approx(2.0 / 102.0).epsilon(0.01));
}

TEST_CASE("a faster interface helps even when the media limits", "[probe]") {
  SimState dma;
  dma.using_dma = true;
  double previous = 0.0;
  for (const std::int64_t code : {64, 65, 66, 67, 68, 69}) {  // UDMA0..5 on a 40 MiB/s drive
    const double rate = model_mib_s(with_value(dma, SettingId::xfermode, code), IoMode::buffered, 40.0);
    CHECK(rate > previous);
    CHECK(rate < 40.0);
    previous = rate;
  }
}

TEST_CASE("brute force over the legal values finds the seed's optimum; nothing is configured",
          "[probe]") {
  SimProfile quiet;
  quiet.noise_pct = 0.0;
  const Optimum best = brute_force(seed_identify(), quiet);
  REQUIRE_FALSE(best.configs.empty());
  CHECK(best.score >= 14.85 * 0.95);
  for (const Settings& config : best.configs) {
    INFO(format_settings(config));
    CHECK(format_value(SettingId::xfermode, config.at(SettingId::xfermode)) == "udma2");
    CHECK(config.at(SettingId::using_dma).number() == 1);
    CHECK(config.at(SettingId::unmaskirq).number() == 1);
  }
  // The same search with an 80-wire cable moves the optimum: nothing pins UDMA2.
  SimProfile cable = quiet;
  cable.cable_80wire = true;
  const Optimum with_cable = brute_force(seed_identify(), cable);
  REQUIRE_FALSE(with_cable.configs.empty());
  CHECK(with_cable.score > best.score);
  for (const Settings& config : with_cable.configs)
    CHECK(format_value(SettingId::xfermode, config.at(SettingId::xfermode)) == "udma4");
}

TEST_CASE("a UDMA5 drive reads faster with an 80-wire cable than with a 40-wire one", "[probe]") {
  const auto best_rate = [](bool wire80) {
    SimProfile profile;
    profile.cable_80wire = wire80;
    auto device = make_sim(testing::udma5_identify(), profile);
    testing::apply_all(*device, settings_of({{"using_dma", "1"}, {"unmaskirq", "1"},
                                             {"readahead", "256"}}));
    auto mode = device->apply(SettingId::xfermode, SettingValue(std::int64_t{69}));
    CHECK(static_cast<bool>(mode) == wire80);  // UDMA5 is refused on a 40-wire cable
    auto io = device->open_io(IoMode::buffered);
    REQUIRE(io);
    return testing::buffered_mib_s(**io);
  };
  const double wire80 = best_rate(true);
  const double wire40 = best_rate(false);
  CHECK(wire80 > wire40 * 1.15);
}
