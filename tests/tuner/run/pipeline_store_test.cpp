// SPDX-License-Identifier: GPL-2.0-or-later
// The pipeline and its store: a failed store write told by its type.
#include "tuner/run/pipeline.hpp"

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

// A store whose confirmation rounds fail with `error` (a full journal disk at the round, or a
// measurement's own error); everything else kept in memory.
class FailingRoundStore final : public tuner::RunStore {
 public:
  explicit FailingRoundStore(probe::Error error) : error_(std::move(error)) {}
  [[nodiscard]] strategies::TrialHistory history() const override { return inner_.history(); }
  std::optional<strategies::Stop> begin(const probe::Settings& config, bool quick) override {
    return inner_.begin(config, quick);
  }
  std::optional<strategies::Stop> record(const TrialResult& trial) override { return inner_.record(trial); }
  [[nodiscard]] std::optional<strategies::Baseline> saved_baseline() const override { return inner_.saved_baseline(); }
  std::optional<strategies::Stop> record_baseline(const strategies::Baseline& baseline) override {
    return inner_.record_baseline(baseline);
  }
  probe::Result<tuner::Round> confirm(const std::vector<probe::Settings>&, int, const tuner::RoundMeasure&) override {
    return error_;
  }

 private:
  probe::Error error_;
  tuner::MemoryRunStore inner_;
};

}  // namespace

TEST_CASE("pipeline: a store write failure in the confirmation round is told by its type, not its words", "[tuner]") {
  const auto space = seed_space({SettingId::multcount, SettingId::io_support});
  SECTION("the round's record cannot be written: a store failure, exit 3, its words kept") {
    FakeExecutor executor(io_support_helps);
    FailingRoundStore store(tuner::store_write_failed("journal /x: write: No space left on device"));
    const auto result = run(space, "exhaustive", store, executor);
    REQUIRE(result.stop);
    CHECK(result.stop->reason == strategies::StopReason::store_failed);
    CHECK(result.exit_code == tuner::kExitDevice);
    CHECK_THAT(result.message, Catch::Contains("No space left on device"));
  }
  SECTION("a measurement error that merely reads like one is no store failure") {
    FakeExecutor executor(io_support_helps);
    FailingRoundStore store(probe::Error{std::make_error_code(std::errc::io_error), "journal write failed: a lookalike", ""});
    const auto result = run(space, "exhaustive", store, executor);
    CHECK_FALSE((result.stop && result.stop->reason == strategies::StopReason::store_failed));
    CHECK(result.exit_code != tuner::kExitDevice);
  }
}

