// SPDX-License-Identifier: GPL-2.0-or-later
// A journal's drive identity: which differences are named, which tell drives apart, and the
// start record's round trip of it.
#include "results/journal.hpp"
#include "results/journal_identity.hpp"

#include <catch2/catch.hpp>

using namespace disktune;

TEST_CASE("identity differences name each field", "[results]") {
  results::JournalIdentity a{"/dev/sdb", "WDC", "1", "F", 10, "6.1", "", ""};
  auto b = a;
  REQUIRE(results::identity_difference(a, b).empty());
  b.serial = "2";
  b.kernel = "6.2";
  const auto text = results::identity_difference(a, b);
  REQUIRE(text.find("serial '1' (journal) vs '2' (now)") != std::string::npos);
  REQUIRE(text.find("kernel") != std::string::npos);
}

TEST_CASE("a loop device's backing file and a wwid tell drives apart; a journal without them is not compared", "[results]") {
  results::JournalIdentity journal{"/dev/loop3", "", "", "", 64u << 20, "6.18", "/srv/a.img", ""};
  auto now = journal;
  now.backing_file = "/srv/c.img";  // the same loop number re-attached to another file of the same size
  CHECK(results::drive_difference(journal, now) == "backing file '/srv/a.img' (journal) vs '/srv/c.img' (now)");
  now.backing_file.clear();  // detached, or no loop device any more
  CHECK_FALSE(results::drive_difference(journal, now).empty());
  journal.backing_file.clear();  // a journal that predates the field
  now.backing_file = "/srv/c.img";
  CHECK(results::drive_difference(journal, now).empty());
  journal.wwid = "eui.0025388b71b0b2d6";
  now.wwid = "eui.0025388b71b0b2d7";  // two same-size NVMe namespaces whose names swapped
  CHECK(results::drive_difference(journal, now) == "wwid 'eui.0025388b71b0b2d6' (journal) vs 'eui.0025388b71b0b2d7' (now)");
  now.wwid = journal.wwid;
  journal.backing_file = now.backing_file;
  journal.backing_inode = "2049:131";
  now.backing_inode = "2049:177";  // the file replaced at the same path
  CHECK(results::drive_difference(journal, now) ==
        "backing file inode (replaced at the same path) '2049:131' (journal) vs '2049:177' (now)");
  now.backing_file = "/srv/d.img";  // that loop number over another file: no claim of a replacement
  CHECK(results::drive_difference(journal, now) ==
        "backing file '/srv/c.img' (journal) vs '/srv/d.img' (now); backing file inode '2049:131' (journal) vs '2049:177' (now)");
  now.backing_file = journal.backing_file;
  now.backing_inode.clear();  // not readable now: not compared
  CHECK(results::drive_difference(journal, now).empty());
  // Recorded and read back through the start record.
  const auto record = results::start_record(journal, "b", "t", {}, {}, {});
  const auto state = results::interpret_journal(*results::decode_journal(results::encode_record(record), "j"), "j");
  REQUIRE(state.has_value());
  CHECK(state->identity == journal);
}
