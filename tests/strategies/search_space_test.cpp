// SPDX-License-Identifier: GPL-2.0-or-later
// The legal space of the seed-like drive, and its pruning reasons.
#include "strategies/search_space.hpp"

#include "probe/in_use.hpp"
#include "tests/support/seed_like_identify.hpp"

#include "probe/power_levels.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {

std::size_t pruned_count(const strategies::SearchSpace& space, const std::string& fragment) {
  std::size_t count = 0;
  for (const auto& p : space.pruned())
    if (p.reason.find(fragment) != std::string::npos) count += p.count;
  return count;
}

std::vector<std::int64_t> numbers(const std::vector<SettingValue>& values) {
  std::vector<std::int64_t> out;
  for (const auto& v : values) out.push_back(v.number());
  return out;
}

}  // namespace

TEST_CASE("build_space bounds the seed drive's settings by its identify data", "[strategies]") {
  const auto space = strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                             testing::seed_baseline(), {});
  REQUIRE(numbers(space.values(SettingId::multcount)) == std::vector<std::int64_t>{0, 1, 2, 4, 8, 16});
  REQUIRE(numbers(space.values(SettingId::io_support)) == std::vector<std::int64_t>{0, 1, 3});
  REQUIRE(numbers(space.values(SettingId::unmaskirq)) == std::vector<std::int64_t>{0, 1});
  // PIO 0-4 (8-12), MDMA 0-2 (32-34), UDMA 0-2 (64-66): no 80-wire cable reported.
  REQUIRE(numbers(space.values(SettingId::xfermode)) ==
          std::vector<std::int64_t>{8, 9, 10, 11, 12, 32, 33, 34, 64, 65, 66});
  // 6 multcount x 3 io_support x 2 unmaskirq x 12 transfer choices x 6 readahead: the 11
  // legal (using_dma, xfermode) pairs plus the pair as found (DMA off, UDMA2 on the drive).
  REQUIRE(space.legal_count() == 6 * 3 * 2 * 12 * 6);
  REQUIRE(space.contains(testing::seed_baseline()));
  REQUIRE(pruned_count(space, "above MaxMultSect") == 48);
  REQUIRE(pruned_count(space, "power of two") == 11);
  REQUIRE(pruned_count(space, "80-wire") == 2);  // udma3, udma4
  REQUIRE(pruned_count(space, "DMA xfermode only with using_dma=1") == 6);
  REQUIRE(pruned_count(space, "PIO xfermode only with using_dma=0") == 5);
  // Every sysfs setting (the simulated drive has no block queue), APM and AAM (no word 83 bit).
  const auto sysfs_settings = std::count_if(probe::all_settings().begin(), probe::all_settings().end(), [](const auto id) {
    return !probe::setting_info(id).sysfs_attr.empty() || probe::is_power_level(id);
  });
  REQUIRE(space.excluded().size() == static_cast<std::size_t>(sysfs_settings));
}

TEST_CASE("build_space allows UDMA above 2 only with an 80-wire cable", "[strategies]") {
  auto id = testing::seed_like_identify();
  id.cable_80wire = true;
  const auto space = strategies::build_space(id, testing::legacy_capabilities(), testing::seed_baseline(), {});
  const auto x = numbers(space.values(SettingId::xfermode));
  REQUIRE(std::find(x.begin(), x.end(), 68) != x.end());
  REQUIRE(pruned_count(space, "80-wire") == 0);
}

TEST_CASE("build_space without DMA support keeps using_dma at 0 and only PIO modes", "[strategies]") {
  auto id = testing::seed_like_identify();
  id.dma_supported = false;
  auto baseline = testing::seed_baseline();
  baseline[SettingId::xfermode] = SettingValue(std::int64_t{12});  // a PIO-only drive runs PIO4
  const auto space = strategies::build_space(id, testing::legacy_capabilities(), baseline, {});
  REQUIRE(numbers(space.values(SettingId::using_dma)) == std::vector<std::int64_t>{0});
  REQUIRE(numbers(space.values(SettingId::xfermode)) == std::vector<std::int64_t>{8, 9, 10, 11, 12});
  REQUIRE(pruned_count(space, "word 49 bit 8") > 0);
}

TEST_CASE("build_space honours --only and names every excluded setting", "[strategies]") {
  strategies::SpaceOptions options;
  options.only = std::vector{SettingId::io_support, SettingId::multcount};
  const auto space = strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                             testing::seed_baseline(), options);
  REQUIRE(space.groups().size() == 2);
  REQUIRE(space.legal_count() == 3 * 6);
  REQUIRE(pruned_count(space, "--only") > 0);
  REQUIRE(space.contains(testing::seed_baseline()));
}

TEST_CASE("build_space without identify data excludes the ATA knobs with a reason", "[strategies]") {
  const auto space = strategies::build_space(std::nullopt, testing::legacy_capabilities(),
                                             testing::seed_baseline(), {});
  REQUIRE(space.groups().size() == 1);  // readahead only
  bool named = false;
  for (const auto& e : space.excluded())
    if (e.id == SettingId::multcount) named = e.reason.find("identify") != std::string::npos;
  REQUIRE(named);
}

TEST_CASE("build_space on a disk in use refuses the ATA knobs with the hdparm manual's reason", "[strategies]") {
  strategies::SpaceOptions options;
  options.data_in_use = true;
  const auto space = strategies::build_space(testing::seed_like_identify(), testing::legacy_capabilities(),
                                             testing::seed_baseline(), options);
  // readahead alone is searched; the five ATA knobs keep their values as found.
  REQUIRE(space.groups().size() == 1);
  REQUIRE(space.groups().front().settings == std::vector{SettingId::readahead});
  REQUIRE(space.legal_count() == 6);
  REQUIRE(space.contains(testing::seed_baseline()));
  for (const auto id : {SettingId::multcount, SettingId::io_support, SettingId::unmaskirq, SettingId::using_dma,
                        SettingId::xfermode}) {
    INFO(probe::setting_name(id));
    REQUIRE(space.values(id).empty());
    const auto excluded = std::find_if(space.excluded().begin(), space.excluded().end(),
                                       [id](const auto& e) { return e.id == id; });
    REQUIRE(excluded != space.excluded().end());
    REQUIRE(excluded->reason == std::string(probe::kInUsePrefix) + std::string(*probe::in_use_hazard(id)));
  }
  // Counted as the values they would have offered (the first test's space): 6 multcount,
  // 3 io_support, 2 unmaskirq, 2 using_dma, 11 xfermode; their own bounds are not listed.
  REQUIRE(pruned_count(space, "refused on a disk in use: multcount (-m)") == 6);
  REQUIRE(pruned_count(space, "refused on a disk in use: io_support (-c)") == 3);
  REQUIRE(pruned_count(space, "refused on a disk in use: unmaskirq (-u)") == 2);
  REQUIRE(pruned_count(space, "refused on a disk in use: using_dma (-d)") == 2);
  REQUIRE(pruned_count(space, "refused on a disk in use: xfermode (-X)") == 11);
  REQUIRE(pruned_count(space, "MaxMultSect") == 0);
  REQUIRE(pruned_count(space, "80-wire") == 0);
}

TEST_CASE("build_space on a disk in use keeps the queue knobs", "[strategies]") {
  const std::vector<probe::Capability> caps{
      {SettingId::read_ahead_kb, probe::Support::supported, {SettingValue(128), SettingValue(512)}, "", {}},
      {SettingId::max_sectors_kb, probe::Support::supported, {SettingValue(128), SettingValue(256)}, "", {}},
      {SettingId::nr_requests, probe::Support::supported, {SettingValue(64), SettingValue(128)}, "", {}},
      {SettingId::scheduler, probe::Support::supported,
       {SettingValue(std::string("none")), SettingValue(std::string("mq-deadline"))}, "", {}}};
  const probe::Settings baseline{{SettingId::read_ahead_kb, SettingValue(128)},
                                 {SettingId::max_sectors_kb, SettingValue(128)},
                                 {SettingId::nr_requests, SettingValue(64)},
                                 {SettingId::scheduler, SettingValue(std::string("none"))}};
  strategies::SpaceOptions in_use;
  in_use.data_in_use = true;
  const auto used = strategies::build_space(std::nullopt, caps, baseline, in_use);
  const auto not_in_use = strategies::build_space(std::nullopt, caps, baseline, {});
  REQUIRE(used.legal_count() == not_in_use.legal_count());
  REQUIRE(used.legal_count() == 2 * 2 * 2 * 2);
  REQUIRE(pruned_count(used, "refused on a disk in use") == 0);
}
