// SPDX-License-Identifier: GPL-2.0-or-later
// Command-line parsing of bench --objective / --metric: the parsed objective and the usage errors.
#include "tuner/cli/cli.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune;

namespace {

tuner::Config parse(std::vector<const char*> args) {
  args.insert(args.begin(), "disktune");
  return tuner::parse_command_line(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("bench measures seq-read unless --objective names another objective", "[cli]") {
  const auto plain = parse({"bench", "/dev/loop7"});
  REQUIRE(plain.measure.objectives.size() == 1);
  CHECK(plain.measure.objectives[0] == bench::parse_objective("seq-read", "").value());
  const auto iops = parse({"bench", "/dev/loop7", "--objective", "rand-read-iops"});
  REQUIRE(iops.measure.objectives.size() == 1);
  CHECK(iops.measure.objectives[0].engine == bench::Engine::fio);
  CHECK(iops.measure.objectives[0].metric == bench::Metric::iops);
  const auto file = parse({"bench", "/dev/loop7", "--objective", "fio:/etc/db.fio", "--metric", "p999"});
  CHECK(file.measure.objectives[0].job_file == "/etc/db.fio");
  CHECK(file.measure.objectives[0].metric == bench::Metric::p999);
  CHECK(file.measure.objectives[0].metric_given);
}

TEST_CASE("bench --objective errors are usage errors with the reason", "[cli]") {
  const auto [args, reason] = GENERATE(table<std::vector<const char*>, std::string>({
      {{"bench", "--objective", "seq-read-fast"}, "unknown objective (one of seq-read, seq-read-direct"},
      {{"bench", "--objective", "fio:"}, "needs a job file"},
      {{"bench", "--objective", "fio:x.fio", "--metric", "latency"}, "unknown --metric latency"},
      {{"bench", "--objective", "rand-read-iops", "--metric", "bw"}, "applies to fio:FILE objectives only"},
      {{"bench", "--metric", "iops"}, "applies to fio:FILE objectives only"},
      {{"bench", "--objective", "rand-read-iops,seq-read"}, "bench measures one objective"},
      {{"bench", "--objective", "rand-read-iops", "--method", "cached"}, "--method applies to --objective seq-read only"},
  }));
  CHECK_THROWS_WITH(parse(args), Catch::Contains(reason));
  CHECK_THROWS_AS(parse(args), tuner::UsageError);
}

TEST_CASE("tune --tolerance needs a guard objective: --objective A,B", "[cli]") {
  const auto args = GENERATE(values<std::vector<const char*>>({
      {"tune", "--tolerance", "3"},
      {"tune", "--objective", "rand-read-iops", "--tolerance", "3"},
      {"tune", "--objective", "fio:/tmp/a,b.fio", "--tolerance", "10"},
  }));
  CHECK_THROWS_WITH(parse(args), Catch::Contains("--tolerance needs a second objective (--objective A,B)"));
  CHECK_THROWS_AS(parse(args), tuner::UsageError);
  const auto guarded = parse({"tune", "--objective", "rand-read-iops,rand-read-latency", "--tolerance", "3"});
  CHECK(guarded.measure.tolerance == Approx(0.03));
  CHECK(parse({"tune", "--objective", "rand-read-iops"}).measure.tolerance == Approx(0.05));  // the default, unasked
}

TEST_CASE("cli: --objective with three names says at most two are allowed, naming the input", "[cli]") {
  const auto command = GENERATE(as<const char*>{}, "tune", "bench", "evaluate");
  CHECK_THROWS_WITH(parse({command, "--objective", "a,b,c"}),
                    Catch::Contains("--objective a,b,c: at most two objectives are allowed"));
}
