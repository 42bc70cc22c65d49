// SPDX-License-Identifier: GPL-2.0-or-later
// Words for a pasted command: plain as they are, the rest single-quoted so the shell reads them back.
#include "tuner/host/shell_word.hpp"

#include <catch2/catch.hpp>

using disktune::tuner::shell_word;

TEST_CASE("shell words: plain ones as they are, others single-quoted with each quote escaped", "[tuner]") {
  CHECK(shell_word("/dev/disk/by-path/pci-0000:00:1f.2-ata-1") == "/dev/disk/by-path/pci-0000:00:1f.2-ata-1");
  CHECK(shell_word("--max-trials=10,20%") == "--max-trials=10,20%");
  CHECK(shell_word("/tmp/jd x/j") == "'/tmp/jd x/j'");
  CHECK(shell_word("dis'ktune") == "'dis'\\''ktune'");
  CHECK(shell_word("$HOME") == "'$HOME'");
  CHECK(shell_word("") == "''");
}

TEST_CASE("shell command: its words quoted, a program word holding '=' quoted too", "[tuner]") {
  using disktune::tuner::shell_command;
  CHECK(shell_command({"disktune", "restore", "/dev/loop0", "--journal", "/tmp/fl x/j-loop0"}) ==
        "disktune restore /dev/loop0 --journal '/tmp/fl x/j-loop0'");
  // "x=y/disktune tune" pasted is an assignment and a command "tune".
  CHECK(shell_command({"x=y/disktune", "tune", "--max-trials=4"}) == "'x=y/disktune' tune --max-trials=4");
  CHECK(shell_command({"a=b'c", "tune"}) == "'a=b'\\''c' tune");
}

TEST_CASE("quoted command: in single quotes when it holds none, else in double quotes", "[tuner]") {
  using disktune::tuner::quoted_command;
  CHECK(quoted_command({"disktune", "restore", "/dev/sdb"}) == "'disktune restore /dev/sdb'");
  // The adversary's set-aside note read "'disktune restore /dev/loop0 --journal /tmp/j o'u$rn.2026...' restores
  // them": pasted, the path split at the space and left a quote open.
  CHECK(quoted_command({"disktune", "restore", "/dev/loop0", "--journal", "/tmp/j o'u$rn.x"}) ==
        "\"disktune restore /dev/loop0 --journal '/tmp/j o'\\''u$rn.x'\"");
}

TEST_CASE("path word: a path that starts with '-' is given as ./PATH, else it is read as an option", "[tuner]") {
  // The adversary's --report -r.json: 'disktune apply -r.json' said "unrecognised option '-r.json'".
  using disktune::tuner::path_word;
  CHECK(path_word("-r.json") == "./-r.json");
  CHECK(path_word("/tmp/-r.json") == "/tmp/-r.json");
  CHECK(path_word("r.json") == "r.json");
  CHECK(path_word("") == "");
}

TEST_CASE("shell command: 'disktune' is printed as the program was run, so a pasted command runs it", "[tuner]") {
  // A newcomer after scripts/setup has build/disktune and no disktune on PATH: "next: 'disktune
  // apply r.json'" failed to paste, while the resume hint (argv as given) worked.
  using namespace disktune::tuner;
  const std::string before = program_word();
  set_program_word("build/disktune");
  CHECK(quoted_command({"disktune", "apply", "r.json"}) == "'build/disktune apply r.json'");
  CHECK(shell_command({"fio", "--version"}) == "fio --version");  // other programs as named
  set_program_word("/opt/x=y/disktune");
  CHECK(shell_command({"disktune", "plan"}) == "'/opt/x=y/disktune' plan");
  set_program_word("");  // no argv[0]: as it was
  CHECK(program_word() == "/opt/x=y/disktune");
  set_program_word(before);
  CHECK(shell_command({"disktune", "plan"}) == before + " plan");
}
