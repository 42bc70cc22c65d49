// SPDX-License-Identifier: GPL-2.0-or-later
// bench/fio_output: fio 3.33's JSON (captured on a loop device, tests/data/fio) to figures.
#include "bench/fio_output.hpp"

#include "tests/support/require_value.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace disktune;
using namespace disktune::bench;
using disktune::testing::require_value;

namespace {

std::string fio_capture(const std::string& name) {
  std::ifstream file(std::string(DISKTUNE_TEST_DATA) + "/fio/" + name);
  std::stringstream text;
  text << file.rdbuf();
  REQUIRE(!text.str().empty());
  return text.str();
}

Objective objective(const char* name, const char* metric = "") { return parse_objective(name, metric).value(); }

}  // namespace

TEST_CASE("parse_fio_output reads one job's read figures in the objective's units", "[bench]") {
  // From the capture: read.iops 1370.37037, bw_bytes 1436937481, io_bytes 737148928,
  // runtime 513 ms, clat_ns.percentile 99.000000 = 23986176, 99.900000 = 34865152.
  const auto figures = require_value(parse_fio_output(fio_capture("seq-read-direct.json")));
  CHECK(figures.iops == Approx(1370.37037).epsilon(1e-12));
  CHECK(figures.bw_mib_s == Approx(1436937481.0 / 1048576.0).epsilon(1e-12));
  CHECK(figures.io_bytes == 737148928u);
  CHECK(figures.runtime.count() == Approx(0.513).epsilon(1e-12));
  REQUIRE(figures.p99_us);
  CHECK(*figures.p99_us == Approx(23986.176).epsilon(1e-12));
  REQUIRE(figures.p999_us);
  CHECK(*figures.p999_us == Approx(34865.152).epsilon(1e-12));
  CHECK(require_value(figure_for(objective("seq-read-direct"), figures)) == Approx(figures.bw_mib_s));
}

TEST_CASE("parse_fio_output sums rates over jobs and keeps the worst job's percentile", "[bench]") {
  // j1: iops 32068.493151, bw_bytes 131352547, io 67121152, runtime 511, p99 66048 ns, p99.9 5079040 ns
  // j2: iops 109215.264188, bw_bytes 447345722, io 228593664, runtime 511, p99 2128 ns, p99.9 913408 ns
  const auto figures = require_value(parse_fio_output(fio_capture("two-jobs.json")));
  CHECK(figures.iops == Approx(32068.493151 + 109215.264188).epsilon(1e-12));
  CHECK(figures.bw_mib_s == Approx((131352547.0 + 447345722.0) / 1048576.0).epsilon(1e-12));
  CHECK(figures.io_bytes == 67121152u + 228593664u);
  CHECK(figures.runtime.count() == Approx(0.511).epsilon(1e-12));
  CHECK(*figures.p99_us == Approx(66.048).epsilon(1e-12));
  CHECK(*figures.p999_us == Approx(5079.04).epsilon(1e-12));
  CHECK(require_value(figure_for(objective("fio:x", "p999"), figures)) == Approx(5079.04).epsilon(1e-12));
  CHECK(require_value(figure_for(objective("rand-read-iops"), figures)) == Approx(figures.iops));
}

TEST_CASE("a latency objective's figure is the p99 in microseconds", "[bench]") {
  const auto figures = require_value(parse_fio_output(fio_capture("rand-read-latency.json")));
  const auto latency = objective("rand-read-latency");
  const double p99 = require_value(figure_for(latency, figures));
  CHECK(p99 == Approx(5734.4).epsilon(1e-12));
  CHECK(score_of(latency, p99) == Approx(1e6 / 5734.4).epsilon(1e-12));
}

TEST_CASE("parse_fio_output reads json+'s latency buckets", "[bench]") {
  // fio --output-format=json+ on a loop device: 3000 reads in 216 buckets, p99 123392 ns.
  const auto figures = require_value(parse_fio_output(fio_capture("rand-read-latency-jsonplus.json")));
  CHECK(figures.clat_bins.size() == 216u);
  LatencyPool pool{0.99, figures.clat_bins};
  CHECK(completions_of(pool) == figures.ios);
  CHECK(figures.ios == 3000u);
  CHECK(std::is_sorted(figures.clat_bins.begin(), figures.clat_bins.end(),
                       [](const LatencyBin& a, const LatencyBin& b) { return a.ns < b.ns; }));
  CHECK(pooled_percentile(pool)->value_us == Approx(*figures.p99_us).epsilon(1e-12));
  pool.fraction = 0.999;
  CHECK(pooled_percentile(pool)->value_us == Approx(*figures.p999_us).epsilon(1e-12));
  // Plain json has no buckets.
  CHECK(require_value(parse_fio_output(fio_capture("rand-read-latency.json"))).clat_bins.empty());
}

TEST_CASE("parse_fio_output refuses a bad latency bucket", "[bench]") {
  const std::string head = R"({"jobs": [{"jobname": "j", "error": 0, "read": {"iops": 1, "bw_bytes": 4096, "io_bytes": 4096,
    "runtime": 1000, "total_ios": 1, "clat_ns": {"percentile": {"99.000000": 1000}, "bins": )";
  const auto bins = GENERATE(as<std::string>{}, R"({"x": 1})", R"({"100": "a"})", R"({"-5": 1})", R"({"100": -1})", "[1]");
  const auto parsed = parse_fio_output(head + bins + "}}}]}");
  REQUIRE(!parsed);
  CHECK_THAT(parsed.error().message(), Catch::Contains("clat_ns.bins"));
}

TEST_CASE("parse_fio_output skips a notice fio printed before the document", "[bench]") {
  const auto text = "fio: terminating on signal 15\n" + fio_capture("seq-read-direct.json");
  CHECK(require_value(parse_fio_output(text)).io_bytes == 737148928u);
}

TEST_CASE("parse_fio_output says malformed output is malformed", "[bench]") {
  const std::string capture = fio_capture("seq-read-direct.json");
  const auto [text, why] = GENERATE_COPY(table<std::string, std::string>({
      {"", "no JSON document"},
      {"fio: some failure\n", "no JSON document"},
      {capture.substr(0, capture.size() / 2), "malformed"},
      {R"({"fio version": "fio-3.33"})", "no jobs array"},
      {R"({"jobs": []})", "no jobs array"},
      {R"({"jobs": [{"jobname": "j", "error": 0, "read": {"iops": 1}}]})", "lacks read.iops"},
      {R"({"jobs": [{"jobname": "j", "error": 5, "read": {"iops": 1, "bw_bytes": 1, "io_bytes": 1, "runtime": 1}}]})",
       "fio job j failed: error 5"},
  }));
  const auto parsed = parse_fio_output(text);
  REQUIRE_FALSE(parsed.has_value());
  CHECK_THAT(parsed.error().message(), Catch::Contains("fio's JSON output is malformed") && Catch::Contains(why));
}

TEST_CASE("a percentile metric without percentiles is an error, not a zero latency", "[bench]") {
  const auto figures = require_value(parse_fio_output(
      R"({"jobs": [{"jobname": "j", "error": 0, "read": {"iops": 100, "bw_bytes": 409600, "io_bytes": 409600, "runtime": 1000}}]})"));
  const auto figure = figure_for(objective("rand-read-latency"), figures);
  REQUIRE_FALSE(figure.has_value());
  CHECK_THAT(figure.error().message(), Catch::Contains("no positive clat_ns percentile"));
}

TEST_CASE("a fio run that read nothing is an error naming the job, never a figure of 0", "[bench]") {
  // As fio 3.33 prints a job with create_only=1: every read figure 0, no percentiles.
  const auto nothing = require_value(parse_fio_output(
      R"({"jobs": [{"jobname": "j", "error": 0, "read": {"iops": 0, "bw_bytes": 0, "io_bytes": 0, "runtime": 0}}]})"));
  const auto [name, metric] = GENERATE(table<const char*, const char*>({
      {"fio:/tmp/create.fio", ""}, {"fio:/tmp/create.fio", "iops"}, {"fio:/tmp/create.fio", "p99"},
      {"seq-read-direct", ""}, {"rand-read-iops", ""}, {"rand-read-latency", ""}}));
  const auto o = objective(name, metric);
  const auto figure = figure_for(o, nothing);
  REQUIRE_FALSE(figure.has_value());
  CHECK_THAT(figure.error().message(), Catch::Contains("fio reported no reads"));
  if (o.job_file.empty()) {
    CHECK_THAT(figure.error().message(), Catch::StartsWith("fio job " + o.name + ": "));
    CHECK(figure.error().code == std::errc::io_error);
  } else {
    CHECK_THAT(figure.error().message(), Catch::StartsWith("fio job file /tmp/create.fio: "));
    CHECK(figure.error().code == std::errc::invalid_argument);  // the job is at fault: exit 2
  }
}

TEST_CASE("a rate of 0 from a job that read something is an error too", "[bench]") {
  const auto zero = require_value(parse_fio_output(
      R"({"jobs": [{"jobname": "j", "error": 0, "read": {"iops": 0, "bw_bytes": 0, "io_bytes": 4096, "runtime": 0}}]})"));
  CHECK_THAT(figure_for(objective("rand-read-iops"), zero).error().message(), Catch::Contains("fio reported 0 read IOPS"));
  CHECK_THAT(figure_for(objective("seq-read-direct"), zero).error().message(),
             Catch::Contains("fio reported a read bandwidth of 0"));
}
