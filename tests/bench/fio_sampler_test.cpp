// SPDX-License-Identifier: GPL-2.0-or-later
// bench/FioSampler and run_fio against stand-in fio programs on PATH: the arguments fio gets,
// the score of its output, and the errors for a missing, failing or garbling fio.
#include "bench/fio_process.hpp"
#include "bench/fio_sampler.hpp"
#include "probe/core/unique_fd.hpp"
#include "probe/held_name.hpp"

#include "tests/support/require_value.hpp"
#include "tests/support/temp_dir.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <fcntl.h>
#include <sys/stat.h>

using namespace disktune;
using namespace disktune::bench;
using disktune::testing::require_value;

namespace {

// Sets PATH for the test's lifetime, then puts the old one back.
class PathGuard {
 public:
  explicit PathGuard(const std::string& path) : old_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    ::setenv("PATH", path.c_str(), 1);
  }
  PathGuard(const PathGuard&) = delete;
  PathGuard& operator=(const PathGuard&) = delete;
  ~PathGuard() { ::setenv("PATH", old_.c_str(), 1); }

 private:
  std::string old_;
};

// A stand-in `fio` in `dir`: a shell script with `body`, its arguments saved in dir/args.
void fake_fio(const std::string& dir, const std::string& body) {
  const auto path = dir + "/fio";
  std::ofstream(path) << "#!/bin/sh\nprintf '%s\\n' \"$@\" > " << dir << "/args\n" << body << '\n';
  ::chmod(path.c_str(), 0755);
}

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

const std::string kCaptures = std::string(DISKTUNE_TEST_DATA) + "/fio/";

// A file held open as a device is (probe/held_name.hpp), named "/dev/loop7" to the user.
class HeldFile {
 public:
  explicit HeldFile(const std::string& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
    REQUIRE(fd_.get() >= 0);
  }
  [[nodiscard]] probe::HeldName held() const { return require_value(probe::held_name(fd_.get(), "/dev/loop7")); }

 private:
  probe::UniqueFd fd_;
};

}  // namespace

TEST_CASE("FioSampler scores fio's JSON and runs it read-only for the sample's duration", "[bench]") {
  disktune::testing::TempDir dir("fio-fake");
  fake_fio(dir.path(), "cat '" + kCaptures + "rand-read-latency.json'");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  const auto latency = parse_objective("rand-read-latency", "").value();
  FioSampler sampler(latency, held.held(), probe::Seconds(2.0));
  const auto sample = require_value(sampler.sample());
  // The capture's p99 is 5734400 ns; the score of 5734.4 µs is 1e6 / 5734.4.
  CHECK(sample.value == Approx(1e6 / 5734.4).epsilon(1e-12));
  CHECK(sample.bytes == 10846208u);
  CHECK(sample.elapsed.count() == Approx(0.502).epsilon(1e-12));
  const auto args = read_text(dir.path() + "/args");
  // A percentile: up to 12 000 completions, the duration the bound.
  // json+: its latency histogram, which the samples pool (none in this json capture).
  CHECK(sample.latency.bins.empty());
  CHECK_THAT(args, Catch::StartsWith("--readonly\n--output-format=json+\n--thread\n--filename=" + held.held().path +
                                     "\n--number_ios=12000\n--io_size=49152000\n--runtime=2000ms\n--name=rand-read-latency\n"));
}

TEST_CASE("fio reads the held descriptor, kept open across exec, never the user's name", "[bench]") {
  disktune::testing::TempDir dir("fio-fake");
  const HeldFile held(dir.path() + "/device");
  const auto fd = std::to_string(held.held().fd);
  // The stand-in records whether the descriptor is open in fio itself and what it names.
  fake_fio(dir.path(), "if [ -e /proc/$$/fd/" + fd + " ]; then readlink /proc/$$/fd/" + fd + " > " + dir.path() +
                           "/inherited; fi\ncat '" + kCaptures + "seq-read-direct.json'");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  FioSampler sampler(parse_objective("seq-read-direct", "").value(), held.held(), probe::Seconds(1.0));
  REQUIRE(sampler.sample());
  const auto args = read_text(dir.path() + "/args");
  CHECK_THAT(args, Catch::Contains("\n--filename=/proc/self/fd/" + fd + "\n"));
  CHECK_THAT(args, !Catch::Contains("loop7"));  // the user's name reaches fio nowhere
  CHECK(read_text(dir.path() + "/inherited") == dir.path() + "/device\n");
}

TEST_CASE("a sample refuses a held descriptor whose number now names another file", "[bench]") {
  disktune::testing::TempDir dir("fio-fake");
  fake_fio(dir.path(), "cat '" + kCaptures + "seq-read-direct.json'");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  auto held = std::make_unique<HeldFile>(dir.path() + "/device");
  const auto name = held->held();
  held.reset();  // closed: its number is free for the next open
  const probe::UniqueFd other(::open((dir.path() + "/other").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  REQUIRE(other.get() == name.fd);
  FioSampler sampler(parse_objective("seq-read-direct", "").value(), name, probe::Seconds(1.0));
  const auto sample = sampler.sample();
  REQUIRE_FALSE(sample);
  CHECK(sample.error().code == std::errc::no_such_device);
  CHECK_THAT(sample.error().path, Catch::Equals("/dev/loop7"));
  CHECK_FALSE(std::ifstream(dir.path() + "/args").good());  // fio never ran
}

TEST_CASE("FioSampler keeps a percentile sample's latency histogram from fio's json+", "[bench]") {
  disktune::testing::TempDir dir("fio-fake");
  fake_fio(dir.path(), "cat '" + kCaptures + "rand-read-latency-jsonplus.json'");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler sampler(parse_objective("rand-read-latency", "").value(), held.held(), probe::Seconds(3.0));
  const auto sample = require_value(sampler.sample());
  CHECK(sample.latency.fraction == 0.99);
  CHECK(completions_of(sample.latency) == 3000u);  // the capture's total_ios
  CHECK(sample.completions == 3000u);
  // The pooled p99 of one sample is fio's own: clat_ns.percentile 99.000000 = 123392 ns.
  CHECK(pooled_percentile(sample.latency)->value_us == Approx(123.392).epsilon(1e-12));
  CHECK(sample.value == Approx(1e6 / 123.392).epsilon(1e-12));
  // A rate objective's sample has no histogram.
  fake_fio(dir.path(), "cat '" + kCaptures + "seq-read-direct.json'");
  FioSampler rate(parse_objective("seq-read-direct", "").value(), held.held(), probe::Seconds(3.0));
  CHECK(require_value(rate.sample()).latency.bins.empty());
}

TEST_CASE("a percentile's sized fio sample asks fio for those completions, the duration still its bound", "[bench]") {
  disktune::testing::TempDir dir("fio-fake");
  fake_fio(dir.path(), "cat '" + kCaptures + "rand-read-latency-jsonplus.json'");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler latency(parse_objective("rand-read-latency", "").value(), held.held(), probe::Seconds(3.0));
  REQUIRE(latency.sample_completions(68));
  CHECK_THAT(read_text(dir.path() + "/args"),
             Catch::Contains("\n--number_ios=68\n--io_size=278528\n--runtime=3000ms\n"));
  // A rate is sized by its steady stop, never by a count.
  fake_fio(dir.path(), "cat '" + kCaptures + "seq-read-direct.json'");
  FioSampler rate(parse_objective("seq-read-direct", "").value(), held.held(), probe::Seconds(3.0));
  REQUIRE(rate.sample_completions(68));
  CHECK_THAT(read_text(dir.path() + "/args"), !Catch::Contains("number_ios"));
}

TEST_CASE("a built-in's fio warm-up runs a third of the duration, a job file's the whole", "[bench]") {
  disktune::testing::TempDir dir("fio-fake");
  fake_fio(dir.path(), "cat '" + kCaptures + "rand-read-latency-jsonplus.json'");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler latency(parse_objective("rand-read-latency", "").value(), held.held(), probe::Seconds(3.0));
  REQUIRE(latency.warmup());  // a percentile's: 36 reads (a tenth of the 368 that bound a p99)
  CHECK_THAT(read_text(dir.path() + "/args"), Catch::Contains("\n--number_ios=36\n--io_size=147456\n--runtime=1000ms\n"));
  FioSampler rate(parse_objective("rand-read-iops", "").value(), held.held(), probe::Seconds(3.0));
  REQUIRE(rate.warmup());
  CHECK_THAT(read_text(dir.path() + "/args"), Catch::Contains("\n--time_based\n--runtime=1000ms\n"));
  REQUIRE(latency.sample());
  CHECK_THAT(read_text(dir.path() + "/args"), Catch::Contains("\n--runtime=3000ms\n"));
  FioSampler brief(parse_objective("rand-read-latency", "").value(), held.held(), probe::Seconds(0.05));
  REQUIRE(brief.warmup());  // never longer than a sample, never shorter than 0.1 s unless a sample is
  CHECK_THAT(read_text(dir.path() + "/args"), Catch::Contains("\n--runtime=50ms\n"));
  auto job = parse_objective("fio:/etc/db.fio", "").value();
  job.checked_job = "[db]\nrw=randread\n";
  FioSampler file(job, held.held(), probe::Seconds(3.0));
  REQUIRE(file.warmup());
  CHECK_THAT(read_text(dir.path() + "/args"), Catch::Contains("\n--runtime=3000ms\n"));
}

TEST_CASE("a missing fio is an error naming Debian's package", "[bench]") {
  disktune::testing::TempDir dir("fio-none");  // an empty PATH directory: no fio anywhere
  PathGuard path(dir.path());
  const HeldFile held(dir.path() + "/device");
  const auto run = run_fio({"--version"}, FioLimits{"", kFioQuickLimit, {}});
  REQUIRE_FALSE(run.has_value());
  CHECK_THAT(run.error().message(), Catch::Contains("fio not found: install Debian's fio package (scripts/setup does)"));
  FioSampler sampler(parse_objective("rand-read-iops", "").value(), held.held(), probe::Seconds(1.0));
  const auto sample = sampler.sample();
  REQUIRE_FALSE(sample.has_value());
  CHECK_THAT(sample.error().message(), Catch::Contains("install Debian's fio package"));
  const auto version = fio_version();
  REQUIRE_FALSE(version.has_value());
  CHECK_THAT(version.error().message(), Catch::Contains("install Debian's fio package"));
}

TEST_CASE("a failing fio's own message is the sample's error", "[bench]") {
  disktune::testing::TempDir dir("fio-fail");
  fake_fio(dir.path(), "echo 'fio: pid=42, err=5/file:io_u.c:1889, func=io_u error, error=Input/output error' >&2\nexit 1");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler sampler(parse_objective("seq-read-direct", "").value(), held.held(), probe::Seconds(1.0));
  const auto sample = sampler.sample();
  REQUIRE_FALSE(sample.has_value());
  CHECK_THAT(sample.error().message(),
             Catch::Contains("fio on /dev/loop7 failed: fio: pid=42, err=5") && Catch::Contains("Input/output error"));
}

TEST_CASE("fio output that is not its JSON is said to be malformed", "[bench]") {
  disktune::testing::TempDir dir("fio-garble");
  fake_fio(dir.path(), "echo '{\"jobs\": [ {\"jobname\": '");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler sampler(parse_objective("rand-read-iops", "").value(), held.held(), probe::Seconds(1.0));
  const auto sample = sampler.sample();
  REQUIRE_FALSE(sample.has_value());
  CHECK_THAT(sample.error().message(), Catch::Contains("fio's JSON output is malformed"));
}

TEST_CASE("fio_version is fio's first line of --version", "[bench]") {
  disktune::testing::TempDir dir("fio-version");
  fake_fio(dir.path(), "echo fio-3.33");
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  CHECK(require_value(fio_version()) == "fio-3.33");
  CHECK(read_text(dir.path() + "/args") == "--version\n");
}

namespace {

// A stand-in fio that prints a --status-interval report every 20 ms of wall time for k = 1..30
// (runtime k x 100 ms, 10 MiB per 100 ms: 100 MiB/s, 100 reads per 100 ms), its final report
// at the k it reached and exit 128 on SIGINT (as fio 3.33 does), else its final report at 30.
const char* kSteadyFio = R"(report() {
  printf '{\n  "jobs" : [\n    {\n      "jobname" : "seq-read-direct",\n      "error" : 0,\n      "read" : {\n'
  printf '        "io_bytes" : %d,\n        "bw_bytes" : 104857600,\n        "iops" : 1000,\n' $(($1 * 10485760))
  printf '        "runtime" : %d,\n        "total_ios" : %d\n      }\n    }\n  ]\n}\n' $(($1 * 100)) $(($1 * 100))
}
k=0
trap 'echo "fio: terminating on signal 2"; report $k; exit 128' INT
while [ $k -lt 30 ]; do k=$((k + 1)); report $k; sleep 0.02; done
report 30)";

// The same stand-in, its rate falling by a third of a percent every report (10 % over 3 s,
// as an EMULATED 2 GiB hdd's zones slow within a sample): never steady, never cut short.
std::string drifting_fio() {
  std::string body = kSteadyFio;
  const std::string from = "$(($1 * 10485760))", to = "$(($1 * 10485760 - 10485760 * $1 * ($1 + 1) / 600))";
  body.replace(body.find(from), from.size(), to);
  return body;
}

}  // namespace

TEST_CASE("a fio rate that keeps drifting is not projected: the sample runs whole", "[bench]") {
  disktune::testing::TempDir dir("fio-drift");
  fake_fio(dir.path(), drifting_fio());
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler sampler(parse_objective("seq-read-direct", "").value(), held.held(), probe::Seconds(3.0), true);
  const auto sample = require_value(sampler.sample());
  CHECK_FALSE(sample.steady);
  CHECK(sample.elapsed.count() == Approx(3.0));
}

TEST_CASE("a steady fio rate ends its sample early, the figure projected to the duration", "[bench]") {
  disktune::testing::TempDir dir("fio-steady");
  fake_fio(dir.path(), kSteadyFio);
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler sampler(parse_objective("seq-read-direct", "").value(), held.held(), probe::Seconds(3.0), true);
  const auto sample = require_value(sampler.sample());
  CHECK(sample.steady);
  // Steady from a third of the 3 s (k = 10) on: fio asked to finish well before k = 30.
  CHECK(sample.elapsed.count() >= 1.0);
  CHECK(sample.elapsed.count() < 2.5);
  CHECK(sample.value == Approx(100.0));  // MiB/s, the steady rate over the whole duration
  CHECK(sample.completions == static_cast<std::uint64_t>(sample.elapsed.count() * 1000.0 + 0.5));
  CHECK_THAT(read_text(dir.path() + "/args"), Catch::Contains("--status-interval=100ms"));
}

TEST_CASE("without the steady stop, or for a percentile, fio runs its whole sample", "[bench]") {
  disktune::testing::TempDir dir("fio-full");
  fake_fio(dir.path(), kSteadyFio);
  PathGuard path(dir.path() + ":/usr/bin:/bin");
  const HeldFile held(dir.path() + "/device");
  FioSampler full(parse_objective("seq-read-direct", "").value(), held.held(), probe::Seconds(3.0), false);
  const auto sample = require_value(full.sample());
  CHECK_FALSE(sample.steady);
  CHECK(sample.elapsed.count() == Approx(3.0));
  CHECK(sample.completions == 3000u);
  CHECK_THAT(read_text(dir.path() + "/args"), !Catch::Contains("--status-interval"));
  FioSampler latency(parse_objective("rand-read-latency", "").value(), held.held(), probe::Seconds(3.0), true);
  (void)latency.sample();  // the stand-in's output has no percentile: only the arguments count here
  CHECK_THAT(read_text(dir.path() + "/args"), !Catch::Contains("--status-interval"));
}
