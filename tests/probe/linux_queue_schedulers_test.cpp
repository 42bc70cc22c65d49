// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxQueue::accepted_nr_requests_by_scheduler on a real loop device: ladders hold, state is put back.
#include "probe/linux_queue.hpp"

#include "probe/device.hpp"
#include "probe/unique_fd.hpp"
#include "tests/support/loop_device.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>

using namespace disktune::probe;

TEST_CASE("accepted_nr_requests_by_scheduler: each ladder holds under its scheduler, the queue is put back",
          "[probe]") {
  std::string why;
  auto loop = disktune::testing::LoopDevice::create(8ULL << 20, why);
  if (!loop) {
    WARN("SKIPPED (loop device unavailable): " << why);
    return;
  }
  const SysfsQueue sysfs("/sys/block/" + loop->path().substr(loop->path().rfind('/') + 1) + "/queue");
  UniqueFd fd(::open(loop->path().c_str(), O_RDONLY | O_CLOEXEC));
  REQUIRE(fd);
  const auto list = parse_scheduler_line(sysfs.read("scheduler").value()).value();
  if (std::find(list.names.begin(), list.names.end(), "mq-deadline") == list.names.end()) {
    WARN("SKIPPED: no mq-deadline scheduler to keep a tunable of");
    return;
  }
  // Start under mq-deadline with a tunable and nr_requests off their defaults.
  REQUIRE(sysfs.write("scheduler", "mq-deadline"));
  REQUIRE(sysfs.write("iosched/fifo_batch", "7"));
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
  REQUIRE(sysfs.write("scheduler", list.active));
}

TEST_CASE("LinuxDevice: a trial's scheduler switch and the restore leave the scheduler's tunables as found",
          "[probe]") {
  std::string why;
  auto loop = disktune::testing::LoopDevice::create(8ULL << 20, why);
  if (!loop) {
    WARN("SKIPPED (loop device unavailable): " << why);
    return;
  }
  const SysfsQueue sysfs("/sys/block/" + loop->path().substr(loop->path().rfind('/') + 1) + "/queue");
  const auto list = parse_scheduler_line(sysfs.read("scheduler").value()).value();
  if (std::find(list.names.begin(), list.names.end(), "mq-deadline") == list.names.end()) {
    WARN("SKIPPED: no mq-deadline scheduler to keep a tunable of");
    return;
  }
  REQUIRE(sysfs.write("scheduler", "mq-deadline"));
  REQUIRE(sysfs.write("iosched/fifo_batch", "7"));
  auto device = make_device(loop->path(), {});
  REQUIRE(device.has_value());
  const auto original = (*device)->snapshot().value();
  const Settings trial{{SettingId::scheduler, SettingValue(std::string("none"))}, {SettingId::nr_requests, SettingValue(64)}};
  REQUIRE((*device)->restore(with_changes(original, trial)));
  REQUIRE((*device)->restore(original));
  CHECK(sysfs.read("iosched/fifo_batch").value() == "7");
  REQUIRE(sysfs.write("scheduler", list.active));
}
