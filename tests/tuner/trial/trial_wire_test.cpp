// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's wire format: every field survives the round trip; bad text is refused.
#include "tuner/trial/trial_wire.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using strategies::TrialStatus;

namespace {

tuner::ChildReport full_report() {
  tuner::ChildReport r;
  r.trial.status = TrialStatus::unstable;
  r.trial.samples = {101.5, 99.25, 100.0};
  r.cached_median_mib_s = 4096.5;
  r.data_crc32 = 0xdeadbeefu;
  r.trial.detail = "settings changed: nr_requests reads back 64 instead of 128 after measuring";
  r.trial.warmup = 88.0;
  r.trial.sampling_stop = "steady";
  r.trial.measured_s = 3.75;
  return r;
}

void require_same(const tuner::ChildReport& a, const tuner::ChildReport& b) {
  REQUIRE(a.trial.status == b.trial.status);
  REQUIRE(a.trial.samples == b.trial.samples);
  REQUIRE(a.cached_median_mib_s == b.cached_median_mib_s);
  REQUIRE(a.data_crc32 == b.data_crc32);
  REQUIRE(a.trial.detail == b.trial.detail);
  REQUIRE(a.trial.warmup == b.trial.warmup);
  REQUIRE(a.trial.sampling_stop == b.trial.sampling_stop);
  REQUIRE(a.trial.measured_s == b.trial.measured_s);
  REQUIRE(a == b);
}

}  // namespace

TEST_CASE("trial wire: a report survives serialize and deserialize field by field", "[tuner]") {
  const auto sent = full_report();
  const auto received = tuner::deserialize(tuner::serialize(sent));
  REQUIRE(received.has_value());
  require_same(*received, sent);
}

TEST_CASE("trial wire: text that is not a report is refused, an unknown status too", "[tuner]") {
  REQUIRE_FALSE(tuner::deserialize("").has_value());
  REQUIRE_FALSE(tuner::deserialize("[1,2]").has_value());
  auto text = tuner::serialize(full_report());
  const auto at = text.find("\"unstable\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 10, "\"no-such\"");
  REQUIRE_FALSE(tuner::deserialize(text).has_value());
}
