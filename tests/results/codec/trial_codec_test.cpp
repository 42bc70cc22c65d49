// SPDX-License-Identifier: GPL-2.0-or-later
// Trial codecs: value_to(value_from(x)) == x for every codec'd type, edge values, refusals.
#include "results/codec/trial_codec.hpp"

#include <catch2/catch.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using strategies::TrialStatus;
namespace json = boost::json;

namespace {

// Every field away from its default; values exact in binary, so text round trips too.
strategies::TrialResult full_trial() {
  strategies::TrialResult t;
  t.id = 7;
  t.settings = {{SettingId::multcount, SettingValue(std::int64_t{16})},
                {SettingId::xfermode, SettingValue(std::int64_t{66})},
                {SettingId::scheduler, SettingValue(std::string("mq-deadline"))}};
  t.status = TrialStatus::unstable;
  t.samples = {14.5, 14.75, 15.0, 2.25};
  t.median = 14.625;
  t.spread_pct = 1.5;
  t.detail = "kernel logged errors during the trial: ata1.00: failed command";
  t.kernel_log = {"ata1.00: failed command: READ DMA", "ata1.00: status: { DRDY ERR }"};
  t.ci_low = 2.25;
  t.ci_high = 15.0;
  t.ci_coverage = 0.875;
  t.outliers = {3};
  t.warmup = 13.5;
  t.sampling_stop = "max samples";
  t.measured_s = 12.5;
  t.quick = true;
  t.latency = bench::LatencyPool{0.999, {{640.0, 3}, {123392.0, 1}}};
  return t;
}

strategies::Baseline full_baseline() {
  strategies::Baseline b;
  b.trial = full_trial();
  b.trial.id = 0;
  b.trial.status = TrialStatus::ok;
  b.cached_median_mib_s = 102.5;
  b.data_crc32 = std::numeric_limits<std::uint32_t>::max();
  b.aa_medians = {14.5, 14.25, 14.75};
  b.noise_floor_pct = 0.5;
  b.measured_s = b.trial.measured_s;  // all a journaled baseline keeps
  return b;
}

template <class T>
T through_text(const T& x) {
  return json::value_to<T>(json::parse(json::serialize(json::value_from(x))));
}

}  // namespace

TEST_CASE("a trial round-trips through its codec, in memory and as text", "[results]") {
  const auto trial = full_trial();
  REQUIRE(json::value_to<strategies::TrialResult>(json::value_from(trial)) == trial);
  REQUIRE(through_text(trial) == trial);
}

TEST_CASE("a trial with no samples, settings or evidence round-trips", "[results]") {
  const strategies::TrialResult empty;  // status error, nothing measured
  REQUIRE(empty.samples.empty());
  REQUIRE(through_text(empty) == empty);
  REQUIRE(json::value_from(empty).as_object().at("samples").as_array().empty());
}

TEST_CASE("every trial status round-trips by name", "[results]") {
  const auto status = GENERATE(TrialStatus::ok, TrialStatus::hang, TrialStatus::slow, TrialStatus::error,
                               TrialStatus::unsupported, TrialStatus::unstable, TrialStatus::crashed,
                               TrialStatus::wedged);
  strategies::TrialResult trial = full_trial();
  trial.status = status;
  REQUIRE(json::value_from(trial).as_object().at("status").as_string() == strategies::to_string(status));
  REQUIRE(through_text(trial) == trial);
}

TEST_CASE("a trial measurement (the child wire) round-trips with its cached figure and checksum", "[results]") {
  strategies::TrialMeasurement m{full_trial(), 98.25, 0xdeadbeefu};
  REQUIRE(through_text(m) == m);
  m.data_crc32 = std::numeric_limits<std::uint32_t>::max();
  m.cached_median_mib_s = 0.0;
  REQUIRE(through_text(m) == m);
  const auto o = json::value_from(m).as_object();
  REQUIRE(o.at("data_crc32").to_number<std::uint32_t>() == 0xffffffffu);
  REQUIRE(o.contains("cached_mib_s"));
}

TEST_CASE("a baseline round-trips with its all-children time and the noise check's samples decision", "[results]") {
  const auto baseline = full_baseline();
  REQUIRE(through_text(baseline) == baseline);
  strategies::Baseline measured = baseline;
  measured.measured_s = 40.0;  // the noise repeats' time too: a resumed --time-budget counts it
  measured.all_samples = true;  // a resumed search samples as this one did
  const auto read = json::value_to<strategies::Baseline>(json::value_from(measured));
  REQUIRE(read.measured_s == 40.0);
  REQUIRE(read.all_samples == std::optional<bool>(true));
  REQUIRE(read.aa_medians == measured.aa_medians);
  REQUIRE(read.noise_floor_pct == 0.5);
  // The trial's keys and cached_mib_s, data_crc32, aa_samples, noise_floor_pct,
  // baseline_measured_s, all_samples: no more.
  REQUIRE(json::value_from(measured).as_object().size() == json::value_from(measured.trial).as_object().size() + 6);
  strategies::Baseline none;  // nothing measured: empty samples and A/A medians
  REQUIRE(through_text(none) == none);
}

TEST_CASE("a baseline journaled before its all-children time and samples decision reads as its trial's, undecided",
          "[results]") {
  strategies::Baseline measured = full_baseline();
  measured.measured_s = 40.0;
  auto record = json::value_from(measured).as_object();
  record.erase("baseline_measured_s");
  const auto read = json::value_to<strategies::Baseline>(json::value(record));
  REQUIRE(read.measured_s == measured.trial.measured_s);
  REQUIRE_FALSE(read.all_samples.has_value());
}

TEST_CASE("infinite, negative and absurd figures are refused by name; NaN and infinity as text too", "[results]") {
  strategies::TrialResult trial = full_trial();
  // An adversary's journal edits resumed silently: measured_s -1e9 read "0 s" for the rest of
  // the run, a median of 1e308 printed 65 digits of MB/s.
  for (const double odd : {std::numeric_limits<double>::infinity(), -1.0, 1e308}) {
    auto record = json::value_from(trial).as_object();
    record["median"] = odd;
    record["measured_s"] = 1.0;
    const auto decoded = results::decode<strategies::TrialResult>(record);
    REQUIRE_FALSE(decoded.has_value());
    CHECK_THAT(decoded.error().message(), Catch::Contains("median out of range"));
  }
  for (const double odd : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    trial.samples = {odd};
    boost::system::error_code ec;
    (void)json::parse(json::serialize(json::value_from(trial)), ec);
    REQUIRE(ec);  // Boost.JSON writes NaN / Infinity, which it does not read back
  }
}

TEST_CASE("a damaged trial object decodes to a clear error, never a wrong trial", "[results]") {
  json::object o = json::value_from(full_trial()).as_object();
  SECTION("a missing key") {
    o.erase("median");
    const auto decoded = results::decode<strategies::TrialResult>(o);
    REQUIRE_FALSE(decoded.has_value());
    REQUIRE(decoded.error().op == results::kMissingField);
  }
  SECTION("an unknown status") {
    o["status"] = "fast";
    const auto decoded = results::decode<strategies::TrialResult>(o);
    REQUIRE_FALSE(decoded.has_value());
    CHECK(decoded.error().message().find("status 'fast' is not a trial status") != std::string::npos);
  }
  SECTION("an unknown setting") {
    o["settings"] = json::object{{"warp", 9}};
    const auto decoded = results::decode<strategies::TrialResult>(o);
    REQUIRE_FALSE(decoded.has_value());
    REQUIRE(decoded.error().message().find("unknown setting 'warp'") != std::string::npos);
  }
  SECTION("a value of the wrong kind") {
    o["samples"] = "many";
    REQUIRE_FALSE(results::decode<strategies::TrialResult>(o).has_value());
  }
  SECTION("a latency histogram that is not one") {
    const auto bad = GENERATE(as<std::string>{}, R"({"fraction": 1.5, "bins": []})", R"({"fraction": 0.99, "bins": [[1]]})",
                              R"({"fraction": 0.99, "bins": [[-1, 2]]})", R"({"fraction": 0.99, "bins": [[1, -2]]})",
                              R"({"fraction": 0.99})", R"({"fraction": 0.99, "bins": [[1e20, 1]]})",
                              R"({"fraction": 0.99, "bins": [[1000, 1099511627776], [2000, 1]]})",
                              R"({"fraction": 0.99, "bins": [[1000, 18446744073709551615]]})");
    o["latency"] = json::parse(bad);
    REQUIRE_FALSE(results::decode<strategies::TrialResult>(o).has_value());
  }
  SECTION("more latency bins than fio has buckets") {
    json::array bins;
    for (int i = 0; i < 5000; ++i) bins.emplace_back(json::array{1000.0 + i, 1});
    o["latency"] = json::object{{"fraction", 0.99}, {"bins", std::move(bins)}};
    REQUIRE_FALSE(results::decode<strategies::TrialResult>(o).has_value());
  }
  SECTION("a measurement without its checksum") {
    REQUIRE_FALSE(results::decode<strategies::TrialMeasurement>(o).has_value());
  }
}
