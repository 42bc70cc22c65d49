// SPDX-License-Identifier: GPL-2.0-or-later
// The time left from a forecast that predicts its trials' seconds: those seconds, not the count
// at the mean time per trial so far; --max-trials cuts them with the count.
#include "tuner/run/search_progress.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

namespace {

// 10 trials done in 30 s (3 s each); a forecast of 20 trials (15 to 30) whose 10 left take 12 s
// as predicted (8 s for the 5 fewest, 25 s for the 20 most): a search returning to short trials.
tuner::SearchProgress predicted_progress() {
  tuner::SearchProgress p;
  p.trials = 10;
  p.measured_s = 30.0;
  p.forecast = {20, true, 15, 30, strategies::ForecastSeconds{12.0, 8.0, 25.0}};
  return p;
}

}  // namespace

TEST_CASE("time left: a forecast's predicted seconds take the place of its count at the mean time per trial",
          "[tuner]") {
  const auto p = tuner::with_time_left(predicted_progress(), {});
  REQUIRE(p.search_left_s == Approx(12.0));   // not 10 trials x 3 s
  REQUIRE(p.search_least_s == Approx(8.0));   // not 5 x 3 s
  REQUIRE(p.search_most_s == Approx(25.0));   // not 20 x 3 s
  REQUIRE(p.remaining_s == Approx(12.0));     // no finalist: no round
  // Without predicted seconds, the count at the mean time per trial so far.
  auto counted = predicted_progress();
  counted.forecast.seconds.reset();
  const auto q = tuner::with_time_left(counted, {});
  REQUIRE(q.search_left_s == Approx(30.0));
  REQUIRE(q.search_least_s == Approx(15.0));
  REQUIRE(q.search_most_s == Approx(60.0));
}

TEST_CASE("time left: a budget bounds predicted seconds as it bounds counted ones", "[tuner]") {
  tuner::TimeLeftBasis basis;
  basis.budget_s = 40.0;  // 10 s left after the 30 measured: the search starts trials while that lasts
  const auto p = tuner::with_time_left(predicted_progress(), basis);
  REQUIRE(p.search_left_s == Approx(12.0));  // the room (10 s) plus the last trial's end (3 s) holds it
  REQUIRE(p.search_most_s == Approx(13.0));  // not the predicted 25
}
