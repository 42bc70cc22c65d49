// SPDX-License-Identifier: GPL-2.0-or-later
// bench/objective: the --objective / --metric parser, units, directions and the score mapping.
#include "bench/objective.hpp"

#include <catch2/catch.hpp>

using namespace disktune::bench;

TEST_CASE("built-in objectives carry their engine, metric, unit and direction", "[bench]") {
  const auto seq = parse_objective("seq-read", "");
  REQUIRE(seq.has_value());
  CHECK(seq->engine == Engine::hdparm_reads);
  CHECK(unit_of(*seq) == "MB/s");
  const auto iops = parse_objective("rand-read-iops", "");
  REQUIRE(iops.has_value());
  CHECK(iops->engine == Engine::fio);
  CHECK(unit_of(*iops) == "IOPS");
  CHECK(iops->direction == Direction::higher);
  const auto latency = parse_objective("rand-read-latency", "");
  REQUIRE(latency.has_value());
  CHECK(latency->metric == Metric::p99);
  CHECK(unit_of(*latency) == "us");
  CHECK(latency->direction == Direction::lower);
}

TEST_CASE("a latency's score is higher when the latency is lower, and maps back", "[bench]") {
  const auto latency = parse_objective("rand-read-latency", "").value();
  CHECK(score_of(latency, 800.0) > score_of(latency, 1000.0));
  CHECK(score_of(latency, 1000.0) == Approx(1000.0));
  CHECK(figure_of(latency, score_of(latency, 812.5)) == Approx(812.5));
  CHECK(figure_of(latency, 0.0) == 0.0);
  const auto seq = parse_objective("seq-read", "").value();
  CHECK(score_of(seq, 48.1) == 48.1);
}

TEST_CASE("fio:FILE takes --metric; its direction follows the metric", "[bench]") {
  const auto job = parse_objective("fio:/etc/db.fio", "p999");
  REQUIRE(job.has_value());
  CHECK(job->job_file == "/etc/db.fio");
  CHECK(job->metric == Metric::p999);
  CHECK(job->metric_given);
  CHECK(job->direction == Direction::lower);
  const auto plain = parse_objective("fio:job.fio", "");
  REQUIRE(plain.has_value());
  CHECK_FALSE(plain->metric_given);
}

TEST_CASE("bad objectives are refused naming the input and the reason", "[bench]") {
  const auto unknown = parse_objective("rand-write", "");
  REQUIRE_FALSE(unknown.has_value());
  CHECK_THAT(unknown.error().message(), Catch::Contains("--objective rand-write: unknown objective (one of seq-read"));
  CHECK_THAT(parse_objective("fio:", "").error().message(), Catch::Contains("needs a job file"));
  CHECK_THAT(parse_objective("fio:x.fio", "p50").error().message(), Catch::Contains("unknown --metric p50"));
  CHECK_THAT(parse_objective("rand-read-iops", "bw").error().message(), Catch::Contains("fio:FILE objectives only"));
}

TEST_CASE("an --objective A,B list: the optimised one first, then one guard", "[bench]") {
  const auto two = parse_objectives("rand-read-latency,seq-read", "");
  REQUIRE(two.has_value());
  REQUIRE(two->size() == 2);
  CHECK((*two)[0].name == "rand-read-latency");
  CHECK((*two)[1].name == "seq-read");
  CHECK_THAT(parse_objectives("seq-read,seq-read", "").error().message(), Catch::Contains("given twice"));
  CHECK_THAT(parse_objectives("seq-read,rand-read-iops,rand-read-latency", "").error().message(),
             Catch::Contains("at most two"));
  CHECK_THAT(parse_objectives("seq-read,", "").error().message(), Catch::Contains("empty objective name"));
  CHECK_THAT(parse_objectives("seq-read", "iops").error().message(), Catch::Contains("fio:FILE objectives only"));
  const auto with_job = parse_objectives("fio:db.fio,seq-read", "p99");
  REQUIRE(with_job.has_value());
  CHECK((*with_job)[0].metric == Metric::p99);
  CHECK((*with_job)[1].metric == Metric::bw);
}

TEST_CASE("more than two objectives are refused as too many, before any name is judged", "[bench]") {
  const auto three = parse_objectives("a,b,c", "");
  REQUIRE_FALSE(three.has_value());
  CHECK_THAT(three.error().message(), Catch::Contains("--objective a,b,c: at most two objectives are allowed") &&
                                          Catch::Contains("not 3"));
  CHECK_THAT(three.error().message(), !Catch::Contains("unknown"));
  CHECK_THAT(parse_objectives("fio:x.fio,seq-read,fio:y.fio", "").error().message(), Catch::Contains("at most two"));
}

TEST_CASE("a comma in a fio: job path is the path's unless an objective's name follows it", "[bench]") {
  using Names = std::vector<std::string_view>;
  CHECK(split_objectives("fio:/tmp/a,b.fio") == Names{"fio:/tmp/a,b.fio"});
  CHECK(split_objectives("fio:/tmp/a,b,c.fio,seq-read") == Names{"fio:/tmp/a,b,c.fio", "seq-read"});
  CHECK(split_objectives("fio:/tmp/a,seq-read.fio") == Names{"fio:/tmp/a,seq-read.fio"});
  CHECK(split_objectives("fio:/tmp/a.fio,fio:/tmp/b,c.fio") == Names{"fio:/tmp/a.fio", "fio:/tmp/b,c.fio"});
  CHECK(split_objectives("rand-read-iops,fio:/tmp/a,b.fio") == Names{"rand-read-iops", "fio:/tmp/a,b.fio"});
  CHECK(split_objectives("seq-read,foo,bar") == Names{"seq-read", "foo", "bar"});
  const auto one = parse_objectives("fio:/tmp/a,b.fio", "");
  REQUIRE(one.has_value());
  REQUIRE(one->size() == 1);
  CHECK((*one)[0].job_file == "/tmp/a,b.fio");
  const auto two = parse_objectives("fio:/tmp/a,b.fio,rand-read-latency", "iops");
  REQUIRE(two.has_value());
  REQUIRE(two->size() == 2);
  CHECK((*two)[0].job_file == "/tmp/a,b.fio");
  CHECK((*two)[0].metric == Metric::iops);
  CHECK((*two)[1].name == "rand-read-latency");
}
