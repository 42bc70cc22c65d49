// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxQueue's queue_depth (device/queue_depth, SCSI/SATA NCQ) on a fake sysfs tree.
#include "probe/linux/linux_queue.hpp"
#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace disktune::probe;
using disktune::testing::TempDir;

namespace {

void put(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text << '\n';
}

std::string content(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  std::getline(in, text);
  return text;
}

}  // namespace

TEST_CASE("queue_depth_ladder runs in powers of two from 1 up to the depth as found", "[probe]") {
  REQUIRE(queue_depth_ladder(32) == std::vector<std::int64_t>{1, 2, 4, 8, 16, 32});
  REQUIRE(queue_depth_ladder(31) == std::vector<std::int64_t>{1, 2, 4, 8, 16, 31});
  REQUIRE(queue_depth_ladder(1) == std::vector<std::int64_t>{1});
}

TEST_CASE("LinuxQueue reads, offers and writes device/queue_depth beside queue/", "[probe]") {
  const TempDir tree("queue-depth");
  put(tree.path() + "/sda/queue/nomerges", "0");
  put(tree.path() + "/sda/device/queue_depth", "32");
  LinuxQueue queue(SysfsQueue(tree.path() + "/sda/queue"), -1, "/dev/sda");
  REQUIRE(LinuxQueue::handles(SettingId::queue_depth));
  REQUIRE(sysfs_block_path(SettingId::queue_depth) == "device/queue_depth");
  const auto cap = queue.capability(SettingId::queue_depth);
  INFO(cap.reason);
  REQUIRE(cap.support == Support::supported);
  REQUIRE(cap.values.size() == 6);
  REQUIRE(cap.values.back() == SettingValue(std::int64_t{32}));
  REQUIRE(queue.read(SettingId::queue_depth).value() == SettingValue(std::int64_t{32}));
  // sysfs replaces the value on a write, a regular file does not: empty it first.
  put(tree.path() + "/sda/device/queue_depth", "");
  std::filesystem::resize_file(tree.path() + "/sda/device/queue_depth", 0);
  REQUIRE(queue.apply(SettingId::queue_depth, SettingValue(std::int64_t{4})));
  REQUIRE(content(tree.path() + "/sda/device/queue_depth") == "4");
  REQUIRE(queue.read(SettingId::queue_depth).value() == SettingValue(std::int64_t{4}));
  // The queue's own files stay where they are.
  std::filesystem::resize_file(tree.path() + "/sda/queue/nomerges", 0);
  REQUIRE(queue.apply(SettingId::nomerges, SettingValue(std::int64_t{2})));
  REQUIRE(content(tree.path() + "/sda/queue/nomerges") == "2");
}

TEST_CASE("queue_depth is unsupported, with the missing file, where there is no SCSI device", "[probe]") {
  const TempDir tree("queue-depth");
  put(tree.path() + "/loop0/queue/nomerges", "0");
  LinuxQueue queue(SysfsQueue(tree.path() + "/loop0/queue"), -1, "/dev/loop0");
  const auto cap = queue.capability(SettingId::queue_depth);
  REQUIRE(cap.support == Support::unsupported);
  REQUIRE(cap.reason.find("device/queue_depth") != std::string::npos);
  const auto wrote = queue.apply(SettingId::queue_depth, SettingValue(std::int64_t{4}));
  REQUIRE_FALSE(wrote);
  REQUIRE(wrote.error().op.find("device/queue_depth=4") != std::string::npos);
}
