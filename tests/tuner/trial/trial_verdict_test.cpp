// SPDX-License-Identifier: GPL-2.0-or-later
// The trial verdict: status and detail from a child's end, its report, the kernel log and the checksum.
#include "tuner/trial/trial_verdict.hpp"

#include "tuner/trial/trial_wire.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::ChildEnd;
using strategies::TrialStatus;

namespace {

probe::ChildOutcome ended(ChildEnd end, std::string detail = "killed after 10 s") {
  probe::ChildOutcome outcome;
  outcome.end = end;
  outcome.detail = std::move(detail);
  return outcome;
}

const tuner::LimitNote kLimits{probe::Seconds{10.0}, probe::Seconds{4.0}, true, true, 1u << 20};

}  // namespace

TEST_CASE("verdict: a finished child's report becomes the trial, summarized when ok", "[tuner]") {
  tuner::ChildReport report = tuner::ok_report();
  report.trial.samples = {100.0, 110.0, 120.0};
  report.trial.sampling_stop = "steady";
  report.trial.measured_s = 3.0;
  auto outcome = ended(ChildEnd::finished, "");
  outcome.payload = tuner::serialize(report);
  const auto trial = tuner::verdict_of(outcome, kLimits);
  REQUIRE(trial.status == TrialStatus::ok);
  REQUIRE(trial.samples == report.trial.samples);
  REQUIRE(trial.median == Approx(110.0));
  REQUIRE(trial.sampling_stop == "steady");
  REQUIRE(trial.measured_s == 3.0);
}

TEST_CASE("verdict: a killed child is slow while progressing, hung when silent, and names its limit", "[tuner]") {
  auto outcome = ended(ChildEnd::timed_out);
  outcome.elapsed = probe::Seconds{10.0};
  outcome.since_progress = probe::Seconds{0.1};
  outcome.heartbeats = 50;
  auto trial = tuner::verdict_of(outcome, kLimits);
  REQUIRE(trial.status == TrialStatus::slow);
  REQUIRE_THAT(trial.detail, Catch::StartsWith("slow: reached about 5 MiB/s"));
  REQUIRE_THAT(trial.detail, Catch::Contains("derived from the baseline's rate; raise it with --trial-timeout S"));
  outcome.stalled = true;
  trial = tuner::verdict_of(outcome, kLimits);
  REQUIRE(trial.status == TrialStatus::hang);
  REQUIRE_THAT(trial.detail, Catch::Contains("--stall-timeout S"));
}

TEST_CASE("verdict: the stall limit's origin is its own (a derived stall under a given time limit)", "[tuner]") {
  auto outcome = ended(ChildEnd::timed_out);
  outcome.stalled = true;
  tuner::LimitNote limits = kLimits;
  limits.derived = false;  // --trial-timeout given, or a simulated drive's default
  auto trial = tuner::verdict_of(outcome, limits);
  REQUIRE_THAT(trial.detail, Catch::Contains("(the stall limit, derived from the baseline's rate; raise it with --stall-timeout S)"));
  limits.stall_derived = false;  // --stall-timeout given
  trial = tuner::verdict_of(outcome, limits);
  REQUIRE_THAT(trial.detail, Catch::Contains("(the stall limit, as given; raise it with --stall-timeout S)"));
}

TEST_CASE("verdict: wedged, stopped, crashed and unparsable children", "[tuner]") {
  REQUIRE(tuner::verdict_of(ended(ChildEnd::wedged), kLimits).status == TrialStatus::wedged);
  REQUIRE(tuner::verdict_of(ended(ChildEnd::stopped), kLimits).status == TrialStatus::error);
  const auto crashed = tuner::verdict_of(ended(ChildEnd::failed, "killed by SIGSEGV"), kLimits);
  REQUIRE(crashed.status == TrialStatus::error);
  REQUIRE(crashed.detail == "trial process failed: killed by SIGSEGV");
  auto garbage = ended(ChildEnd::finished, "exit 0");
  garbage.payload = "not json";
  REQUIRE(tuner::verdict_of(garbage, kLimits).status == TrialStatus::error);
}

TEST_CASE("verdict: kernel log errors and a checksum difference make an ok trial unstable", "[tuner]") {
  strategies::TrialResult trial;
  trial.status = TrialStatus::ok;
  trial.median = 100.0;
  tuner::check_data_checksum(trial, 1, 1, false);
  REQUIRE(trial.status == TrialStatus::ok);
  tuner::check_data_checksum(trial, 1, 2, true);  // data in use: proves nothing
  REQUIRE(trial.status == TrialStatus::ok);
  tuner::check_data_checksum(trial, 1, std::nullopt, false);
  REQUIRE(trial.status == TrialStatus::ok);
  tuner::check_data_checksum(trial, 1, 2, false);
  REQUIRE(trial.status == TrialStatus::unstable);
  REQUIRE(trial.median == 0.0);

  strategies::TrialResult logged;
  logged.status = TrialStatus::ok;
  logged.median = 100.0;
  tuner::add_kernel_log_evidence(logged, {"ata1.00: failed command: READ DMA"});
  REQUIRE(logged.status == TrialStatus::unstable);
  REQUIRE(logged.kernel_log.size() == 1);
  REQUIRE(logged.detail == "kernel logged errors during the trial: ata1.00: failed command: READ DMA");
}

TEST_CASE("verdict: a baseline's error says slow, stopped or failed by its code", "[tuner]") {
  strategies::TrialResult trial;
  trial.status = TrialStatus::slow;
  REQUIRE(tuner::baseline_error(trial, "/dev/x").code == std::errc::timed_out);
  REQUIRE(tuner::baseline_error(trial, "/dev/x", true).code == std::errc::operation_canceled);
  trial.status = TrialStatus::error;
  REQUIRE(tuner::baseline_error(trial, "/dev/x").code == std::errc::io_error);
  const auto wedged = tuner::mark_wedged(trial, "device wedged after the trial", "restore: stuck");
  REQUIRE(wedged.status == TrialStatus::wedged);
  REQUIRE(wedged.detail == "device wedged after the trial: restore: stuck");
}
