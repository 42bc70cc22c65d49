// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the simulated drive: calibration, legality, determinism, identity and data.
#include "probe/sim/sim_device.hpp"
#include "probe/sim/sim_rules.hpp"
#include "tests/support/sim_fixture.hpp"

#include "probe/power_levels.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace disktune;
using namespace disktune::probe;
using testing::buffered_mib_s;
using testing::cached_mib_s;
using testing::make_sim;
using testing::seed_identify;
using testing::settings_of;

namespace {

// The walkthrough's `hdparm -X66 -d1 -u1 -m16 -c3` (hdparm applies -d before -X).
Settings walkthrough_settings() {
  return settings_of({{"multcount", "16"}, {"io_support", "3"}, {"unmaskirq", "1"},
                      {"using_dma", "1"}, {"xfermode", "66"}});
}

int errno_of(const Result<void>& result) {
  REQUIRE_FALSE(result);
  return result.error().code.value();
}

}  // namespace

TEST_CASE("the seed drive starts from the walkthrough's listed settings", "[probe]") {
  auto device = make_sim(seed_identify());
  auto now = device->snapshot();
  REQUIRE(now.has_value());
  REQUIRE(format_settings(*now) ==
          "multcount=0 io_support=0 unmaskirq=0 using_dma=0 xfermode=udma2 readahead=8");
  REQUIRE(device->simulated());
  REQUIRE(device->path() == "sim:");
}

TEST_CASE("the seed drive measures the walkthrough's figures within 10 percent", "[probe]") {
  auto device = make_sim(seed_identify());
  auto io = device->open_io(IoMode::buffered);
  REQUIRE(io);
  const double before = buffered_mib_s(**io);
  const double cached_before = cached_mib_s(**io);
  CHECK(before == Approx(3.83).epsilon(0.10));
  CHECK(cached_before == Approx(102.4).epsilon(0.10));

  testing::apply_all(*device, walkthrough_settings());
  const double after = buffered_mib_s(**io);
  const double cached_after = cached_mib_s(**io);
  CHECK(after == Approx(14.85).epsilon(0.10));
  CHECK(cached_after == Approx(103.23).epsilon(0.10));
  // Cached reads do not depend on the drive settings (only on noise).
  CHECK(cached_after == Approx(cached_before).epsilon(0.03));
}

TEST_CASE("UDMA2 beats MDMA2 on the seed by far more than the noise", "[probe]") {
  auto device = make_sim(seed_identify());
  auto io = device->open_io(IoMode::buffered);
  REQUIRE(io);
  testing::apply_all(*device, settings_of({{"using_dma", "1"}, {"xfermode", "mdma2"}}));
  const double mdma2 = buffered_mib_s(**io);
  testing::apply_all(*device, settings_of({{"xfermode", "udma2"}}));
  const double udma2 = buffered_mib_s(**io);
  CHECK(udma2 > mdma2 * 1.10);
}

TEST_CASE("the legacy driver's ranges are enforced with its errno values", "[probe]") {
  auto device = make_sim(seed_identify());
  const auto apply = [&](const char* name, const char* text) {
    return device->apply(*setting_from_name(name), *parse_value(*setting_from_name(name), text));
  };
  CHECK(errno_of(apply("multcount", "32")) == EINVAL);  // above MaxMultSect 16
  CHECK(apply("multcount", "16"));
  CHECK(errno_of(apply("io_support", "2")) == EINVAL);
  CHECK(apply("io_support", "3"));
  CHECK(errno_of(apply("unmaskirq", "2")) == EINVAL);
  CHECK(errno_of(apply("using_dma", "2")) == EINVAL);
  CHECK(errno_of(apply("readahead", "2049")) == EINVAL);
  CHECK(apply("readahead", "2048"));
  CHECK(errno_of(apply("xfermode", "udma3")) == EINVAL);  // 40-wire cable assumed
  CHECK(errno_of(apply("xfermode", "udma5")) == EINVAL);  // drive lists UDMA 0-4
  CHECK(errno_of(apply("xfermode", "mdma3")) == EINVAL);
  CHECK(errno_of(apply("xfermode", "pio5")) == EINVAL);
  CHECK(errno_of(device->apply(SettingId::multcount, SettingValue(std::string("x")))) == EINVAL);
  auto now = device->snapshot();
  REQUIRE(now.has_value());
  CHECK(format_settings(*now) ==
        "multcount=16 io_support=3 unmaskirq=0 using_dma=0 xfermode=udma2 readahead=2048");

  auto error = apply("multcount", "32");
  REQUIRE_FALSE(error);
  CHECK(error.error().message().find("HDIO_SET_MULTCOUNT") != std::string::npos);
  CHECK(error.error().message().find("sim:") != std::string::npos);
}

TEST_CASE("using_dma needs word 49 bit 8 and follows the legacy driver's mode rules", "[probe]") {
  SECTION("no DMA support: EPERM, and the capability is read-only") {
    IdentifyInfo info = seed_identify();
    info.dma_supported = false;
    auto device = make_sim(info);
    CHECK(errno_of(device->apply(SettingId::using_dma, SettingValue(std::int64_t{1}))) == EPERM);
    const auto caps = device->capabilities();
    const auto dma = std::find_if(caps.begin(), caps.end(),
                                  [](const Capability& c) { return c.id == SettingId::using_dma; });
    REQUIRE(dma != caps.end());
    CHECK(dma->support == Support::read_only);
  }
  SECTION("a PIO mode switches DMA off; enabling DMA from PIO picks the best legal DMA mode") {
    auto device = make_sim(seed_identify());
    testing::apply_all(*device, settings_of({{"using_dma", "1"}}));
    CHECK(device->read(SettingId::xfermode)->number() == 66);
    testing::apply_all(*device, settings_of({{"xfermode", "pio4"}}));
    CHECK(device->read(SettingId::using_dma)->number() == 0);
    testing::apply_all(*device, settings_of({{"using_dma", "1"}}));
    CHECK(format_value(SettingId::xfermode, *device->read(SettingId::xfermode)) == "udma2");
  }
  SECTION("an 80-wire cable from the profile allows UDMA3 and UDMA4") {
    SimProfile profile;
    profile.cable_80wire = true;
    auto device = make_sim(seed_identify(), profile);
    testing::apply_all(*device, settings_of({{"using_dma", "1"}, {"xfermode", "udma4"}}));
    auto identify = device->identify();
    REQUIRE(identify.has_value());
    CHECK(identify->udma_active == 4);
    CHECK(identify->cable_80wire == true);  // the override is what identify reports
  }
}

TEST_CASE("block-queue settings are unsupported by the simulated legacy driver", "[probe]") {
  auto device = make_sim(seed_identify());
  int supported = 0;
  for (const Capability& cap : device->capabilities()) {
    if (cap.support == Support::supported) {
      ++supported;
      continue;
    }
    // APM and AAM are drive features: unsupported because the seed's identify lacks them.
    const auto expected = is_power_level(cap.id) ? "word 83 bit" : "no blk-mq queue attributes";
    CHECK(cap.reason.find(expected) != std::string::npos);
  }
  CHECK(supported == 6);
  auto read = device->read(SettingId::scheduler);
  REQUIRE_FALSE(read);
  CHECK(read.error().is_unsupported());
  auto applied = device->apply(SettingId::nr_requests, SettingValue(std::int64_t{64}));
  REQUIRE_FALSE(applied);
  CHECK(applied.error().code.value() == ENOTTY);
}

TEST_CASE("identify reflects the current modes and keeps the drive's identity", "[probe]") {
  auto device = make_sim(seed_identify());
  testing::apply_all(*device, settings_of({{"multcount", "8"}, {"xfermode", "mdma1"}}));
  auto info = device->identify();
  REQUIRE(info.has_value());
  CHECK(info->model == "IBM-DJNA-352500");
  CHECK(info->mdma_active == 1);
  CHECK_FALSE(info->udma_active.has_value());
  CHECK(info->multsect == 8);
  CHECK(info->lba_sectors == 49981680u);
}

TEST_CASE("simulated data is deterministic, position-dependent and bounded by the size", "[probe]") {
  auto device = make_sim(seed_identify());
  auto io = device->open_io(IoMode::buffered);
  REQUIRE(io);
  CHECK((*io)->size_bytes() == 49981680ull * 512);
  const auto first = testing::read_chunk(**io, 0);
  const auto shifted = testing::read_chunk(**io, 4096);
  CHECK(std::equal(first.begin() + 4096, first.end(), shifted.begin()));
  CHECK_FALSE(std::equal(first.begin(), first.begin() + 4096, first.begin() + 4096));
  const auto distinct = std::count(first.begin(), first.end(), first[0]);
  CHECK(distinct < 20000);  // not a constant fill: ~1/256 of 2 MiB equals byte 0

  std::vector<std::byte> buffer(4096);
  auto past = (*io)->read_at((*io)->size_bytes() - 2048, buffer);
  REQUIRE_FALSE(past);
  CHECK(past.error().code == std::make_error_code(std::errc::io_error));
  auto direct = device->open_io(IoMode::direct);
  REQUIRE(direct);
  CHECK(errno_of((*direct)->read_at(512, buffer)) == EINVAL);
}

TEST_CASE("noise depends only on seed, settings and sample number", "[probe]") {
  const auto samples = [](std::uint64_t seed, bool tuned_first) {
    auto device = make_sim(seed_identify(), {}, seed);
    std::vector<double> result;
    for (const bool tuned : {tuned_first, !tuned_first}) {
      REQUIRE(device->restore(tuned ? walkthrough_settings()
                                    : settings_of({{"using_dma", "0"}, {"xfermode", "udma2"},
                                                   {"multcount", "0"}, {"io_support", "0"},
                                                   {"unmaskirq", "0"}})));
      auto io = device->open_io(IoMode::buffered);
      REQUIRE(io);
      std::vector<double> run{buffered_mib_s(**io), buffered_mib_s(**io)};
      if (tuned) result.insert(result.begin(), run.begin(), run.end());
      else result.insert(result.end(), run.begin(), run.end());
    }
    return result;  // tuned sample 1, 2, then default sample 1, 2
  };
  const auto a = samples(7, true);
  const auto b = samples(7, false);  // the other trial order
  const auto c = samples(8, true);
  // Equal up to the rounding of the virtual clock's absolute time (a double).
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == Approx(b[i]).epsilon(1e-9));
  CHECK_FALSE(a[0] == Approx(c[0]).epsilon(1e-6));
  CHECK(a[0] != a[1]);  // successive samples of one BlockIo differ
  CHECK(a[0] == Approx(c[0]).epsilon(0.10));
}

TEST_CASE("an unreported cable is inferred from SATA or an active UDMA3+ mode", "[probe]") {
  IdentifyInfo sata = testing::udma5_identify();
  sata.cable_80wire.reset();
  sata.is_sata = true;
  CHECK(sim_limits(sata, std::nullopt).cable_80wire);
  IdentifyInfo pata = testing::udma5_identify();
  pata.cable_80wire.reset();
  CHECK_FALSE(sim_limits(pata, std::nullopt).cable_80wire);
  pata.udma_active = 5;
  CHECK(sim_limits(pata, std::nullopt).cable_80wire);
  CHECK_FALSE(sim_limits(pata, false).cable_80wire);  // the profile's override wins
  auto device = make_sim(pata);
  CHECK(device->identify()->cable_80wire == true);
  CHECK(format_value(SettingId::xfermode, *device->read(SettingId::xfermode)) == "udma5");
}

TEST_CASE("an active mode the cable forbids starts at the best allowed mode", "[probe]") {
  IdentifyInfo info = testing::udma5_identify();
  info.udma_active = 5;
  SimProfile profile;
  profile.cable_80wire = false;
  auto device = make_sim(info, profile);
  CHECK(format_value(SettingId::xfermode, *device->read(SettingId::xfermode)) == "udma2");
  CHECK(device->identify()->cable_80wire == false);
  auto start = device->snapshot();
  REQUIRE(start.has_value());
  CHECK(device->restore(*start));
}
