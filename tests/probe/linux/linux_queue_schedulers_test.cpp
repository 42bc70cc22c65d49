// SPDX-License-Identifier: GPL-2.0-or-later
// Scheduler couplings on a real loop device: nr_requests ladders per scheduler, tunables put back.
#include "probe/linux/linux_queue.hpp"

#include "probe/device.hpp"
#include "probe/linux/linux_device.hpp"
#include "probe/core/unique_fd.hpp"
#include "tests/support/loop_device.hpp"

#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>

using namespace disktune::probe;

namespace {

SysfsQueue queue_of(const disktune::testing::LoopDevice& loop) {
  return SysfsQueue("/sys/block/" + loop.path().substr(loop.path().rfind('/') + 1) + "/queue");
}

// A loop device of the test's own, under mq-deadline with its fifo_batch tunable at 7 (off the
// default); nullptr (and a WARN) when there is no loop device or no mq-deadline.
std::unique_ptr<disktune::testing::LoopDevice> deadline_loop(std::string& original_scheduler) {
  std::string why;
  auto loop = disktune::testing::LoopDevice::create(8ULL << 20, why);
  if (!loop) {
    disktune::testing::skip_test("loop device unavailable: " + why);
    return nullptr;
  }
  const auto sysfs = queue_of(*loop);
  const auto list = parse_scheduler_line(sysfs.read("scheduler").value()).value();
  if (std::find(list.names.begin(), list.names.end(), "mq-deadline") == list.names.end()) {
    disktune::testing::skip_test("no mq-deadline scheduler to keep a tunable of");
    return nullptr;
  }
  original_scheduler = list.active;
  REQUIRE(sysfs.write("scheduler", "mq-deadline"));
  REQUIRE(sysfs.write("iosched/fifo_batch", "7"));
  return loop;
}

}  // namespace

TEST_CASE("accepted_nr_requests_by_scheduler: each ladder holds under its scheduler, the queue is put back",
          "[probe]") {
  std::string found;
  auto loop = deadline_loop(found);
  if (!loop) return;
  const auto sysfs = queue_of(*loop);
  UniqueFd fd(::open(loop->path().c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd);
  const auto list = parse_scheduler_line(sysfs.read("scheduler").value()).value();
  // Under mq-deadline with a tunable and nr_requests off their defaults.
  REQUIRE(sysfs.write("nr_requests", "40"));
  LinuxQueue queue(sysfs, fd.get(), loop->path());
  auto ladders = queue.accepted_nr_requests_by_scheduler();
  REQUIRE(ladders.has_value());
  CHECK(parse_scheduler_line(sysfs.read("scheduler").value()).value().active == "mq-deadline");
  CHECK(sysfs.read("iosched/fifo_batch").value() == "7");
  CHECK(sysfs.read_number("nr_requests").value() == 40);
  REQUIRE(ladders->size() == list.names.size());
  // Every value of a ladder is accepted under its scheduler; every other power of two is not.
  for (const auto& [scheduler, ladder] : *ladders) {
    INFO("scheduler " << scheduler);
    REQUIRE(sysfs.write("scheduler", scheduler));
    for (const auto n : power_ladder(4, 2048, 4)) {
      INFO("nr_requests " << n);
      const bool listed = std::find(ladder.begin(), ladder.end(), n) != ladder.end();
      CHECK(static_cast<bool>(sysfs.write("nr_requests", std::to_string(n))) == listed);
    }
  }
  REQUIRE(sysfs.write("scheduler", found));
}

TEST_CASE("LinuxDevice: a trial's scheduler switch and the restore leave the scheduler's tunables as found",
          "[probe]") {
  std::string found;
  auto loop = deadline_loop(found);
  if (!loop) return;
  const auto sysfs = queue_of(*loop);
  auto device = make_linux_device(loop->path());
  REQUIRE(device.has_value());
  const auto original = (*device)->snapshot().value();
  const Settings trial{{SettingId::scheduler, SettingValue(std::string("none"))}, {SettingId::nr_requests, SettingValue(64)}};
  REQUIRE((*device)->restore(with_changes(original, trial)));
  REQUIRE((*device)->restore(original));
  CHECK(sysfs.read("iosched/fifo_batch").value() == "7");
  REQUIRE(sysfs.write("scheduler", found));
}

TEST_CASE("LinuxDevice: tunables kept from a journal come back with their scheduler and are read back",
          "[probe]") {
  std::string found;
  auto loop = deadline_loop(found);
  if (!loop) return;
  const auto sysfs = queue_of(*loop);
  auto recorded = make_linux_device(loop->path());
  REQUIRE(recorded.has_value());
  const auto original = (*recorded)->snapshot().value();
  const auto tunables = (*recorded)->scheduler_tunables().value();
  REQUIRE(tunables.scheduler == "mq-deadline");
  // As after a kill -9 mid-trial: another scheduler active, a new process that never saw the originals.
  REQUIRE(sysfs.write("scheduler", "none"));
  auto device = make_linux_device(loop->path());
  REQUIRE(device.has_value());
  (*device)->keep_tunables(tunables);
  REQUIRE((*device)->restore(original));
  CHECK(parse_scheduler_line(sysfs.read("scheduler").value()).value().active == "mq-deadline");
  CHECK(sysfs.read("iosched/fifo_batch").value() == "7");
  SECTION("and a tunable changed under the original scheduler itself is written back too") {
    REQUIRE(sysfs.write("iosched/fifo_batch", "9"));
    REQUIRE((*device)->restore(original));
    CHECK(sysfs.read("iosched/fifo_batch").value() == "7");
  }
  REQUIRE(sysfs.write("scheduler", found));
}
