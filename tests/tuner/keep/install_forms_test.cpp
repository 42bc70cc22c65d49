// SPDX-License-Identifier: GPL-2.0-or-later
// install --form: the form list, KEY's block in a shared hdparm.conf, the unit's ExecStart.
#include "tuner/keep/install_forms.hpp"

#include "tuner/keep/install_forms.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace disktune::tuner;

namespace {
const std::string kBlock = "/dev/disk/by-id/ata-X {\n\tmult_sect_io = 16\n}\n";
const std::string kWrapped = "# BEGIN disktune install K\n" + kBlock + "# END disktune install K\n";
}  // namespace

TEST_CASE("install forms: names in any order, each once, returned in a fixed order", "[tuner][cli]") {
  REQUIRE(parse_install_forms("tuned,udev") == std::vector{InstallForm::udev, InstallForm::tuned});
  REQUIRE(parse_install_forms("hdparm-conf") == std::vector{InstallForm::hdparm_conf});
  REQUIRE(parse_install_forms("systemd,hdparm-conf,tuned,udev").size() == 4);
  REQUIRE_THROWS_WITH(parse_install_forms("udev,cron"), Catch::Contains("unknown form 'cron'"));
  REQUIRE_THROWS_WITH(parse_install_forms("udev,udev"), Catch::Contains("'udev' given twice"));
  REQUIRE_THROWS_AS(parse_install_forms(""), UsageError);
  REQUIRE_THROWS_WITH(parse_install_forms("udev,"), Catch::Contains("unknown form ''"));
}

TEST_CASE("hdparm.conf block: appended after the user's lines, then removed byte for byte", "[tuner]") {
  const std::string user = "# mine\n/dev/hda {\n\tdma = on\n}\n";
  const auto installed = with_hdparm_conf_block(user, "K", kBlock);
  REQUIRE(installed == user + "\n" + kWrapped);
  REQUIRE(has_hdparm_conf_block(installed, "K"));
  REQUIRE_FALSE(has_hdparm_conf_block(installed, "K2"));
  REQUIRE(with_hdparm_conf_block(installed, "K", "") == user);
  // A file of the block alone, and no file at all.
  REQUIRE(with_hdparm_conf_block("", "K", kBlock) == kWrapped);
  REQUIRE(with_hdparm_conf_block(kWrapped, "K", "").empty());
  // Removing a block that is not there changes nothing.
  REQUIRE(with_hdparm_conf_block(user, "K", "") == user);
}

TEST_CASE("hdparm.conf block: replaced in place, other drives' blocks and lines kept", "[tuner]") {
  const std::string other = "# BEGIN disktune install L\n/dev/sdb {\n\tdma = on\n}\n# END disktune install L\n";
  const std::string conf = "# head\n\n" + kWrapped + "/dev/hda {\n}\n" + other;
  const std::string block2 = "/dev/disk/by-id/ata-X {\n\tmult_sect_io = 8\n}\n";
  const auto replaced = with_hdparm_conf_block(conf, "K", block2);
  REQUIRE(replaced == "# head\n\n# BEGIN disktune install K\n" + block2 + "# END disktune install K\n/dev/hda {\n}\n" + other);
  REQUIRE(with_hdparm_conf_block(replaced, "K", block2) == replaced);  // idempotent
  // A last line without its newline keeps its text and gets one.
  REQUIRE(with_hdparm_conf_block("/dev/hda {\n}", "K", kBlock) == "/dev/hda {\n}\n\n" + kWrapped);
}

TEST_CASE("hdparm.conf block: a BEGIN without its END is refused, not guessed at", "[tuner]") {
  const std::string damaged = "# BEGIN disktune install K\n/dev/disk/by-id/ata-X {\n}\n/dev/hda {\n}\n";
  REQUIRE_THROWS_WITH(with_hdparm_conf_block(damaged, "K", kBlock), Catch::Contains("has no '# END disktune install K'"));
  REQUIRE_THROWS_AS(with_hdparm_conf_block(damaged, "K", ""), std::invalid_argument);
  // Another key's markers are not this key's: "K" is no prefix match of "K2".
  REQUIRE_FALSE(has_hdparm_conf_block("# BEGIN disktune install K2\n# END disktune install K2\n", "K"));
}

TEST_CASE("install: the unit's ExecStart names the binary; only plain absolute paths", "[tuner]") {
  REQUIRE(exec_start(systemd_unit_text("/usr/sbin/disktune")) == "ExecStart=/usr/sbin/disktune apply --config /etc/disktune");
  REQUIRE(exec_start("[Unit]\n").empty());
  REQUIRE(sleep_hook_text("/usr/sbin/disktune").find("post) /usr/sbin/disktune apply --config /etc/disktune") !=
          std::string::npos);
  REQUIRE(checked_exe("/usr/local/bin/disktune-1.0") == "/usr/local/bin/disktune-1.0");
  for (const char* bad : {"disktune", "/usr/bin/disk tune", "/bin/x;rm", "/bin/$(id)", ""})
    REQUIRE_THROWS_WITH(checked_exe(bad), Catch::Contains("not a plain absolute path"));
}

TEST_CASE("hdparm.conf block: CRLF markers are found; a BEGIN twice is refused, not merged", "[tuner]") {
  const std::string crlf = "# BEGIN disktune install K\r\n/dev/x {\r\n}\r\n# END disktune install K\r\n/dev/hda {\n}\n";
  REQUIRE(has_hdparm_conf_block(crlf, "K"));
  REQUIRE(with_hdparm_conf_block(crlf, "K", kBlock) == kWrapped + "/dev/hda {\n}\n");  // replaced, not appended
  const std::string twice = "# BEGIN disktune install K\n/dev/hda {\n}\n" + kWrapped;  // the user's lines in between
  REQUIRE_THROWS_WITH(with_hdparm_conf_block(twice, "K", kBlock), Catch::Contains("is there twice"));
  REQUIRE_THROWS_WITH(with_hdparm_conf_block(twice, "K", ""), Catch::Contains("is there twice"));
}

TEST_CASE("install --root: the binary's path is resolved as the installed system resolves it", "[tuner]") {
  namespace fs = std::filesystem;
  char name[] = "/tmp/disktune-root-XXXXXX";
  const fs::path root = ::mkdtemp(name);
  fs::create_directories(root / "opt/dt/bin");
  fs::create_directories(root / "usr/sbin");
  std::ofstream(root / "opt/dt/bin/disktune") << "#!/bin/sh\n";
  fs::permissions(root / "opt/dt/bin/disktune", fs::perms::owner_all);
  // An absolute link: in that system it names /opt/dt/bin/disktune, not this machine's /opt.
  fs::create_symlink("/opt/dt/bin/disktune", root / "usr/sbin/disktune");
  CHECK(resolve_under_root(root, "/usr/sbin/disktune") == root / "opt/dt/bin/disktune");
  CHECK_FALSE(missing_exe(resolve_under_root(root, "/usr/sbin/disktune").string(), root.string()));
  // usrmerge: sbin -> usr/sbin (relative), and a link that climbs above the root stays inside it.
  fs::create_symlink("usr/sbin", root / "sbin");
  CHECK(resolve_under_root(root, "/sbin/disktune") == root / "opt/dt/bin/disktune");
  fs::create_symlink("../../../../opt/dt/bin/disktune", root / "usr/sbin/climb");
  CHECK(resolve_under_root(root, "/usr/sbin/climb") == root / "opt/dt/bin/disktune");
  // A loop of links ends (40 hops), a dangling one is reported missing.
  fs::create_symlink("/usr/sbin/b", root / "usr/sbin/a");
  fs::create_symlink("/usr/sbin/a", root / "usr/sbin/b");
  CHECK(resolve_under_root(root, "/usr/sbin/a").empty());
  // A chain of 42 links (c0 .. c41) is too long for the kernel (MAXSYMLINKS 40); 40 (c2 ..) are not.
  for (int i = 0; i < 41; ++i)
    fs::create_symlink("c" + std::to_string(i + 1), root / "usr/sbin" / ("c" + std::to_string(i)));
  fs::create_symlink("/opt/dt/bin/disktune", root / "usr/sbin/c41");
  CHECK(resolve_under_root(root, "/usr/sbin/c0").empty());
  CHECK_THAT(*missing_exe("", root.string()), Catch::Contains("more than 40 symbolic links"));
  CHECK(resolve_under_root(root, "/usr/sbin/c2") == root / "opt/dt/bin/disktune");
  fs::create_symlink("/nowhere/disktune", root / "usr/sbin/gone");
  CHECK(resolve_under_root(root, "/usr/sbin/gone") == root / "nowhere/disktune");
  fs::remove_all(root);
}
