// SPDX-License-Identifier: GPL-2.0-or-later
// drift_cause: a cause only from evidence, in order of how directly it explains the drift.
#include "tuner/drift_cause.hpp"

#include <catch2/catch.hpp>

using namespace disktune::tuner;

TEST_CASE("drift cause: no evidence, no cause", "[tuner]") {
  REQUIRE(drift_cause({}).empty());
  DriftEvidence same_boot{"", "2026-12-01T10:00:00Z", "boot-a", "boot-a", std::nullopt};
  REQUIRE(drift_cause(same_boot).empty());
  // A udev event before the apply explains nothing.
  same_boot.udev_event_at = *parse_utc("2026-12-01T09:59:59Z");
  REQUIRE(drift_cause(same_boot).empty());
}

TEST_CASE("drift cause: a restore, a reboot, a udev event after the apply", "[tuner]") {
  const DriftEvidence restored{"2026-12-01T11:00:00Z", "2026-12-01T10:00:00Z", "boot-a", "boot-a", std::nullopt};
  REQUIRE(drift_cause(restored) == "'disktune restore' at 2026-12-01T11:00:00Z put back the values from before the apply");
  const DriftEvidence rebooted{"", "2026-12-01T10:00:00Z", "boot-a", "boot-b", std::nullopt};
  REQUIRE(drift_cause(rebooted) == "the machine restarted since the apply at 2026-12-01T10:00:00Z (boot id changed) and "
                                   "nothing re-applied it ('disktune install' makes it permanent)");
  const DriftEvidence udev{"", "2026-12-01T10:00:00Z", "boot-a", "boot-a", *parse_utc("2026-12-01T10:30:05Z")};
  REQUIRE(drift_cause(udev) == "udev handled an event for the device at 2026-12-01T10:30:05Z, after the apply at "
                               "2026-12-01T10:00:00Z: a change event (revalidation, a rule) or a re-add");
}

TEST_CASE("parse_utc reads the journal's timestamps and nothing else", "[tuner]") {
  REQUIRE(parse_utc("1970-01-01T00:01:40Z") == std::optional<std::time_t>(100));
  REQUIRE_FALSE(parse_utc("yesterday").has_value());
  REQUIRE_FALSE(parse_utc("").has_value());
}
