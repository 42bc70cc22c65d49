// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round's figures from its units: kept samples pooled, a failed unit fails its contender.
#include "strategies/confirmation_units.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using strategies::TrialResult;
using strategies::TrialStatus;

namespace {

// A unit that ended ok: a warm-up (not kept) and one kept sample `value`, 0.5 s in all.
TrialResult unit_of(double value) {
  TrialResult unit;
  unit.status = TrialStatus::ok;
  unit.samples = {value};
  unit.warmup = 2.0 * value;
  unit.measured_s = 0.5;
  return unit;
}

}  // namespace

TEST_CASE("confirmation units: each contender's kept samples and times pool into one summarized result", "[strategies]") {
  const std::vector<probe::Settings> contenders(2);
  auto results = strategies::confirmation_start(contenders);
  for (const double v : {5.0, 7.0, 6.0}) strategies::add_unit(results[0], unit_of(v));
  strategies::add_unit(results[1], unit_of(9.0));
  results = strategies::confirmation_end(std::move(results));
  REQUIRE(results[0].status == TrialStatus::ok);
  REQUIRE(results[0].samples == std::vector<double>{5.0, 7.0, 6.0});
  REQUIRE(results[0].median == Approx(6.0));
  REQUIRE(results[0].measured_s == Approx(1.5));
  REQUIRE(results[0].sampling_stop == "confirmation");
  REQUIRE(results[1].samples == std::vector<double>{9.0});
}

TEST_CASE("confirmation units: a unit that is not ok fails its contender with its status, detail and kernel log",
          "[strategies]") {
  auto results = strategies::confirmation_start(std::vector<probe::Settings>(1));
  strategies::add_unit(results[0], unit_of(5.0));
  TrialResult bad = unit_of(0.0);
  bad.status = TrialStatus::unstable;
  bad.detail = "kernel logged errors during the trial: ata1.00: failed command: READ DMA";
  bad.kernel_log = {"ata1.00: failed command: READ DMA"};
  strategies::add_unit(results[0], bad);
  results = strategies::confirmation_end(std::move(results));
  REQUIRE(results[0].status == TrialStatus::unstable);
  REQUIRE(results[0].detail == bad.detail);
  REQUIRE(results[0].kernel_log == bad.kernel_log);
  REQUIRE(results[0].median == 0.0);  // never summarized: it is no figure
}
