// SPDX-License-Identifier: GPL-2.0-or-later
// The pipeline and its store: a failed store write told by its type.
#include "tuner/run/pipeline.hpp"

#include "tests/support/forwarding_store.hpp"
#include "tests/support/pipeline_fixture.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using strategies::TrialResult;
using testing::FakeExecutor;
using testing::io_support_helps;
using testing::run;
using testing::seed_space;

namespace {

// A store whose confirmation rounds end in `stop` (a full journal disk at the round, or a
// measurement's own stop); everything else kept in memory.
class FailingRoundStore final : public testing::ForwardingStore {
 public:
  explicit FailingRoundStore(strategies::Stop stop) : stop_(std::move(stop)) {}
  strategies::Rounded confirm_round(const std::vector<probe::Settings>&, int, const strategies::RoundMeasure&) override {
    return stop_;
  }

 private:
  strategies::Stop stop_;
};

}  // namespace

TEST_CASE("pipeline: a store write failure in the confirmation round is told by its reason, not its words", "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  SECTION("the round's record cannot be written: a store failure, exit 3, its words kept") {
    FakeExecutor executor(io_support_helps);
    FailingRoundStore store(strategies::Stop{strategies::StopReason::store_failed,
                                             "journal /x: write: No space left on device", std::nullopt});
    const auto result = run(space, "exhaustive", store, executor);
    REQUIRE(result.stop);
    CHECK(result.stop->reason == strategies::StopReason::store_failed);
    CHECK(result.exit_code == tuner::kExitDevice);
    CHECK_THAT(result.message, Catch::Contains("No space left on device"));
  }
  SECTION("a failed restore that merely reads like one is no store failure") {
    FakeExecutor executor(io_support_helps);
    FailingRoundStore store(
        strategies::Stop{strategies::StopReason::restore_failed, "journal write failed: a lookalike", std::nullopt});
    const auto result = run(space, "exhaustive", store, executor);
    CHECK_FALSE((result.stop && result.stop->reason == strategies::StopReason::store_failed));
    CHECK(result.exit_code != tuner::kExitDevice);
  }
}
