// SPDX-License-Identifier: GPL-2.0-or-later
// boot.local snippets: golden files, bash -n, only changed settings, unsafe names rejected.
#include "results/boot_local.hpp"

#include "tests/support/golden.hpp"
#include "tests/support/sample_reports.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {

// Writes `script` to a temporary file, runs `bash -n` on it, removes the file (also when
// bash cannot be run). True when bash accepts the syntax.
bool bash_syntax_ok(const std::string& script) {
  static int counter = 0;
  const auto path = std::filesystem::temp_directory_path() /
                    ("disktune-boot-local-" + std::to_string(::getpid()) + "-" +
                     std::to_string(++counter) + ".sh");
  struct Remove {
    std::filesystem::path path;
    ~Remove() { std::filesystem::remove(path); }
  } remove{path};
  std::ofstream(path) << script;
  const std::string command = "bash -n '" + path.string() + "' 2>/dev/null";
  return std::system(command.c_str()) == 0;
}

// Lines that are neither comments nor blank.
std::vector<std::string> command_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line.front() != '#') lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("boot.local for the seed drive is the walkthrough's hdparm line", "[results]") {
  const auto text = results::BootLocalEmitter().render(test_support::seed_report());
  test_support::check_golden("boot_local_seed.sh", text);
  REQUIRE(command_lines(text) ==
          std::vector<std::string>{"hdparm -X66 -d1 -u1 -m16 -c3 /dev/hdb"});
  REQUIRE(text.find("# SIMULATED drive: do not apply to real hardware.\n") != std::string::npos);
  // Both figures from the confirmation round, the one the speedup comes from.
  REQUIRE(text.find("# baseline: 3.83 MB/s (spread 0.9 %) [confirmation round]\n") != std::string::npos);
  REQUIRE(text.find("14.85 MB/s (spread 0.4 %), 3.88x the baseline (trial 3) [confirmation round]\n") !=
          std::string::npos);
  REQUIRE(text.find("on 2026-11-30T05:09:47Z") != std::string::npos);
}

// Apply order: a scheduler switch resets nr_requests, a max_sectors_kb write can raise
// read_ahead_kb; the unchanged max_sectors_kb after the first change is written too.
TEST_CASE("boot.local for a loop device writes sysfs queue lines in apply order", "[results]") {
  const auto text = results::BootLocalEmitter().render(test_support::loop_report());
  test_support::check_golden("boot_local_loop.sh", text);
  REQUIRE(command_lines(text) ==
          std::vector<std::string>{"echo 'mq-deadline' > /sys/block/loop0/queue/scheduler",
                                   "echo 64 > /sys/block/loop0/queue/nr_requests",
                                   "echo 1024 > /sys/block/loop0/queue/read_ahead_kb"});
  REQUIRE(text.find("SIMULATED") == std::string::npos);
}

TEST_CASE("boot.local of a too-noisy run says so and not that the run stopped", "[results]") {
  auto report = test_support::keep_baseline_report();
  report.too_noisy = true;
  report.completed = false;  // as the session sets it for exit 6
  report.noise_detail = "noise 19.6 %";
  const auto text = results::BootLocalEmitter().render(report);
  REQUIRE(command_lines(text).empty());
  CHECK_THAT(text, Catch::Contains("# Too noisy for an answer (noise 19.6 %): no configuration beat the noise; no "
                                   "settings are recommended.\n") &&
                       !Catch::Contains("stopped before it completed"));
}

TEST_CASE("boot.local keeping the baseline is comments only and says why", "[results]") {
  const auto text = results::BootLocalEmitter().render(test_support::keep_baseline_report());
  test_support::check_golden("boot_local_keep.sh", text);
  REQUIRE(command_lines(text).empty());
  REQUIRE(text.find("Keeping the baseline") != std::string::npos);
  REQUIRE(text.find("58.40 MB/s in the search\n# (+0.9 % against the search baseline)") != std::string::npos);
}

TEST_CASE("boot.local keeping the baseline of a latency says how much lower the best trial's latency was", "[results]") {
  auto report = test_support::keep_baseline_report();
  report.objective = bench::parse_objective("rand-read-latency", "").value();
  // Scores are 1e6 / us: the baseline at 20840.4 us, trial 1 at 19791.9 us (5.0 % lower; its score 5.3 % higher).
  report.baseline.trial.median = 1e6 / 20840.4;
  report.trials[0].median = 1e6 / 19791.9;
  report.trials[1].median = 1e6 / 21000.0;
  const auto text = results::BootLocalEmitter().render(report);
  CHECK(text.find("measured 19791.9 us in the search\n# (-5.0 % against the search baseline, lower is better)") !=
        std::string::npos);
}

TEST_CASE("keeping the baseline never offers a trial that failed the guard as the best stable trial", "[results]") {
  // seq-read as the guard (--tolerance 5): trial 1 (read_ahead_kb=1024) the fastest but 87 %
  // below the baseline's guard figure; trial 2 (bfq) within it.
  auto report = test_support::keep_baseline_report();
  report.guard = bench::parse_objective("seq-read", "").value();
  report.tolerance = 0.05;
  report.baseline.trial.guard = strategies::guard_figures_of({100.0, 100.0, 100.0});
  report.trials[0].guard = strategies::guard_figures_of({13.0, 13.0, 13.0});
  report.trials[1].guard = strategies::guard_figures_of({99.0, 99.0, 99.0});
  const auto text = results::BootLocalEmitter().render(report);
  CHECK(text.find("The best stable trial (1") == std::string::npos);
  CHECK(text.find("# The best stable trial within the guard (2: scheduler=bfq)") != std::string::npos);
  CHECK(text.find("# Trial 1 (read_ahead_kb=1024) measured 58.40 MB/s but failed the guard: seq-read 13.00 MB/s, "
                  "87.0 % worse than the baseline's 100.00: beyond --tolerance 5 %: no candidate.") != std::string::npos);
  // No trial within the guard: none is offered, and the one that failed it is named as such.
  report.trials[1].guard = strategies::guard_figures_of({50.0, 50.0, 50.0});
  const auto none = results::BootLocalEmitter().render(report);
  CHECK(none.find("# No stable trial passed the guard") != std::string::npos);
  CHECK(none.find("The best stable trial") == std::string::npos);
}

TEST_CASE("boot.local uses the by-id path and resolves the kernel name at boot", "[results]") {
  const auto text = results::BootLocalEmitter().render(test_support::by_id_report());
  test_support::check_golden("boot_local_byid.sh", text);
  const auto lines = command_lines(text);
  REQUIRE(lines.size() == 3);
  REQUIRE(lines[0] == "hdparm -a2048 /dev/disk/by-id/ata-WDC_WD800JB-00JJC0_WD-WMAM9AB12345");
  REQUIRE(lines[2] == "echo 1024 > \"/sys/block/$disktune_disk/queue/read_ahead_kb\"");
}

TEST_CASE("every boot.local snippet passes bash -n", "[results]") {
  for (const auto& report : {test_support::seed_report(), test_support::loop_report(),
                             test_support::keep_baseline_report(), test_support::by_id_report()})
    REQUIRE(bash_syntax_ok(results::BootLocalEmitter().render(report)));
  // The check itself can fail: an unterminated quote is caught.
  REQUIRE_FALSE(bash_syntax_ok("echo 'mq-deadline > /sys/block/sda/queue/scheduler\n"));
}

TEST_CASE("boot.local writes only settings that differ from the baseline", "[results]") {
  auto report = test_support::seed_report();
  // A sloppy producer listed an unchanged setting: it must not be written.
  report.winner.changes[SettingId::readahead] = SettingValue(std::int64_t{8});
  const auto text = results::BootLocalEmitter().render(report);
  REQUIRE(text.find("-a8") == std::string::npos);
  REQUIRE(text.find("hdparm -X66 -d1 -u1 -m16 -c3 /dev/hdb\n") != std::string::npos);
}

TEST_CASE("boot.local rejects device and scheduler names unsafe in a shell", "[results]") {
  const results::BootLocalEmitter emitter;
  const std::string bad_path = GENERATE(as<std::string>{}, "/dev/sd a", "/dev/sda;reboot",
                                        "/dev/$(reboot)", "sda", "/dev/sda'", "-X66", "/dev/..\n");
  auto report = test_support::loop_report();
  report.device.path = bad_path;
  REQUIRE_THROWS_AS(emitter.render(report), std::invalid_argument);

  auto by_id = test_support::by_id_report();
  by_id.device.stable_path = "/dev/disk/by-id/ata-X`id`";
  REQUIRE_THROWS_AS(emitter.render(by_id), std::invalid_argument);

  auto scheduler = test_support::loop_report();
  scheduler.winner.changes[SettingId::scheduler] = SettingValue(std::string("bfq'; reboot; '"));
  REQUIRE_THROWS_AS(emitter.render(scheduler), std::invalid_argument);
  scheduler.winner.changes[SettingId::scheduler] = SettingValue(std::string("BFQ"));
  REQUIRE_THROWS_AS(emitter.render(scheduler), std::invalid_argument);
}

TEST_CASE("boot.local names a non-seed simulated drive with a placeholder", "[results]") {
  auto report = test_support::seed_report();
  report.device.path = "sim:/tmp/other-drive.txt";
  const auto text = results::BootLocalEmitter().render(report);
  REQUIRE(command_lines(text) == std::vector<std::string>{"hdparm -X66 -d1 -u1 -m16 -c3 /dev/hdX"});
}

TEST_CASE("keeping the baseline after a confirmation round quotes the round's figures", "[results]") {
  auto report = test_support::keep_baseline_report();
  results::ConfirmationRound round;
  round.rounds = 6;
  strategies::TrialResult base, finalist;
  base.id = 0;
  finalist.id = 1;
  base.status = finalist.status = strategies::TrialStatus::ok;
  base.median = 57.70;
  finalist.median = 57.80;
  round.results = {base, finalist};
  report.confirmation = round;
  report.winner.confirmed = true;
  report.winner.median = 57.70;
  const auto text = results::BootLocalEmitter().render(report);
  REQUIRE(text.find("# baseline: 57.70 MB/s") != std::string::npos);
  REQUIRE(text.find("in the confirmation round it measured\n# 57.80 MB/s against the baseline's 57.70 MB/s") !=
          std::string::npos);
  REQUIRE(text.find("within the measured noise") == std::string::npos);
}

TEST_CASE("keeping the baseline when every trial was slower says so, not 'within the measured noise'", "[results]") {
  auto report = test_support::keep_baseline_report();
  for (auto& trial : report.trials) trial.median = report.baseline.trial.median * 0.113;  // read_ahead_kb 0 on a disk
  const auto text = results::BootLocalEmitter().render(report);
  REQUIRE(text.find("(-88.7 % against the search baseline): no trial was faster than the baseline.") != std::string::npos);
  REQUIRE(text.find("within the measured noise") == std::string::npos);
}

// The adversary's report: the winner switches mq-deadline to bfq; the baseline's fifo_batch and
// read_expire do not exist under bfq, and writing them made the snippet exit 2.
TEST_CASE("boot.local never writes a tunable of a scheduler the winner switched away from", "[results]") {
  auto report = test_support::loop_report();
  using probe::SettingId;
  report.baseline.trial.settings[SettingId::scheduler] = probe::SettingValue(std::string("mq-deadline"));
  report.baseline.trial.settings[SettingId::fifo_batch] = probe::SettingValue(std::int64_t{7});
  report.baseline.trial.settings[SettingId::read_expire] = probe::SettingValue(std::int64_t{500});
  report.winner.settings = probe::with_changes(report.baseline.trial.settings,
                                               {{SettingId::scheduler, probe::SettingValue(std::string("bfq"))}});
  report.winner.changes = {{SettingId::scheduler, probe::SettingValue(std::string("bfq"))}};
  const auto text = results::BootLocalEmitter().render(report);
  INFO(text);
  REQUIRE(text.find("echo 'bfq' > /sys/block/loop0/queue/scheduler") != std::string::npos);
  REQUIRE(text.find("fifo_batch") == std::string::npos);
  REQUIRE(text.find("read_expire") == std::string::npos);
}

// A winner of -d1 alone: the snippet writes -X66 too, and must say why.
TEST_CASE("boot.local says why it writes an unchanged transfer mode beside a DMA change", "[results]") {
  auto report = test_support::seed_report();
  using probe::SettingId;
  const auto base = report.baseline.trial.settings;
  REQUIRE(base.count(SettingId::xfermode));
  report.winner.changes = {{SettingId::using_dma, probe::SettingValue(std::int64_t{1})}};
  report.winner.settings = probe::with_changes(base, report.winner.changes);
  const auto text = results::BootLocalEmitter().render(report);
  INFO(text);
  const auto comment = text.find("# also written, unchanged: xfermode=" +
                                 probe::format_value(SettingId::xfermode, base.at(SettingId::xfermode)) +
                                 " (DMA and the transfer mode are set together");
  REQUIRE(comment != std::string::npos);
  REQUIRE(comment < text.find("\nhdparm "));
}
