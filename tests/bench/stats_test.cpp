// SPDX-License-Identifier: GPL-2.0-or-later
// Statistics against hand-computed values.
#include "bench/stats.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

using namespace disktune::bench;

TEST_CASE("statistics match hand-computed values", "[bench]") {
  const std::vector<double> v{2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};
  REQUIRE(mean(v) == Approx(5.0).epsilon(1e-12));
  REQUIRE(median(v) == Approx(4.5).epsilon(1e-12));
  // Sum of squared deviations = 32, n - 1 = 7.
  REQUIRE(stddev(v) == Approx(std::sqrt(32.0 / 7.0)).epsilon(1e-12));
  REQUIRE(cv(v) == Approx(std::sqrt(32.0 / 7.0) / 5.0).epsilon(1e-12));
  // |v - 4.5| = 2.5 .5 .5 .5 .5 .5 2.5 4.5 -> median 0.5.
  REQUIRE(mad(v) == Approx(0.5).epsilon(1e-12));
  REQUIRE(min_value(v) == 2.0);
  REQUIRE(max_value(v) == 9.0);
  REQUIRE(relative_spread(v) == Approx(7.0 / 4.5).epsilon(1e-12));
}

TEST_CASE("median of an odd count is the middle value and stddev of one value is 0", "[bench]") {
  const std::vector<double> odd{3.0, 1.0, 2.0};
  REQUIRE(median(odd) == 2.0);
  const std::vector<double> one{7.0};
  REQUIRE(stddev(one) == 0.0);
  REQUIRE(relative_spread(one) == 0.0);
}

TEST_CASE("the median's order-statistic interval matches the binomial by hand", "[bench]") {
  // n = 10: P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so k = 2: [x(2), x(9)].
  const std::vector<double> ten{10, 12, 11, 13, 50, 12, 11, 12, 10, 11};
  const auto ci = median_interval(ten);
  REQUIRE(ci.low == 10.0);
  REQUIRE(ci.high == 13.0);
  REQUIRE(ci.coverage == Approx(1.0 - 22.0 / 1024.0).epsilon(1e-12));
  // n = 9: P(B <= 1) = 10/512, k = 2: [x(2), x(8)], coverage 1 - 20/512.
  const std::vector<double> nine{9, 1, 8, 2, 7, 3, 6, 4, 5};
  const auto ci9 = median_interval(nine);
  REQUIRE(ci9.low == 2.0);
  REQUIRE(ci9.high == 8.0);
  REQUIRE(ci9.coverage == Approx(1.0 - 20.0 / 512.0).epsilon(1e-12));
  // n = 5 cannot reach 95 %: [min, max] with coverage 1 - 2/32.
  const std::vector<double> five{5, 1, 4, 2, 3};
  const auto ci5 = median_interval(five);
  REQUIRE(ci5.low == 1.0);
  REQUIRE(ci5.high == 5.0);
  REQUIRE(ci5.coverage == Approx(0.9375).epsilon(1e-12));
  REQUIRE(relative_half_width(ci5, 3.0) == Approx(2.0 / 3.0).epsilon(1e-12));
}

TEST_CASE("outliers beyond 3 scaled MADs are flagged, not dropped", "[bench]") {
  // median 11.5; |x - 11.5| sorted: 0.5 x6, 1.5 x3, 38.5 -> MAD 0.5, scaled 0.7413.
  const std::vector<double> ten{10, 12, 11, 13, 50, 12, 11, 12, 10, 11};
  REQUIRE(scaled_mad(ten) == Approx(1.4826 * 0.5).epsilon(1e-12));
  REQUIRE(outlier_indices(ten) == std::vector<std::size_t>{4});
  // 10, 10 and 13 are 1.5 away: 2.02 scaled MADs, flagged only with k = 2.
  REQUIRE(outlier_indices(ten, 2.0) == std::vector<std::size_t>{0, 3, 4, 8});
  // MAD 0: no scale, nothing flagged.
  const std::vector<double> flat{3, 3, 3, 7};
  REQUIRE(outlier_indices(flat).empty());
}

TEST_CASE("repeat_noise: the observed difference of trial medians, or what the scatter predicts when they are equal", "[bench]") {
  // Medians 100, 110, 105: pairs differ by 10, 5, 5 -> mean 6.667 over the median 105.
  const auto spread = repeat_noise({{100.0, 100.0, 100.0}, {110.0, 110.0, 110.0}, {105.0, 105.0, 105.0}});
  REQUIRE(spread.observed_pct == Approx(100.0 * (20.0 / 3.0) / 105.0));
  REQUIRE(spread.predicted_pct == 0.0);  // no scatter within a trial
  REQUIRE(spread.pct == spread.observed_pct);
  // Equal medians, samples 90 100 110 in each: sd 10, n 3 -> 2/sqrt(pi) x 1.2533 x 10 / sqrt(3) / 100.
  const auto scatter = repeat_noise({{90.0, 100.0, 110.0}, {110.0, 100.0, 90.0}});
  REQUIRE(scatter.observed_pct == 0.0);
  REQUIRE(scatter.predicted_pct == Approx(100.0 * 1.1284 * 1.2533 * 10.0 / std::sqrt(3.0) / 100.0).epsilon(1e-3));
  REQUIRE(scatter.pct == scatter.predicted_pct);
  REQUIRE(repeat_noise({{0.0}}).pct == 0.0);
  // Different medians: the observed figure, however large the scatter within the trials.
  const auto both = repeat_noise({{50.0, 100.0, 150.0}, {51.0, 101.0, 151.0}});
  REQUIRE(both.predicted_pct > 10.0);
  REQUIRE(both.pct == both.observed_pct);
  REQUIRE(both.pct == Approx(100.0 * 1.0 / 100.5));
}
