// SPDX-License-Identifier: GPL-2.0-or-later
// DeviceHealth: its transitions (the first wedged child names it; it only gets worse).
#include "tuner/trial/device_health.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::ChildEnd;

TEST_CASE("device health: only a wedged child wedges the device, and the first one names it", "[tuner]") {
  tuner::DeviceHealth health;
  health.note_child(ChildEnd::timed_out, "trial nr_requests=2", "killed after 10 s");
  health.note_child(ChildEnd::failed, "trial nr_requests=4", "exit 1");
  REQUIRE_FALSE(health.wedged());
  REQUIRE(health.wedged_detail().empty());
  health.note_child(ChildEnd::wedged, "trial nr_requests=8", "state D after SIGKILL");
  health.note_child(ChildEnd::wedged, "confirmation round", "state D again");
  REQUIRE(health.wedged());
  REQUIRE(health.wedged_detail() == "trial nr_requests=8: state D after SIGKILL");
  REQUIRE_FALSE(health.restore_blocks());
  health.note_child(ChildEnd::finished, "read check after the restore", "");
  REQUIRE(health.wedged());
}

TEST_CASE("device health: a wedged restore child blocks further restores; a hung one does not", "[tuner]") {
  tuner::DeviceHealth health;
  health.note_restore(ChildEnd::timed_out, "killed after 10 s");
  REQUIRE_FALSE(health.restore_blocks());
  REQUIRE_FALSE(health.wedged());
  health.note_restore(ChildEnd::wedged, "state D");
  REQUIRE(health.restore_blocks());
  REQUIRE(health.wedged_detail() == "restore: state D");
}

TEST_CASE("device health: unreadable stays set", "[tuner]") {
  tuner::DeviceHealth health;
  REQUIRE_FALSE(health.unreadable());
  health.note_unreadable();
  health.note_child(ChildEnd::finished, "trial", "");
  REQUIRE(health.unreadable());
  REQUIRE_FALSE(health.wedged());
}
