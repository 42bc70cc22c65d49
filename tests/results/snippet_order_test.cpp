// SPDX-License-Identifier: GPL-2.0-or-later
// The emitted queue lines, run in sequence, reach the winner's values where the kernel couples settings.
#include "results/boot_local.hpp"
#include "results/snippet.hpp"
#include "results/udev_rules.hpp"

#include "probe/linux/sysfs.hpp"
#include "tests/support/loop_device.hpp"
#include "tests/support/sample_reports.hpp"
#include "tests/support/setting_values.hpp"

#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using testing::name;
using testing::num;

namespace {


// A queue whose writes follow one kernel's coupling rules, by sysfs attribute name.
using Queue = std::map<std::string, std::string>;
using Kernel = std::function<void(Queue& queue, const std::string& attr, const std::string& value)>;

void raise_read_ahead(Queue& q, const std::string& attr, const std::string& value) {  // 6.18-like
  if (attr == "max_sectors_kb")
    q["read_ahead_kb"] = std::to_string(std::max(std::stoll(q["read_ahead_kb"]), 2 * std::stoll(value)));
  if (attr == "scheduler") q["nr_requests"] = "2";
}

void set_read_ahead(Queue& q, const std::string& attr, const std::string& value) {  // follows, both ways
  if (attr == "max_sectors_kb") q["read_ahead_kb"] = value;
  if (attr == "scheduler") q["nr_requests"] = value == "none" ? "16" : "256";
}

// Runs every "echo V > .../queue/ATTR" line of a boot.local snippet, in order.
Queue run_boot_local(const std::string& text, Queue queue, const Kernel& kernel) {
  const std::regex line(R"(^echo '?([a-z0-9_-]+)'? > /sys/block/loop0/queue/([a-z_]+)$)");
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_match(l, m, line)) continue;
    queue[m[2]] = m[1];
    kernel(queue, m[2], m[1]);
  }
  return queue;
}

// Runs the ATTR{queue/X}="V" assignments of a udev rule in order, as udev does.
Queue run_udev(const std::string& text, Queue queue, const Kernel& kernel) {
  const std::regex assignment(R"re(ATTR\{queue/([a-z_]+)\}="([a-z0-9_-]+)")re");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), assignment); it != std::sregex_iterator(); ++it) {
    queue[(*it)[1]] = (*it)[2];
    kernel(queue, (*it)[1], (*it)[2]);
  }
  return queue;
}

Queue as_queue(const probe::Settings& settings) {
  Queue queue;
  for (const auto& [id, value] : settings)
    if (!probe::setting_info(id).sysfs_attr.empty())
      queue[std::string(probe::setting_info(id).sysfs_attr)] = probe::format_value(id, value);
  return queue;
}

results::Report with_winner(results::Report report, const probe::Settings& changes) {
  report.winner.settings = probe::with_changes(report.baseline.trial.settings, changes);
  report.winner.changes = changes;
  return report;
}

}  // namespace

TEST_CASE("Emitted queue lines reach the winner's values under coupling kernels", "[results]") {
  const auto base = test_support::loop_report();  // baseline: ra 128, none, 128, max 1280
  const std::vector<probe::Settings> winners{
      {{SettingId::max_sectors_kb, num(512)}},
      {{SettingId::max_sectors_kb, num(256)}, {SettingId::read_ahead_kb, num(64)}},
      {{SettingId::scheduler, name("mq-deadline")}},
      {{SettingId::scheduler, name("mq-deadline")}, {SettingId::nr_requests, num(64)}, {SettingId::read_ahead_kb, num(4096)}},
      {{SettingId::read_ahead_kb, num(32)}}};
  const std::vector<std::pair<const char*, Kernel>> kernels{{"raises read_ahead_kb", raise_read_ahead},
                                                            {"sets read_ahead_kb", set_read_ahead}};
  for (const auto& changes : winners)
    for (const auto& [kernel_name, kernel] : kernels) {
      const auto report = with_winner(base, changes);
      INFO("winner " << probe::format_settings(changes) << ", kernel that " << kernel_name);
      const auto start = as_queue(report.baseline.trial.settings);
      const auto want = as_queue(report.winner.settings);
      REQUIRE(run_boot_local(results::BootLocalEmitter().render(report), start, kernel) == want);
      REQUIRE(run_udev(results::UdevRulesEmitter().render(report), start, kernel) == want);
    }
}

TEST_CASE("a snippet writes what changed and a coupled setting only where the coupling applies", "[results]") {
  // An mq-deadline queue as found, its tunables at the kernel's defaults but read_expire.
  auto report = test_support::loop_report();
  report.baseline.trial.settings = {
      {SettingId::scheduler, name("mq-deadline")}, {SettingId::nr_requests, num(64)},
      {SettingId::max_sectors_kb, num(1280)},      {SettingId::read_ahead_kb, num(128)},
      {SettingId::nomerges, num(0)},               {SettingId::fifo_batch, num(16)},
      {SettingId::read_expire, num(250)}};
  const auto base = report.baseline.trial.settings;
  struct Case {
    probe::Settings changes;
    probe::Settings written;
  };
  const std::vector<Case> cases{
      // Nothing after nr_requests depends on it: written alone.
      {{{SettingId::nr_requests, num(4)}}, {{SettingId::nr_requests, num(4)}}},
      {{{SettingId::read_ahead_kb, num(32)}}, {{SettingId::read_ahead_kb, num(32)}}},
      // A tunable needs its scheduler; the other tunable and the queue settings stay unwritten.
      {{{SettingId::fifo_batch, num(8)}}, {{SettingId::scheduler, name("mq-deadline")}, {SettingId::fifo_batch, num(8)}}},
      // max_sectors_kb can move read_ahead_kb.
      {{{SettingId::max_sectors_kb, num(256)}}, {{SettingId::max_sectors_kb, num(256)}, {SettingId::read_ahead_kb, num(128)}}},
      // A switch resets nr_requests and the new scheduler's tunables.
      {{{SettingId::scheduler, name("bfq")}, {SettingId::low_latency, num(0)}},
       {{SettingId::scheduler, name("bfq")}, {SettingId::nr_requests, num(64)}, {SettingId::low_latency, num(0)}}}};
  for (const auto& [changes, written] : cases) {
    INFO("winner " << probe::format_settings(changes));
    auto winner = with_winner(report, changes);
    winner.winner.settings = probe::applicable_only(winner.winner.settings);
    CHECK(results::snippet_settings(winner) == written);
  }
}

namespace {

// The queue values of a loop device the test made, put back as found when the test ends.
class QueueFiles {
 public:
  explicit QueueFiles(const std::string& dev) : dir_("/sys/block/" + dev.substr(dev.rfind('/') + 1) + "/queue/") {
    found_ = {{"scheduler", active_scheduler()}, {"nr_requests", read("nr_requests")},
              {"max_sectors_kb", read("max_sectors_kb")}, {"read_ahead_kb", read("read_ahead_kb")}};
  }
  QueueFiles(const QueueFiles&) = delete;
  QueueFiles& operator=(const QueueFiles&) = delete;
  ~QueueFiles() {
    for (const auto& [attr, value] : found_) write(attr, value);  // in apply order
  }
  [[nodiscard]] std::string read(const std::string& attr) const {
    return probe::read_sysfs(dir_ + attr).value();
  }
  [[nodiscard]] std::string active_scheduler() const {
    return probe::parse_scheduler_line(read("scheduler")).value().active;
  }
  void write(const std::string& attr, const std::string& value) const {
    (void)probe::write_sysfs(dir_ + attr, value, "write " + attr);
  }
  [[nodiscard]] Queue now() const {
    return {{"scheduler", active_scheduler()}, {"nr_requests", read("nr_requests")},
            {"max_sectors_kb", read("max_sectors_kb")}, {"read_ahead_kb", read("read_ahead_kb")}};
  }

 private:
  std::string dir_;
  std::vector<std::pair<std::string, std::string>> found_;
};

probe::Settings settings_of(const Queue& queue) {
  probe::Settings settings;
  for (const auto& [attr, value] : queue) {
    const auto id = probe::setting_from_name(attr).value();
    settings[id] = probe::parse_value(id, value).value();
  }
  return settings;
}

}  // namespace

TEST_CASE("boot.local queue lines run on a real loop device reach the winner's values", "[results]") {
  std::string why;
  auto loop = testing::LoopDevice::create(16ULL << 20, why);
  if (!loop) {
    disktune::testing::skip_test("loop device unavailable: " + why);
    return;
  }
  QueueFiles queue(loop->path());
  if (std::stoll(queue.read("max_hw_sectors_kb")) < 1280) {
    disktune::testing::skip_test("max_hw_sectors_kb below 1280");
    return;
  }
  queue.write("max_sectors_kb", "1280");  // the reported originals, in an order that reaches them
  queue.write("read_ahead_kb", "128");
  REQUIRE(queue.read("read_ahead_kb") == "128");
  auto report = test_support::loop_report();
  report.device.path = loop->path();
  report.baseline.trial.settings = settings_of(queue.now());
  const std::vector<probe::Settings> winners{{{SettingId::max_sectors_kb, num(512)}},
                                             {{SettingId::max_sectors_kb, num(256)}, {SettingId::read_ahead_kb, num(64)}},
                                             {{SettingId::scheduler, name("mq-deadline")}, {SettingId::nr_requests, num(64)}}};
  for (const auto& changes : winners) {
    const auto winner = with_winner(report, changes);
    INFO("winner " << probe::format_settings(changes));
    const auto script = loop->file() + ".boot.local";
    std::ofstream(script) << results::BootLocalEmitter().render(winner);
    const int status = std::system(("bash -e '" + script + "'").c_str());
    std::filesystem::remove(script);
    REQUIRE(status == 0);
    REQUIRE(queue.now() == as_queue(winner.winner.settings));
    for (const auto& [id, value] : probe::in_apply_order(report.baseline.trial.settings))  // back, for the next
      queue.write(std::string(probe::setting_info(id).sysfs_attr), probe::format_value(id, value));
    REQUIRE(queue.now() == as_queue(report.baseline.trial.settings));
  }
}
