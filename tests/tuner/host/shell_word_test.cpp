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
