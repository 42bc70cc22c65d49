// SPDX-License-Identifier: GPL-2.0-or-later
// emudisk's command line: every bad value is refused naming the option, FUSE's own pass through.
#include "tests/emudisk/emudisk_options.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using disktune::emudisk::parse_emudisk_options;

namespace {

// parse "emudisk ARGS..." and return the error's text, or "" when it parses.
std::string error_of(std::vector<std::string> args) {
  args.insert(args.begin(), "emudisk");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    parse_emudisk_options(static_cast<int>(argv.size()), argv.data());
    return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("emudisk refuses values that would break its clock, naming the option", "[emudisk]") {
  const std::string dir = std::filesystem::temp_directory_path().string();
  // 1e-300 MiB/s made a read spin forever (hdd) or overflow to an instant answer (ssd).
  CHECK_THAT(error_of({"--outer-mib-s", "1e-300", "--inner-mib-s", "1e-300", dir}), Catch::Contains("--inner-mib-s"));
  CHECK_THAT(error_of({"--interface-mib-s", "1e-300", dir}), Catch::Contains("--interface-mib-s"));
  CHECK_THAT(error_of({"--profile", "ssd", "--bandwidth-mib-s", "1e-300", dir}), Catch::Contains("--bandwidth-mib-s"));
  CHECK_THAT(error_of({"--overhead-us", "-5", dir}), Catch::Contains("--overhead-us"));
  CHECK_THAT(error_of({"--profile", "tape", dir}), Catch::Contains("'tape' is not hdd or ssd"));
  CHECK_THAT(error_of({"--rpm", "fast", dir}), Catch::Contains("rpm"));
  CHECK_THAT(error_of({"--queue-depth", "0", dir}), Catch::Contains("--queue-depth"));
  CHECK(error_of({"--outer-mib-s", "0.02", "--inner-mib-s", "0.01", dir}).empty());
}

TEST_CASE("emudisk passes FUSE's short options on and refuses a long one it does not know", "[emudisk]") {
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK_THAT(error_of({"--bogus", dir}), Catch::Contains("--bogus: unknown option"));
  CHECK(error_of({dir, "-f", "-o", "allow_other"}).empty());
  CHECK_THAT(error_of({}), Catch::Contains("no mount point"));
}

TEST_CASE("emudisk refuses a mount point that is not a directory", "[emudisk]") {
  const auto file = std::filesystem::temp_directory_path() / "disktune-emudisk-not-a-dir";
  std::ofstream(file) << "x";
  CHECK_THAT(error_of({file.string(), "-f"}), Catch::Contains("the mount point is not a directory"));
  std::filesystem::remove(file);
  CHECK_THAT(error_of({"/nonexistent/disktune"}), Catch::Contains("not a directory"));
}
