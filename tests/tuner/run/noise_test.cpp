// SPDX-License-Identifier: GPL-2.0-or-later
// tuner/run/noise: what the noise check asks of every later trial, from the baseline's repeats.
#include "tuner/run/noise.hpp"

#include "tests/support/seed_like_identify.hpp"

#include "strategies/trial_store.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <vector>

using namespace disktune;

namespace {

// Baseline repeats whose medians are given, in order, each from three samples at it; a median
// of 0 is a repeat that read other data than the first baseline trial.
class ScriptedRepeats final : public strategies::TrialExecutor {
 public:
  explicit ScriptedRepeats(std::vector<double> medians) : medians_(std::move(medians)) {}
  std::optional<strategies::Stop> pending_stop() override { return std::nullopt; }
  strategies::Executed run(const probe::Settings& config, const strategies::TrialRequest& request) override {
    all_samples.push_back(request.all_samples);
    strategies::TrialResult t;
    t.settings = config;
    t.status = strategies::TrialStatus::ok;
    const double m = medians_.at(next_++);
    if (m == 0.0) {
      t.status = strategies::TrialStatus::unstable;
      t.detail = "data read under this configuration differs from the baseline (CRC-32 mismatch): corruption";
      return strategies::TrialMeasurement{t, 0.0, 0};
    }
    t.samples = {0.999 * m, m, 1.001 * m};
    strategies::summarize_samples(t);
    return strategies::TrialMeasurement{t, 0.0, 0};
  }
  void adopt_baseline(const strategies::Baseline&) override {}
  std::vector<bool> all_samples;  // what each repeat was asked for

 private:
  std::vector<double> medians_;
  std::size_t next_ = 0;
};

// A baseline whose three repeats read 100, 92 and 108 MB/s: noise (8 + 8 + 16) / 3 = 10.67 %.
strategies::Baseline noisy_baseline() {
  strategies::Baseline baseline;
  baseline.aa_medians = {100.0, 92.0, 108.0};
  baseline.noise_floor_pct = 32.0 / 3.0;
  return baseline;
}

tuner::NoiseCheck settle(const std::vector<double>& again, strategies::Baseline& baseline, std::string& log_text,
                         std::vector<bool>* asked = nullptr, bool keep_figures = false) {
  ScriptedRepeats executor(again);
  const auto original = testing::seed_baseline();
  const auto objective = bench::parse_objective("seq-read", "").value();
  strategies::MemoryTrialStore store;
  const tuner::NoiseInput input{executor, store, original, "/dev/sdz", bench::SamplingPlan{3, 10, 0.02, true}, objective};
  std::ostringstream log;
  const auto check = tuner::settle_noise(input, baseline, keep_figures, 2.0, log);
  log_text = log.str();
  if (asked) *asked = executor.all_samples;
  return check;
}

}  // namespace

TEST_CASE("more samples per trial are kept only when they lower the noise", "[tuner]") {
  std::string log;
  // Within trials: 10 samples each bring the repeats to 100, 96, 104 (5.33 %, half): kept.
  auto within = noisy_baseline();
  std::vector<bool> asked;
  const auto kept = settle({100.0, 96.0, 104.0}, within, log, &asked);
  CHECK(asked == std::vector<bool>{true, true, true});  // the re-measurement took them all
  CHECK(kept.remeasured);
  CHECK(kept.all_samples);
  CHECK_FALSE(kept.resolvable);
  CHECK(within.noise_floor_pct == Approx(16.0 / 3.0));
  CHECK_THAT(log, !Catch::Contains("did not lower the noise"));
  // Between trials: 10 samples each still read 100, 91, 109 (12 %): back to 3-10.
  auto between = noisy_baseline();
  const auto dropped = settle({100.0, 91.0, 109.0}, between, log);
  CHECK_FALSE(dropped.all_samples);
  CHECK_FALSE(dropped.resolvable);
  CHECK_THAT(log, Catch::Contains("10 samples per trial did not lower the noise (10.67 % -> 12.00 %): it lies "
                                  "between trials, not within one; trials keep 3-10 samples, judged by the first noise"));
  // ... and they are judged by the noise measured as they are sampled: the first figures.
  CHECK_FALSE(dropped.remeasured);
  CHECK(between.noise_floor_pct == Approx(32.0 / 3.0));
  CHECK(between.aa_medians == std::vector<double>{100.0, 92.0, 108.0});
  CHECK_THAT(dropped.summary, Catch::Contains("noise 10.67 % with 3-10 samples per trial"));
  // Lower, but not by a quarter (10.67 -> 8.67 %, 81 %): dropped too.
  auto slightly = noisy_baseline();
  CHECK_FALSE(settle({100.0, 93.5, 106.5}, slightly, log).all_samples);
  // Resolvable with them: kept, whatever the factor.
  auto quiet = noisy_baseline();
  const auto resolved = settle({100.0, 99.5, 100.5}, quiet, log);
  CHECK(resolved.resolvable);
  CHECK(resolved.all_samples);
}

TEST_CASE("a baseline whose trials took every sample already is not measured again", "[tuner]") {
  auto baseline = noisy_baseline();
  baseline.trial.samples.assign(10, 100.0);  // its interval never closed: --max-repeats reached
  std::string log;
  std::vector<bool> asked;
  const auto check = settle({}, baseline, log, &asked);
  CHECK(asked.empty());
  CHECK_FALSE(check.remeasured);
  CHECK(check.all_samples);
  CHECK(check.measured_s == 0.0);
  CHECK(baseline.noise_floor_pct == Approx(32.0 / 3.0));
  CHECK_THAT(log, Catch::Contains("the baseline's trials took 10 samples already: this noise is theirs"));
  CHECK_THAT(check.summary, Catch::Contains("with 10 samples per trial"));
}

TEST_CASE("a noise not measured again is said to be the first trials' samples'", "[tuner]") {
  // No room to measure again (--time-budget) or a resumed run: trials take every sample from
  // now on, but the noise on record was measured with 3-10, and says so.
  auto baseline = noisy_baseline();
  std::string log;
  std::vector<bool> asked;
  const auto check = settle({}, baseline, log, &asked, true);
  CHECK(asked.empty());
  CHECK(check.all_samples);
  CHECK_FALSE(check.remeasured);
  CHECK_THAT(check.summary, Catch::Contains("noise 10.67 % with 3-10 samples per trial"));
  CHECK_THAT(log, Catch::Contains("still more than 2 % with 3-10 samples per trial"));
  CHECK_THAT(log, !Catch::Contains("with 10 samples per trial"));
}


TEST_CASE("a baseline repeat of the noise re-measurement that is unstable stops the run, saying why", "[tuner]") {
  std::string log;
  auto baseline = noisy_baseline();
  const auto check = settle({100.0, 0.0, 104.0}, baseline, log);
  REQUIRE(check.unstable.has_value());
  REQUIRE_THAT(check.unstable->message(), Catch::Contains("measure the baseline (unstable: ") &&
                                              Catch::Contains("CRC-32 mismatch") && Catch::Contains("/dev/sdz"));
  // A repeat that merely failed (no evidence against the data) keeps the first figures.
  auto slow = noisy_baseline();
  CHECK_FALSE(settle({100.0, 96.0, 104.0}, slow, log).unstable.has_value());
}
