// SPDX-License-Identifier: GPL-2.0-or-later
// A percentile trial judged by its pooled completions: summarize_samples and the
// confirmation round's extra rounds (strategies/trial_stats.cpp, confirmation.cpp).
#include "strategies/confirmation.hpp"
#include "strategies/trial.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using strategies::TrialResult;
using strategies::TrialStatus;

namespace {

// `n` completions at step, 2 step, ..., n step [ns].
bench::LatencyPool evenly(int n, double step_ns) {
  bench::LatencyPool pool{0.99, {}};
  std::vector<bench::LatencyBin> bins;
  for (int i = 1; i <= n; ++i) bins.push_back({step_ns * i, 1});
  bench::add_bins(pool, bins);
  return pool;
}

TrialResult latency_trial(const probe::Settings& settings, double step_ns) {
  TrialResult t;
  t.status = TrialStatus::ok;
  t.settings = settings;
  t.samples = {1.0, 1.0};  // per-sample scores, which the pooled figure replaces
  t.latency = evenly(300, step_ns);
  strategies::summarize_samples(t);
  return t;
}

}  // namespace

TEST_CASE("a trial with pooled latencies takes its figure and interval from them", "[strategies]") {
  TrialResult t;
  t.status = TrialStatus::ok;
  t.samples = {500.0, 1000.0, 2000.0};  // per-sample scores: their median would be 1000
  t.latency = evenly(1000, 1000.0);     // 1000 reads at 1..1000 µs: p99 990, interval [983, 997] µs
  strategies::summarize_samples(t);
  CHECK(t.median == Approx(1e6 / 990.0));
  CHECK(t.ci_low == Approx(1e6 / 997.0));
  CHECK(t.ci_high == Approx(1e6 / 983.0));
  CHECK(t.ci_coverage == Approx(0.9760947634979772).epsilon(1e-9));
  CHECK(t.spread_pct == Approx(50.0 * 1500.0 / 1000.0));  // the samples' own spread is still theirs
  // Without latencies: the samples' median.
  t.latency.reset();
  strategies::summarize_samples(t);
  CHECK(t.median == 1000.0);
}

TEST_CASE("the confirmation round's extra rounds pool their completions", "[strategies]") {
  const probe::Settings baseline{{probe::SettingId::read_ahead_kb, probe::SettingValue(std::int64_t{128})}};
  const probe::Settings faster{{probe::SettingId::read_ahead_kb, probe::SettingValue(std::int64_t{256})}};
  std::vector<int> rounds;
  const auto runner = [&](const std::vector<probe::Settings>& contenders, int round) {
    rounds.push_back(round);
    // 300 reads each: twice as fast at every rank, but no upper latency bound, so no
    // lower score bound: not yet separated, and an extra round is asked for.
    return std::vector<TrialResult>{latency_trial(contenders[0], 1000.0), latency_trial(contenders[1], 500.0)};
  };
  TrialResult candidate = latency_trial(faster, 500.0);
  candidate.id = 4;
  const auto round = strategies::confirm(baseline, {candidate}, runner, 0.02);
  REQUIRE(rounds.size() >= 2u);  // round 0 did not separate them
  REQUIRE(round.results[1].latency);
  CHECK(bench::completions_of(*round.results[1].latency) == 300u * rounds.size());
  // 600 reads bound the p99 from above: the candidate is now separated and wins.
  CHECK(round.results[1].ci_low > 0.0);
  CHECK(round.winner == 1u);
}
