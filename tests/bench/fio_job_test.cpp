// SPDX-License-Identifier: GPL-2.0-or-later
// bench/fio_job: the built-ins' fio arguments and the refusal of job files that do more than read.
#include "bench/fio_job.hpp"

#include "tests/support/require_value.hpp"
#include "tests/support/temp_dir.hpp"

#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <unistd.h>

using namespace disktune;
using namespace disktune::bench;
using disktune::testing::require_value;

namespace {

Objective objective(const std::string& name, const char* metric = "") {
  return parse_objective(name, metric).value();
}

// The device these checks compare filename= with: any path that exists works.
const std::string kDevice = "/dev/null";

bool fio_installed() { return ::access("/usr/bin/fio", X_OK) == 0; }

}  // namespace

TEST_CASE("fio_arguments gives each built-in its job over the whole device, read-only, as JSON", "[bench]") {
  const std::vector<std::string> common{"--readonly", "--output-format=json", "--thread", "--filename=/dev/loop7",
                                        "--time_based", "--runtime=1500ms"};
  const auto [name, job] = GENERATE(table<std::string, std::vector<std::string>>({
      {"seq-read-direct", {"--rw=read", "--bs=1M", "--direct=1", "--iodepth=16", "--ioengine=libaio"}},
      {"rand-read-iops", {"--rw=randread", "--bs=4k", "--direct=1", "--iodepth=32", "--ioengine=libaio"}},
      {"rand-read-latency", {"--rw=randread", "--bs=4k", "--direct=1", "--iodepth=1", "--ioengine=psync"}},
  }));
  auto expected = common;
  if (name == "rand-read-latency") {  // a percentile: 12 000 completions, the duration the bound
    expected[1] = "--output-format=json+";  // its latency histogram, pooled over the samples
    expected[4] = "--number_ios=12000";
    expected.insert(expected.begin() + 5, "--io_size=49152000");
  }
  expected.push_back("--name=" + name);
  expected.insert(expected.end(), job.begin(), job.end());
  CHECK(fio_arguments(objective(name), "/dev/loop7", probe::Seconds(1.5)) == expected);
  // A completions bound sizes only a percentile's sample, and never beyond its 12 000.
  CHECK(fio_arguments(objective(name), "/dev/loop7", probe::Seconds(1.5), 99999) == expected);
  if (name == "rand-read-latency") {
    expected[4] = "--number_ios=68";
    expected[5] = "--io_size=278528";
  }
  CHECK(fio_arguments(objective(name), "/dev/loop7", probe::Seconds(1.5), 68) == expected);
}

TEST_CASE("fio_arguments runs the checked job from stdin, never the file, with the device and duration as defaults", "[bench]") {
  auto job = objective("fio:/etc/db.fio");
  job.checked_job = "[db]\nrw=randread\n";
  CHECK(fio_arguments(job, "/dev/sdb", probe::Seconds(0.0004)) ==
        std::vector<std::string>{"--readonly", "--output-format=json", "--thread", "--filename=/dev/sdb", "--time_based",
                                 "--runtime=1ms", "-"});
}

TEST_CASE("fio_time_limit bounds a sample by what its job can take", "[bench]") {
  CHECK(fio_time_limit(objective("rand-read-iops"), probe::Seconds(2.0)).count() == Approx(32.0));
  auto job = objective("fio:/etc/db.fio");
  // Two jobs, one after another at most: 2 s each (their runtime below the duration counts as
  // the duration), the second with its own 1 m runtime, 500 ms ramp and a 1-3 s start delay.
  job.checked_job = "[global]\nramp_time=500ms\n[a]\nruntime=1\n[b]\nruntime=1M\nstartdelay=1-3\n";
  CHECK(fio_time_limit(job, probe::Seconds(2.0)).count() == Approx(30.0 + (2.0 + 0.5) + (60.0 + 0.5 + 3.0)));
}

TEST_CASE("check_job_text rewrites the job as fio reads it: one option a line, comments gone, nothing else", "[bench]") {
  const auto facts = require_value(check_job_text("# a job\n[global]\n  ioengine = libaio  ; inline\ndirect=1#c\n\n"
                                                  "[r]\r\nrw=randread\r\ntime_based\ndescription=a b\n",
                                                  kDevice));
  CHECK(facts.job == "[global]\nioengine=libaio\ndirect=1\n[r]\nrw=randread\ntime_based\ndescription=a b\n");
  CHECK(facts.random);
  // fio ends a line at its first '#' or ';': a filename behind one is the device itself.
  // The device named by filename= is left to disktune's --filename: a symlink in the job cannot
  // be pointed elsewhere after the check.
  CHECK(require_value(check_job_text("[a]\nfilename=/dev/null#/dev/sda\nbs=4k\n", kDevice)).job == "[a]\nbs=4k\n");
}

TEST_CASE("check_job_text refuses what fio could read otherwise than the check", "[bench]") {
  // The adversary: fio reads 8191-byte pieces, so padding made one line two to fio.
  const std::string padded = "description=" + std::string(8191 - 12, 'x') + "exec_prerun=/tmp/x.sh";
  const auto [text, why] = GENERATE_COPY(table<std::string, std::string>({
      {"[a]\n" + padded + "\n", "line 2): the line is 8212 bytes long, more than the 4096"},
      {"[a]\nrw=read\x0b\n", "line 2): the line holds the control character 0x0b"},
      {std::string("[a]\nrw=read\0exec_prerun=x\n", 27), "holds a NUL byte"},
      {"bs=4k\n[a]\n", "line 1): bs stands before any [section]"},
      {"[a] x\nrw=read\n", "line 1): a section header is [NAME]"},
      {"[]\nrw=read\n", "a section name is 1-128 characters"},
      {"# nothing\n", "the job has no [section]"},
      {"[a]\n" + std::string(70000, '#') + "\n", "more than the 65536 a job file may hold"},
  }));
  const auto checked = check_job_text(text, kDevice);
  REQUIRE_FALSE(checked.has_value());
  CHECK(checked.error().code == std::errc::invalid_argument);
  CHECK_THAT(checked.error().message(), Catch::Contains(why));
}

TEST_CASE("check_job_text refuses every job that writes or trims", "[bench]") {
  const auto [key, value] = GENERATE(table<std::string, std::string>({
      {"rw", "write"}, {"rw", "randwrite"}, {"rw", "rw"}, {"rw", "readwrite"}, {"rw", "randrw"},
      {"rw", "trim"}, {"rw", "randtrim"}, {"rw", "trimwrite"}, {"rw", "randtrimwrite"},
      {"readwrite", "write"}, {"rw", "randwrite:8"}, {" rw ", " write "},
  }));
  const auto text = "[global]\nbs=4k\n; a comment\n[db]\n" + key + "=" + value + "\n";
  const auto checked = check_job_text(text, kDevice);
  REQUIRE_FALSE(checked.has_value());
  CHECK(checked.error().code == std::errc::invalid_argument);
  CHECK_THAT(checked.error().message(), Catch::Contains("line 5") && Catch::Contains("writes or trims"));
}

TEST_CASE("check_job_text refuses jobs that read other files or act beyond reading", "[bench]") {
  const auto [line, why] = GENERATE(table<std::string, std::string>({
      {"filename=/dev/zero", "names another file"},
      {"filename=/dev/null:/dev/zero", "names another file"},
      {"directory=/tmp", "other files"},
      {"opendir=/tmp", "other files"},
      {"filename_format=$jobname.$jobnum", "other files"},
      {"exec_prerun=rm -rf /", "beyond reading"},
      {"exec_postrun=true", "beyond reading"},
      {"unlink=1", "beyond reading"},
      {"unlink_each_loop", "beyond reading"},
      {"ioengine=exec", "ioengine=exec is not one of"},
      {"ioengine=filedelete", "ioengine=filedelete is not one of"},
      {"ioengine=sg", "ioengine=sg is not one of"},
      {"include other.fio", "include is not checked"},
      {"thread=0", "a forked job process would outlive"},
      {"thread=00", "a forked job process would outlive"},
      {"thread=0x0", "a forked job process would outlive"},
      {"thread=+0", "a forked job process would outlive"},
      {"description=a\tb", "a tab, CR or non-ASCII byte"},
      {"name=a\rb", "a tab, CR or non-ASCII byte"},
      {"name=\xff\xfe", "a tab, CR or non-ASCII byte"},
      {"${E}=touch /tmp/x", "${VAR} expansion"},
      {"exec_pre${R}=touch /tmp/x", "${VAR} expansion"},
      {"write_iolog=/etc/passwd", "writes a file"},
      {"write_bw_log=bw", "writes a file"},
      {"ioscheduler=bfq", "changes the device's I/O scheduler"},
      // The adversary: fio mapped this file and wrote the device's data into it, as root.
      {"mem=mmapshared:/tmp/victim", "maps a file"},
      {"iomem=mmap:/tmp/victim", "maps a file"},
      {"read_iolog=/etc/passwd", "not among the fio options"},
      {"replay_redirect=/dev/sdz", "not among the fio options"},
      {"verify_state_save=1", "not among the fio options"},
      {"cgroup=disktune", "not among the fio options"},
      {"fallocate=punch", "not among the fio options"},
      {"trim_percentage=100", "not among the fio options"},
  }));
  const auto checked = check_job_text("[job]\nrw=randread\n" + line + "\n", kDevice);
  REQUIRE_FALSE(checked.has_value());
  CHECK_THAT(checked.error().message(), Catch::Contains("line 3") && Catch::Contains(why));
}

TEST_CASE("check_job_text tells a misspelled direction from a writing one", "[bench]") {
  const auto typo = check_job_text("[a]\nrw=randreed\n", kDevice);
  REQUIRE_FALSE(typo.has_value());
  CHECK_THAT(typo.error().message(), Catch::Contains("rw=randreed is no direction fio knows"));
}

TEST_CASE("check_job_text accepts read jobs and tells random from sequential ones", "[bench]") {
  CHECK_FALSE(require_value(check_job_text("[a]\nrw=read\nbs=1M\nioengine=libaio\n", kDevice)).random);
  CHECK_FALSE(require_value(check_job_text("[a]\nbs=1M\n", kDevice)).random);  // fio's default: read
  CHECK(require_value(check_job_text("[a]\nrw=read\n[b]\nreadwrite=randread:4\n", kDevice)).random);
  // The device itself, also by another spelling of its path, is allowed.
  CHECK(require_value(check_job_text("[a]\nfilename=/dev/../dev/null\nrw=randread\n", kDevice)).random);
  // A typical hand-written job: every option on the read list, memory without a file.
  CHECK(require_value(check_job_text("[global]\nioengine=io_uring\ndirect=1\nruntime=2\ntime_based\n"
                                     "group_reporting\nmem=malloc\n[r]\nrw=randread\nbs=4k\niodepth=8\n"
                                     "numjobs=2\nrandrepeat=0\npercentile_list=50:99:99.9\n",
                                     kDevice)).random);
}

TEST_CASE("check_fio_job resolves a job file's default metric and refuses what fio's --readonly refuses", "[bench]") {
  if (!fio_installed()) {
    disktune::testing::skip_test("fio is not installed (scripts/setup installs it): check_fio_job not exercised");
    return;
  }
  disktune::testing::TempDir dir("fio-job");
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir.path() + "/" + name) << text;
    return dir.path() + "/" + name;
  };
  const auto random = require_value(check_fio_job(objective("fio:" + write("r.fio", "[r]\nrw=randread\nbs=4k\n")), kDevice));
  CHECK(random.metric == Metric::iops);
  const auto seq = require_value(check_fio_job(objective("fio:" + write("s.fio", "[s]\nrw=read\nbs=1M\n")), kDevice));
  CHECK(seq.metric == Metric::bw);
  const auto p99 = require_value(check_fio_job(objective("fio:" + dir.path() + "/s.fio", "p99"), kDevice));
  CHECK(p99.metric == Metric::p99);
  CHECK(p99.direction == Direction::lower);

  // disktune's own check comes first: fio never sees a refused job.
  const auto writes = check_fio_job(objective("fio:" + write("w.fio", "[w]\nrw=randwrite\n")), kDevice);
  REQUIRE_FALSE(writes.has_value());
  CHECK_THAT(writes.error().message(), Catch::Contains("w.fio: fio job refused (line 2)") && Catch::Contains("writes or trims"));
  const auto bad = check_fio_job(objective("fio:" + write("b.fio", "[b]\nbogus=1\n")), kDevice);
  REQUIRE_FALSE(bad.has_value());
  CHECK_THAT(bad.error().message(), Catch::Contains("not among the fio options"));
  const auto fio_refuses = check_fio_job(objective("fio:" + write("f.fio", "[f]\nbs=many\n")), kDevice);
  REQUIRE_FALSE(fio_refuses.has_value());
  CHECK_THAT(fio_refuses.error().message(), Catch::Contains("fio --parse-only rejects " + dir.path() + "/f.fio"));
  const auto missing = check_fio_job(objective("fio:" + dir.path() + "/none.fio"), kDevice);
  REQUIRE_FALSE(missing.has_value());
  CHECK_THAT(missing.error().message(), Catch::Contains("fio job file " + dir.path() + "/none.fio: No such file or directory"));
  CHECK(missing.error().code == std::errc::invalid_argument);  // bad input: exit 2
  const auto directory = check_fio_job(objective("fio:" + dir.path()), kDevice);
  REQUIRE_FALSE(directory.has_value());
  CHECK_THAT(directory.error().message(), Catch::Contains("fio job file " + dir.path() + ": Is a directory"));
  CHECK(directory.error().code == std::errc::invalid_argument);
}

TEST_CASE("check_fio_job keeps the text it checked: a file replaced afterwards changes nothing", "[bench]") {
  if (!fio_installed()) {
    disktune::testing::skip_test("fio is not installed (scripts/setup installs it): check_fio_job not exercised");
    return;
  }
  disktune::testing::TempDir dir("fio-swap");
  const auto path = dir.path() + "/j.fio";
  std::ofstream(path) << "[j]\nrw=read\nbs=1M\n";
  const auto checked = require_value(check_fio_job(objective("fio:" + path), kDevice));
  std::ofstream(path) << "[j]\nrw=read\nexec_prerun=touch " << dir.path() << "/ran\n";
  CHECK(checked.checked_job == "[j]\nrw=read\nbs=1M\n");
  CHECK(fio_arguments(checked, kDevice, probe::Seconds(1.0)).back() == "-");
}

TEST_CASE("check_fio_job refuses a job file that is not a regular file (a FIFO would block)", "[bench]") {
  char dir[] = "/tmp/disktune-fifo-XXXXXX";
  REQUIRE(::mkdtemp(dir) != nullptr);
  const std::string fifo = std::string(dir) + "/job.fio";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto objective = parse_objective("fio:" + fifo, "").value();
  const auto checked = check_fio_job(objective, kDevice);
  ::unlink(fifo.c_str());
  ::rmdir(dir);
  REQUIRE_FALSE(checked.has_value());
  CHECK_THAT(checked.error().message(), Catch::Contains("is not a regular file"));
}

TEST_CASE("a built-in percentile's sample is sized by completions: 120 beyond the percentile", "[bench]") {
  CHECK(percentile_completions(objective("rand-read-latency")) == std::optional<std::uint64_t>(12000));
  CHECK_FALSE(percentile_completions(objective("rand-read-iops")));
  CHECK_FALSE(percentile_completions(objective("seq-read-direct")));
  CHECK_FALSE(percentile_completions(objective("seq-read")));
  CHECK_FALSE(percentile_completions(objective("fio:/etc/db.fio", "p99")));  // a user's job runs as written
  Objective p999 = objective("rand-read-latency");
  p999.metric = Metric::p999;
  CHECK(percentile_completions(p999) == std::optional<std::uint64_t>(120000));
}
