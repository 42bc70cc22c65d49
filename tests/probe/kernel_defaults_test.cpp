// SPDX-License-Identifier: GPL-2.0-or-later
// kernel_defaults: the scheduler tunables' defaults and read-ahead from queue/optimal_io_size.
#include "probe/kernel_defaults.hpp"
#include "probe/linux/optimal_io_size.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace disktune::probe;

TEST_CASE("kernel_defaults: read-ahead is twice the optimal I/O size, at least 128 KiB", "[probe]") {
  CHECK(kernel_defaults(0).at(SettingId::read_ahead_kb) == SettingValue(std::int64_t{128}));
  CHECK(kernel_defaults(0).at(SettingId::readahead) == SettingValue(std::int64_t{256}));  // 512-byte sectors
  CHECK(kernel_defaults(32 * 1024).at(SettingId::read_ahead_kb) == SettingValue(std::int64_t{128}));
  CHECK(kernel_defaults(1024 * 1024).at(SettingId::read_ahead_kb) == SettingValue(std::int64_t{2048}));
  // 2 x 100000 bytes is 48.8 pages of 4 KiB: 48 pages, 192 KiB.
  CHECK(kernel_defaults(100000).at(SettingId::read_ahead_kb) == SettingValue(std::int64_t{192}));
  CHECK(kernel_defaults(100000, 65536).at(SettingId::read_ahead_kb) == SettingValue(std::int64_t{192}));
  for (const auto id : scheduler_tunable_settings()) CHECK(kernel_defaults(0).at(id) == tunable_default(id));
  // No optimal I/O size known (the simulated drive): no read-ahead default is claimed.
  CHECK_FALSE(kernel_defaults(std::nullopt).count(SettingId::read_ahead_kb));
  CHECK_FALSE(kernel_defaults(std::nullopt).count(SettingId::readahead));
  // Settings whose default depends on the driver or elevator are not claimed.
  CHECK_FALSE(kernel_defaults(0).count(SettingId::max_sectors_kb));
  CHECK_FALSE(kernel_defaults(0).count(SettingId::nr_requests));
}

TEST_CASE("optimal_io_size_bytes reads queue/optimal_io_size, nullopt without one", "[probe]") {
  namespace fs = std::filesystem;
  char pattern[] = "/tmp/disktune-oio-XXXXXX";
  REQUIRE(::mkdtemp(pattern) != nullptr);
  const fs::path dir(pattern);
  CHECK_FALSE(optimal_io_size_bytes(dir.string()));
  fs::create_directory(dir / "queue");
  std::ofstream(dir / "queue" / "optimal_io_size") << "1048576\n";
  CHECK(optimal_io_size_bytes(dir.string()) == 1048576);
  std::ofstream(dir / "queue" / "optimal_io_size") << "x\n";
  CHECK_FALSE(optimal_io_size_bytes(dir.string()));
  fs::remove_all(dir);
  CHECK_FALSE(optimal_io_size_bytes(HeldName{}));  // the simulated drive holds no device
}
