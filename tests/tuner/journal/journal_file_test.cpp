// SPDX-License-Identifier: GPL-2.0-or-later
// JournalFile: the journal stays readable through any sequence of torn records, reopenings and appends.
#include "tuner/journal/journal_file.hpp"

#include "results/journal.hpp"
#include "tuner/run_error.hpp"

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace disktune;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "journal_file_test.XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

boost::json::value record(int n) { return boost::json::object{{"type", "intent"}, {"n", n}, {"pad", std::string(n % 7, 'x')}}; }

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The records' "n" fields, REQUIREing that the file decodes without damage.
std::vector<std::int64_t> numbers(const fs::path& path) {
  const auto decoded = results::decode_journal(file_text(path), path.string());
  REQUIRE(decoded.has_value());
  std::vector<std::int64_t> out;
  for (const auto& r : decoded->records) out.push_back(r.at("n").as_int64());
  return out;
}

// Tear the last record: keep `kept` of its bytes (0 < kept < its length).
void tear_last(const fs::path& path, std::size_t kept) {
  const std::string text = file_text(path);
  const auto start = text.rfind('\n', text.size() - 2);
  const std::size_t begin = start == std::string::npos ? 0 : start + 1;
  fs::resize_file(path, begin + kept);
}

std::size_t last_record_size(const fs::path& path) {
  const std::string text = file_text(path);
  const auto start = text.rfind('\n', text.size() - 2);
  return text.size() - (start == std::string::npos ? 0 : start + 1);
}

}  // namespace

TEST_CASE("a record appended after a torn one of any length starts its own line", "[tuner]") {
  TempDir dir;
  const auto path = dir.path / "j";
  {
    tuner::JournalFile file(path.string());
    for (int n = 1; n <= 3; ++n) file.append(record(n));
  }
  const std::string whole = file_text(path);
  const std::size_t last = last_record_size(path);
  for (std::size_t kept = 1; kept < last; ++kept) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << whole;
    tear_last(path, kept);
    tuner::JournalFile file(path.string());
    REQUIRE(file.torn_bytes() == kept);
    file.append(record(4));
    REQUIRE(numbers(path) == std::vector<std::int64_t>{1, 2, 4});
  }
}

TEST_CASE("random sequences of crashes, torn tails and resumes keep the journal readable", "[tuner]") {
  std::mt19937 random(9);
  for (int sequence = 0; sequence < 40; ++sequence) {
    TempDir dir;
    const auto path = dir.path / "j";
    std::vector<std::int64_t> expected;
    int next = 1;
    for (int crash = 0; crash < 8; ++crash) {
      {
        tuner::JournalFile file(path.string());  // a resume: opens whatever the last crash left
        const int appends = 1 + static_cast<int>(random() % 4);
        for (int i = 0; i < appends; ++i) {
          file.append(record(next));
          expected.push_back(next++);
        }
      }
      switch (random() % 3) {
        case 0: break;  // a clean kill between records
        case 1: {       // a kill in the middle of writing the last record
          const std::size_t size = last_record_size(path);
          tear_last(path, 1 + random() % (size - 1));
          expected.pop_back();
          break;
        }
        default:  // a fragment of a record that was never finished, without its newline
          std::ofstream(path, std::ios::binary | std::ios::app) << "DTJ1 120 0badc0de {\"type\":\"inte";
      }
      REQUIRE(numbers(path) == expected);  // readable after every crash ...
    }
    tuner::JournalFile file(path.string());
    file.append(record(next));
    expected.push_back(next);
    REQUIRE(numbers(path) == expected);  // ... and after the last resume
  }
}

TEST_CASE("set-asides within one second never replace each other", "[tuner]") {
  const TempDir dir;
  const auto path = (dir.path / "j").string();
  tuner::JournalFile journal(path);
  std::vector<std::string> asides;
  for (int i = 0; i < 3; ++i) {
    journal.append(record(i));
    asides.push_back(journal.set_aside());
  }
  // Three set-asides in (almost always) one second: three files, each with its own record.
  for (int i = 0; i < 3; ++i) CHECK(numbers(asides[static_cast<std::size_t>(i)]) == std::vector<std::int64_t>{i});
  CHECK(asides[0] != asides[1]);
  CHECK(asides[1] != asides[2]);
}

TEST_CASE("a journal named after a path: one name per path, within NAME_MAX however long", "[tuner]") {
  using tuner::default_journal_path;
  using tuner::unique_journal_key;
  const auto name = [](const std::string& text) {
    return fs::path(default_journal_path(unique_journal_key("loop", text) + ".apply")).filename().string();
  };
  // default_journal_path alone maps both to "loop_c_a_b.img".
  CHECK(name("/c/a_b.img") != name("/c/a/b.img"));
  CHECK(name("/c/a b.img") != name("/c/a_b.img"));
  CHECK(name("/c/a_b.img") == name("/c/a_b.img"));
  CHECK(name("/c/a_b.img").rfind("loop_c_a_b.img-", 0) == 0);
  const std::string long_path = "/" + std::string(300, 'd') + "/" + std::string(200, 'e') + ".img";
  CHECK(name(long_path).size() <= 255);
  CHECK(name(long_path) != name(long_path + "x"));
}

namespace {

// A tune journal started at `started_at` that measured one trial (none when `measured` is
// false: a run refused before its baseline): restored and finished when `restored`, else
// killed mid-run.
void run_journal(tuner::JournalFile& journal, const std::string& started_at, bool restored, bool measured = true) {
  results::JournalIdentity id{"/dev/loop3", "", "", "", 64u << 20, "6.18", "/srv/a.img", ""};
  journal.append(results::start_record(id, "boot", started_at, {}, {}, {}));
  if (measured) {
    strategies::TrialResult trial;
    trial.id = 1;
    trial.status = strategies::TrialStatus::ok;
    trial.samples = {50.0};
    journal.append(results::intent_record(trial.settings, false, "boot"));
    journal.append(results::result_record(trial, "boot"));
  }
  if (restored) journal.append(results::end_record(true, started_at, "boot"));
}

// The set-aside journals of "j" left in `dir`, sorted.
std::vector<std::string> set_aside_names(const fs::path& dir) {
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename() != "j") left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  return left;
}

}  // namespace

TEST_CASE("a set-aside journal is named for its run's start; spent ones beyond five are pruned, none that may hold originals",
          "[tuner]") {
  const TempDir dir;
  const auto path = (dir.path / "j").string();
  tuner::JournalFile journal(path);
  std::vector<std::string> asides;
  for (int day = 10; day < 18; ++day) {
    // Day 11's run was killed: its originals were never put back.
    run_journal(journal, "2026-11-" + std::to_string(day) + "T08:00:00Z", day != 11);
    asides.push_back(journal.set_aside());
  }
  CHECK(asides.front() == path + ".2026-11-10T08:00:00Z");
  CHECK(set_aside_names(dir.path) == std::vector<std::string>{"j.2026-11-11T08:00:00Z", "j.2026-11-13T08:00:00Z", "j.2026-11-14T08:00:00Z",
                                         "j.2026-11-15T08:00:00Z", "j.2026-11-16T08:00:00Z", "j.2026-11-17T08:00:00Z"});
}

TEST_CASE("a refused run's set-aside journal is deleted and pushes no measured run's out of the five", "[tuner]") {
  const TempDir dir;
  const auto path = (dir.path / "j").string();
  tuner::JournalFile journal(path);
  for (int day = 10; day < 15; ++day) {  // five measured runs
    run_journal(journal, "2026-11-" + std::to_string(day) + "T08:00:00Z", true);
    journal.set_aside();
  }
  for (int day = 20; day < 27; ++day) {  // seven runs refused before measuring (--only naming nothing tunable)
    run_journal(journal, "2026-11-" + std::to_string(day) + "T08:00:00Z", true, false);
    journal.set_aside();
  }
  run_journal(journal, "2026-11-27T08:00:00Z", false, false);  // killed before measuring: may hold originals
  journal.set_aside();
  CHECK(set_aside_names(dir.path) == std::vector<std::string>{"j.2026-11-10T08:00:00Z", "j.2026-11-11T08:00:00Z", "j.2026-11-12T08:00:00Z",
                                         "j.2026-11-13T08:00:00Z", "j.2026-11-14T08:00:00Z", "j.2026-11-27T08:00:00Z"});
}

TEST_CASE("a file that is no journal is refused, not cut: a text line, a disk image, another program's tail", "[tuner]") {
  TempDir dir;
  const auto path = dir.path / "j";
  std::string journal;
  {
    tuner::JournalFile file(path.string());
    file.append(record(1));
  }
  journal = file_text(path);
  const std::vector<std::pair<std::string, std::string>> cases{
      {"host1\n", "not a disktune journal"},
      {"precious", "not a disktune journal"},
      {std::string(65536, '\0'), "not a disktune journal"},
      {"128\n", "not a disktune journal"},  // a sysfs attribute's content
      {journal + "garbage without a newline", "bytes after its last record are no journal record"},
  };
  for (const auto& [content, why] : cases) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    try {
      tuner::JournalFile file(path.string());
      FAIL("opened as a journal: " + content.substr(0, 20));
    } catch (const tuner::RunError& e) {
      CHECK(e.code() == tuner::kExitUsage);
      CHECK_THAT(e.what(), Catch::Contains(why));
    }
    CHECK(file_text(path) == content);  // not a byte cut or written
  }
}

TEST_CASE("a journal path that is a symbolic link is refused by name, its target untouched", "[tuner]") {
  TempDir dir;
  const auto target = dir.path / "target";
  std::ofstream(target) << "mine\n";
  for (const auto& [link, to] : {std::pair{dir.path / "link", target}, std::pair{dir.path / "dangling", dir.path / "none"}}) {
    fs::create_symlink(to, link);
    CHECK_THROWS_WITH(tuner::JournalFile(link.string()), Catch::Contains("a symbolic link (refused"));
  }
  CHECK(file_text(target) == "mine\n");
  CHECK_FALSE(fs::exists(dir.path / "none"));
}
