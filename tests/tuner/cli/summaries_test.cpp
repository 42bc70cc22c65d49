// SPDX-License-Identifier: GPL-2.0-or-later
// bench's text: no blank line first, MB/s as the tune table writes it, IOPS as whole numbers.
#include "tuner/cli/summaries.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

TEST_CASE("bench's seq-read lines say MB/s and start with the device, not a blank line", "[tuner]") {
  const auto text = tuner::bench_summary("/dev/loop7", "", {8300.71}, {1159.5, 1159.53, 1160.0});
  CHECK(text == "/dev/loop7:\n"
                " Timing cached reads:        8300.71 MB/s (median of 1, spread ±0.0%)\n"
                " Timing buffered disk reads:  1159.53 MB/s (median of 3, spread ±0.0%)\n");
}

TEST_CASE("bench --objective prints IOPS as whole numbers and latency in us with one decimal", "[tuner]") {
  const auto iops = bench::parse_objective("rand-read-iops", "").value();
  CHECK(tuner::objective_bench_summary("/dev/loop7", iops, "fio-3.33", {51990.05}) ==
        "/dev/loop7:\n rand-read-iops (fio-3.33):    51990 IOPS (median of 1, spread ±0.0%)\n");
  const auto latency = bench::parse_objective("rand-read-latency", "").value();
  CHECK(tuner::objective_bench_summary("/dev/loop7", latency, "fio-3.33", {812.54, 812.5, 100.0}) ==
        "/dev/loop7:\n rand-read-latency (fio-3.33):    812.5 us (median of 3, spread ±43.8%)\n");
  const auto direct = bench::parse_objective("seq-read-direct", "").value();
  CHECK_THAT(tuner::objective_bench_summary("/dev/loop7", direct, "fio-3.33", {49.853}),
             Catch::Contains(" 49.85 MB/s (median of 1"));
}
