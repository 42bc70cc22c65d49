// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's wire format: every field survives the round trip; bad text is refused.
#include "tuner/trial_wire.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using strategies::TrialStatus;

namespace {

tuner::ChildReport full_report() {
  tuner::ChildReport r;
  r.status = TrialStatus::unstable;
  r.samples = {101.5, 99.25, 100.0};
  r.cached_mib_s = 4096.5;
  r.crc = 0xdeadbeefu;
  r.detail = "settings changed: nr_requests reads back 64 instead of 128 after measuring";
  r.warmup_mib_s = 88.0;
  r.stop = "steady";
  r.measured_s = 3.75;
  return r;
}

void require_same(const tuner::ChildReport& a, const tuner::ChildReport& b) {
  REQUIRE(a.status == b.status);
  REQUIRE(a.samples == b.samples);
  REQUIRE(a.cached_mib_s == b.cached_mib_s);
  REQUIRE(a.crc == b.crc);
  REQUIRE(a.detail == b.detail);
  REQUIRE(a.warmup_mib_s == b.warmup_mib_s);
  REQUIRE(a.stop == b.stop);
  REQUIRE(a.measured_s == b.measured_s);
}

}  // namespace

TEST_CASE("trial wire: a report survives serialize and deserialize field by field", "[tuner]") {
  const auto sent = full_report();
  const auto received = tuner::deserialize(tuner::serialize(sent));
  REQUIRE(received.has_value());
  require_same(*received, sent);
}

TEST_CASE("trial wire: a confirmation round's reports survive in order, and only with the right count", "[tuner]") {
  auto second = full_report();
  second.status = TrialStatus::ok;
  second.samples = {7.0};
  const std::vector<tuner::ChildReport> sent{full_report(), second};
  const auto text = tuner::serialize_reports(sent);
  const auto received = tuner::deserialize_reports(text, 2);
  REQUIRE(received.has_value());
  REQUIRE(received->size() == 2);
  require_same((*received)[0], sent[0]);
  require_same((*received)[1], sent[1]);
  REQUIRE_FALSE(tuner::deserialize_reports(text, 3).has_value());
}

TEST_CASE("trial wire: text that is not a report is refused, an unknown status reads as error", "[tuner]") {
  REQUIRE_FALSE(tuner::deserialize("").has_value());
  REQUIRE_FALSE(tuner::deserialize("[1,2]").has_value());
  REQUIRE_FALSE(tuner::deserialize_reports("{}", 0).has_value());
  auto object = tuner::to_object(full_report());
  object["status"] = "no-such-status";
  REQUIRE(tuner::from_object(object).status == TrialStatus::error);
}
