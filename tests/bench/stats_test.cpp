// SPDX-License-Identifier: GPL-2.0-or-later
// Statistics against hand-computed values.
#include "bench/stats.hpp"

#include <catch2/catch.hpp>

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
