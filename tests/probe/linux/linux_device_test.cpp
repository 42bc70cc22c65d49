// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for LinuxDevice and LinuxBlockIo on loop devices the tests create (root only).
#include "probe/linux/device_names.hpp"
#include "probe/linux/linux_device.hpp"
#include "probe/linux/sysfs.hpp"
#include "tests/support/loop_device.hpp"
#include "tests/support/require_value.hpp"
#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace disktune::probe;
using disktune::testing::LoopDevice;
using disktune::testing::require_value;

namespace {

constexpr std::uint64_t kLoopBytes = 64ULL << 20;
const std::array<std::string, 4> kQueueAttrs{"read_ahead_kb", "scheduler", "nr_requests",
                                             "max_sectors_kb"};

// Tests that need root or losetup skip (tests/support/skip.hpp) and return.
#define SKIP_WITHOUT(loop, why)                                                     \
  if (!(loop)) {                                                                    \
    disktune::testing::skip_test(std::string("loop device unavailable: ") + (why)); \
    return;                                                                         \
  }

std::string queue_file(const std::string& dev, const std::string& attr) {
  return "/sys/block/" + kernel_name(dev) + "/queue/" + attr;
}

std::map<std::string, std::string> queue_texts(const std::string& dev) {
  std::map<std::string, std::string> texts;
  for (const auto& attr : kQueueAttrs)
    texts[attr] = require_value(read_sysfs(queue_file(dev, attr)));
  return texts;
}

const Capability& find(const std::vector<Capability>& caps, SettingId id) {
  const auto it =
      std::find_if(caps.begin(), caps.end(), [id](const Capability& c) { return c.id == id; });
  REQUIRE(it != caps.end());
  return *it;
}

bool contains(const std::vector<SettingValue>& values, const SettingValue& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::unique_ptr<Device> open_device(const std::string& path) {
  auto device = make_linux_device(path);
  REQUIRE(device);
  return std::move(*device);
}

}  // namespace

TEST_CASE("make_linux_device refuses missing paths and non-block files", "[probe]") {
  auto missing = make_linux_device("/nonexistent/disktune-no-such-device");
  REQUIRE_FALSE(missing);
  REQUIRE(missing.error().code.value() == ENOENT);
  REQUIRE(missing.error().path == "/nonexistent/disktune-no-such-device");
  // A mistyped name says where the disks' names are, not "stat on ...".
  CHECK(missing.error().message() ==
        "open: no such device (lsblk -d lists the whole disks, /dev/disk/by-id their stable names) on "
        "/nonexistent/disktune-no-such-device: No such file or directory");

  auto null_device = make_linux_device("/dev/null");
  REQUIRE_FALSE(null_device);
  REQUIRE(null_device.error().code.value() == ENOTBLK);

  std::string file = "/tmp/disktune-regular-XXXXXX";
  const int fd = ::mkstemp(file.data());
  REQUIRE(fd >= 0);
  ::close(fd);
  auto regular = make_linux_device(file);
  std::filesystem::remove(file);
  REQUIRE_FALSE(regular);
  REQUIRE(regular.error().code.value() == ENOTBLK);
  REQUIRE(regular.error().path == file);
}

TEST_CASE("make_linux_device refuses a partition and names its whole disk", "[probe]") {
  std::string why;
  auto loop = LoopDevice::create(8ULL << 20, why, {}, true);
  SKIP_WITHOUT(loop, why);
  if (const auto failed = loop->add_partition(1, 2048, 4096); !failed.empty()) {
    disktune::testing::skip_test("no partition on the loop device: " + failed);
    return;
  }
  const std::string partition = loop->path() + "p1";
  REQUIRE(std::filesystem::exists(partition));
  auto opened = make_linux_device(partition);
  REQUIRE_FALSE(opened);
  REQUIRE(opened.error().code == std::errc::invalid_argument);
  REQUIRE_THAT(opened.error().message(),
               Catch::Contains("is a partition; settings belong to the whole disk (use " +
                               loop->path() + ")"));
  REQUIRE(make_linux_device(loop->path()));
}

TEST_CASE("a loop device offers the block-layer settings and refuses the ATA knobs", "[probe]") {
  std::string why;
  auto loop = LoopDevice::create(kLoopBytes, why);
  SKIP_WITHOUT(loop, why);
  auto device = open_device(loop->path());
  REQUIRE_FALSE(device->simulated());
  const auto before = queue_texts(loop->path());
  const auto caps = device->capabilities();
  REQUIRE(caps.size() == all_settings().size());

  SECTION("scheduler values are exactly the names in queue/scheduler") {
    const auto& scheduler = find(caps, SettingId::scheduler);
    REQUIRE(scheduler.support == Support::supported);
    const auto listed = require_value(parse_scheduler_line(before.at("scheduler")));
    REQUIRE(scheduler.values.size() == listed.names.size());
    for (std::size_t i = 0; i < listed.names.size(); ++i)
      REQUIRE(scheduler.values[i] == SettingValue(listed.names[i]));
    REQUIRE(require_value(device->read(SettingId::scheduler)) == SettingValue(listed.active));
  }
  SECTION("nr_requests lists accepted values and probing leaves the queue as it was") {
    const auto& nr = find(caps, SettingId::nr_requests);
    REQUIRE(nr.support == Support::supported);
    REQUIRE(nr.values.size() >= 2);
    const SettingValue current(std::stoll(before.at("nr_requests")));
    REQUIRE(contains(nr.values, current));
    for (const auto& value : nr.values) {
      const auto n = value.number();
      REQUIRE((value == current || (n >= 4 && n <= 2048 && (n & (n - 1)) == 0)));
    }
    // Under "none" the queue takes no more requests than its tag depth (the loop default,
    // 128); a loop minor keeps an earlier user's nr_requests, which may be below it.
    if (parse_scheduler_line(before.at("scheduler"))->active == "none") {
      REQUIRE(nr.values.back().number() >= current.number());
      REQUIRE(nr.values.back().number() <= 128);
      REQUIRE(nr.values.front() == SettingValue(std::int64_t{4}));
    }
    REQUIRE(queue_texts(loop->path()) == before);
  }
  SECTION("read_ahead_kb and max_sectors_kb offer ladders bounded as documented") {
    const auto& ra = find(caps, SettingId::read_ahead_kb);
    REQUIRE(ra.support == Support::supported);
    REQUIRE(contains(ra.values, SettingValue(std::stoll(before.at("read_ahead_kb")))));
    REQUIRE(contains(ra.values, SettingValue(std::int64_t{0})));
    REQUIRE(contains(ra.values, SettingValue(std::int64_t{8192})));
    const auto& ms = find(caps, SettingId::max_sectors_kb);
    REQUIRE(ms.support == Support::supported);
    const auto max_hw =
        require_value(read_sysfs_number(queue_file(loop->path(), "max_hw_sectors_kb")));
    REQUIRE(contains(ms.values, SettingValue(std::stoll(before.at("max_sectors_kb")))));
    for (const auto& value : ms.values) REQUIRE(value.number() <= max_hw);
  }
  SECTION("readahead is the read-only BLKRAGET view of read_ahead_kb") {
    const auto& ra = find(caps, SettingId::readahead);
    REQUIRE(ra.support == Support::read_only);
    REQUIRE_THAT(ra.reason, Catch::StartsWith("same value as queue/read_ahead_kb"));
    REQUIRE(require_value(device->read(SettingId::readahead)).number() ==
            2 * std::stoll(before.at("read_ahead_kb")));
    REQUIRE_FALSE(device->apply(SettingId::readahead, SettingValue(std::int64_t{256})));
  }
  SECTION("ATA knobs are unsupported with the refused ioctl as the reason") {
    const std::array<std::pair<SettingId, std::string>, 4> knobs{
        {{SettingId::multcount, "HDIO_GET_MULTCOUNT"},
         {SettingId::io_support, "HDIO_GET_32BIT"},
         {SettingId::unmaskirq, "HDIO_GET_UNMASKINTR"},
         {SettingId::using_dma, "HDIO_GET_DMA"}}};
    for (const auto& [id, ioctl_name] : knobs) {
      const auto& knob = find(caps, id);
      REQUIRE(knob.support == Support::unsupported);
      const auto prefix = "ioctl(" + ioctl_name + ") on " + loop->path() + ": ";
      const bool refused = knob.reason == prefix + std::strerror(ENOTTY) ||
                           knob.reason == prefix + std::strerror(EINVAL);
      INFO(knob.reason);
      REQUIRE(refused);
      auto value = device->read(id);
      REQUIRE_FALSE(value);
      REQUIRE(value.error().is_unsupported());
    }
    const auto& xfer = find(caps, SettingId::xfermode);
    REQUIRE(xfer.support == Support::unsupported);
    REQUIRE_THAT(xfer.reason, Catch::Contains("SET FEATURES 0x03 not attempted: no identify data"));
  }
  SECTION("identify is not supported, so the caller tunes the block layer only") {
    auto identity = device->identify();
    REQUIRE_FALSE(identity.has_value());
    REQUIRE(identity.error().code == std::errc::not_supported);
    const auto& op = identity.error().op;
    REQUIRE_THAT(op, Catch::StartsWith("no identify data (ioctl(HDIO_GET_IDENTITY) on " + loop->path() + ": "));
    REQUIRE_THAT(op, Catch::Contains("; ioctl(SG_IO ATA_16 IDENTIFY) on " + loop->path() + ": "));
    REQUIRE(identity.error().is_unsupported());
  }
}

TEST_CASE("queue settings of a loop device read back as applied and restore exactly", "[probe]") {
  std::string why;
  auto loop = LoopDevice::create(kLoopBytes, why);
  SKIP_WITHOUT(loop, why);
  auto device = open_device(loop->path());
  const auto before = queue_texts(loop->path());
  const auto snapshot = require_value(device->snapshot());
  // The six queue files, and the tunables disktune searches of the scheduler the loop runs.
  const auto active = snapshot.at(SettingId::scheduler).text();
  const auto tunables = std::count_if(scheduler_tunable_settings().begin(), scheduler_tunable_settings().end(),
                                      [&](const auto id) { return setting_info(id).scheduler == active; });
  REQUIRE(snapshot.size() == 6 + static_cast<std::size_t>(tunables));
  REQUIRE(format_value(SettingId::scheduler, snapshot.at(SettingId::scheduler)) ==
          require_value(parse_scheduler_line(before.at("scheduler"))).active);

  const auto apply_and_check = [&](SettingId id, const SettingValue& value) {
    REQUIRE(device->apply(id, value));
    REQUIRE(require_value(device->read(id)) == value);
    const auto text =
        require_value(read_sysfs(queue_file(loop->path(), std::string(setting_name(id)))));
    if (id == SettingId::scheduler)
      REQUIRE(require_value(parse_scheduler_line(text)).active == value.text());
    else
      REQUIRE(text == format_value(id, value));
  };
  const auto other = [&](SettingId id, std::int64_t a, std::int64_t b) {
    return SettingValue(snapshot.at(id).number() == a ? b : a);
  };
  apply_and_check(SettingId::nr_requests, other(SettingId::nr_requests, 32, 16));
  apply_and_check(SettingId::read_ahead_kb, other(SettingId::read_ahead_kb, 512, 256));
  apply_and_check(SettingId::max_sectors_kb, other(SettingId::max_sectors_kb, 64, 128));
  const auto listed = require_value(parse_scheduler_line(before.at("scheduler")));
  REQUIRE(listed.names.size() >= 2);
  const auto& other_scheduler =
      listed.names[0] == listed.active ? listed.names[1] : listed.names[0];
  apply_and_check(SettingId::scheduler, SettingValue(other_scheduler));

  auto refused = device->apply(SettingId::nr_requests, SettingValue(std::int64_t{100000}));
  REQUIRE_FALSE(refused);
  REQUIRE(refused.error().is_unsupported());
  REQUIRE(refused.error().op == "write queue/nr_requests=100000");
  REQUIRE_THAT(refused.error().path, Catch::EndsWith("/queue/nr_requests"));

  REQUIRE(device->restore(snapshot));
  REQUIRE(queue_texts(loop->path()) == before);
}

TEST_CASE("restore applies the scheduler before nr_requests on a loop device", "[probe]") {
  std::string why;
  auto loop = LoopDevice::create(kLoopBytes, why);
  SKIP_WITHOUT(loop, why);
  if (read_sysfs(queue_file(loop->path(), "scheduler"))->find("mq-deadline") == std::string::npos) {
    disktune::testing::skip_test("this kernel offers no mq-deadline scheduler");
    return;
  }
  auto device = open_device(loop->path());
  const auto original = require_value(device->snapshot());
  // Under mq-deadline the queue takes nr_requests far above the loop's tag depth; under
  // "none" it does not, so this restore only works in SettingId order.
  REQUIRE(device->apply(SettingId::scheduler, SettingValue(std::string("mq-deadline"))));
  REQUIRE(device->apply(SettingId::nr_requests, SettingValue(std::int64_t{2048})));
  const auto deep = require_value(device->snapshot());
  REQUIRE(device->apply(SettingId::scheduler, SettingValue(std::string("none"))));
  REQUIRE(require_value(device->read(SettingId::nr_requests)).number() < 2048);
  REQUIRE(device->restore(deep));
  REQUIRE(require_value(device->read(SettingId::nr_requests)) == SettingValue(std::int64_t{2048}));
  REQUIRE(device->restore(original));
  REQUIRE(require_value(device->snapshot()) == original);
}

TEST_CASE("BlockIo on a loop device reads the backing file's bytes and changes nothing",
          "[probe]") {
  std::string why;
  auto loop = LoopDevice::create(kLoopBytes, why);
  SKIP_WITHOUT(loop, why);
  const auto checksum_before = loop->file_checksum();
  REQUIRE(checksum_before == disktune::testing::fnv1a(loop->contents()));
  auto device = open_device(loop->path());
  const auto mode = GENERATE(IoMode::buffered, IoMode::direct);
  auto io = device->open_io(mode);
  REQUIRE(io);
  REQUIRE((*io)->size_bytes() == kLoopBytes);
  REQUIRE((*io)->flush_cache());

  constexpr std::size_t kLen = 8192;
  std::unique_ptr<std::byte, decltype(&std::free)> buffer(
      static_cast<std::byte*>(std::aligned_alloc(4096, kLen)), &std::free);
  const std::span<std::byte> span(buffer.get(), kLen);
  const auto start = (*io)->clock().now();
  for (const std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{4096}, kLoopBytes / 64,
                                     kLoopBytes / 2 + 4096, kLoopBytes - kLen}) {
    REQUIRE((*io)->read_at(offset, span));
    INFO("offset " << offset);
    REQUIRE(std::memcmp(buffer.get(), loop->contents().data() + offset, kLen) == 0);
  }
  REQUIRE((*io)->clock().now() >= start);
  REQUIRE((*io)->flush_cache());

  auto past_end = (*io)->read_at(kLoopBytes - 4096, span);
  REQUIRE_FALSE(past_end);
  REQUIRE(past_end.error().code == std::errc::io_error);

  io->reset();
  device.reset();
  REQUIRE(loop->file_checksum() == checksum_before);
}

TEST_CASE("kernel_name and stable_device_path name a block device", "[probe]") {
  std::string why;
  auto loop = LoopDevice::create(1ULL << 20, why);
  SKIP_WITHOUT(loop, why);
  const auto name = kernel_name(loop->path());
  REQUIRE(name == std::filesystem::path(loop->path()).filename().string());
  REQUIRE(kernel_name("/dev/null") == "null");

  std::string by_id = "/tmp/disktune-byid-XXXXXX";
  REQUIRE(::mkdtemp(by_id.data()) != nullptr);
  namespace fs = std::filesystem;
  REQUIRE_FALSE(stable_device_path(loop->path(), by_id));
  fs::create_symlink(loop->path(), by_id + "/usb-Stick_123");
  fs::create_symlink("/dev/null", by_id + "/ata-Not_A_Disk");
  REQUIRE(stable_device_path(loop->path(), by_id) == by_id + "/usb-Stick_123");
  fs::create_symlink(loop->path(), by_id + "/wwn-0x5000c500a1b2c3d4");
  REQUIRE(stable_device_path(loop->path(), by_id) == by_id + "/wwn-0x5000c500a1b2c3d4");
  fs::create_symlink(loop->path(), by_id + "/ata-QEMU_HARDDISK_QM00001");
  REQUIRE(stable_device_path(loop->path(), by_id) == by_id + "/ata-QEMU_HARDDISK_QM00001");
  REQUIRE(kernel_name(by_id + "/ata-QEMU_HARDDISK_QM00001") == name);
  REQUIRE_FALSE(stable_device_path("/dev/null", by_id));
  fs::remove_all(by_id);
}
