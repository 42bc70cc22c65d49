// SPDX-License-Identifier: GPL-2.0-or-later
// Test helpers for the simulated drive.
#include "tests/support/sim_fixture.hpp"

#include <catch2/catch.hpp>

namespace disktune::testing {
namespace {

constexpr std::uint64_t kChunk = 2u << 20;

probe::IdentifyInfo base_identify() {
  probe::IdentifyInfo info;
  info.max_multsect = 16;
  info.multsect = 16;
  info.dma_supported = true;
  info.lba_supported = true;
  info.iordy_supported = true;
  info.pio_modes = {0, 1, 2, 3, 4};
  info.mdma_modes = {0, 1, 2};
  info.source = probe::IdentifySource::hdparm_i;
  return info;
}

}  // namespace

probe::IdentifyInfo seed_identify() {
  probe::IdentifyInfo info = base_identify();
  info.model = "IBM-DJNA-352500";
  info.serial = "GW0GWF05809";
  info.firmware = "J51OA30K";
  info.udma_modes = {0, 1, 2, 3, 4};
  info.udma_active = 2;
  info.lba_sectors = 49981680;
  return info;
}

probe::IdentifyInfo udma5_identify() {
  probe::IdentifyInfo info = base_identify();
  info.model = "TEST-ATA100";
  info.udma_modes = {0, 1, 2, 3, 4, 5};
  info.udma_active = 2;
  info.cable_80wire = true;
  info.lba_sectors = 156301488;
  return info;
}

std::unique_ptr<probe::Device> make_sim(const probe::IdentifyInfo& identify,
                                        const probe::SimProfile& profile, std::uint64_t seed) {
  auto device = probe::make_sim_device_from(identify, "sim:", profile, seed);
  REQUIRE(device);
  return std::move(*device);
}

void apply_all(probe::Device& device, const probe::Settings& settings) {
  for (const auto& [id, value] : settings) {
    INFO(probe::setting_name(id) << "=" << probe::format_value(id, value));
    REQUIRE(device.apply(id, value));
  }
}

double buffered_mib_s(probe::BlockIo& io, double seconds) {
  REQUIRE(io.flush_cache());
  std::vector<std::byte> buffer(kChunk);
  const probe::Seconds start = io.clock().now();
  std::uint64_t bytes = 0;
  while ((io.clock().now() - start).count() < seconds) {
    REQUIRE(io.read_at(bytes, buffer));
    bytes += kChunk;
  }
  return static_cast<double>(bytes) / (1 << 20) / (io.clock().now() - start).count();
}

double cached_mib_s(probe::BlockIo& io, double seconds) {
  std::vector<std::byte> buffer(kChunk);
  REQUIRE(io.read_at(0, buffer));
  const probe::Seconds start = io.clock().now();
  std::uint64_t bytes = 0;
  while ((io.clock().now() - start).count() < seconds) {
    REQUIRE(io.read_at(0, buffer));
    bytes += kChunk;
  }
  return static_cast<double>(bytes) / (1 << 20) / (io.clock().now() - start).count();
}

std::vector<std::byte> read_chunk(probe::BlockIo& io, std::uint64_t offset) {
  std::vector<std::byte> buffer(kChunk);
  REQUIRE(io.read_at(offset, buffer));
  return buffer;
}

probe::Settings settings_of(std::initializer_list<std::pair<const char*, const char*>> pairs) {
  probe::Settings settings;
  for (const auto& [name, text] : pairs) {
    const auto id = probe::setting_from_name(name);
    REQUIRE(id);
    auto value = probe::parse_value(*id, text);
    REQUIRE(value);
    settings[*id] = *value;
  }
  return settings;
}

}  // namespace disktune::testing
