// SPDX-License-Identifier: GPL-2.0-or-later
// /dev/kmsg records: parsing, and reading the real kernel log after a recorded sequence number.
#include "probe/watch/kmsg_reader.hpp"

#include "tests/support/skip.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <random>
#include <string>

using namespace disktune::probe;

TEST_CASE("parse_kmsg_record reads prio, seq, usec and the message", "[probe]") {
  const auto record = parse_kmsg_record("6,1383,15568782739,-;loop2: detected capacity change from 0 to 32768\n"
                                        " SUBSYSTEM=block\n DEVICE=b7:2\n");
  REQUIRE(record.has_value());
  REQUIRE(record->prio == 6);
  REQUIRE(record->seq == 1383);
  REQUIRE(record->usec == 15568782739u);
  REQUIRE(record->message == "loop2: detected capacity change from 0 to 32768");
  // Later kernels add fields after the flags (a caller id): still read.
  REQUIRE(parse_kmsg_record("4,7,100,c,caller=T12;ata3: hard resetting link")->seq == 7);
  REQUIRE_FALSE(parse_kmsg_record("no prefix at all").has_value());
  REQUIRE_FALSE(parse_kmsg_record("6,x,100,-;seq is no number").has_value());
  REQUIRE_FALSE(parse_kmsg_record("6,12;too few fields").has_value());
}

TEST_CASE("parse_kmsg_text keeps records and skips continuation and other lines", "[probe]") {
  const auto records = parse_kmsg_text("6,1,10,-;first\n SUBSYSTEM=block\n[  1.0] dmesg form\n\n6,2,20,-;second");
  REQUIRE(records.size() == 2);
  REQUIRE(records[0].message == "first");
  REQUIRE(records[1].seq == 2);
  REQUIRE(records[1].message == "second");
}

// The kernel log of this machine: what an apply records is where the records after it start.
// Writes one test line to /dev/kmsg (root only; skipped otherwise).
TEST_CASE("read_kmsg_log after last_kmsg_seq sees the lines logged later and none before", "[probe]") {
  const int fd = ::open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
  if (fd < 0 || !last_kmsg_seq()) {
    if (fd >= 0) ::close(fd);
    disktune::testing::skip_test("/dev/kmsg cannot be written and read here");
    return;
  }
  const auto mark = *last_kmsg_seq();
  const std::string line = "disktune-test: kmsg_reader_test " + std::to_string(std::random_device{}());
  const std::string text = line + "\n";  // without its newline the record stays open for a continuation
  const auto written = ::write(fd, text.data(), text.size());
  ::close(fd);
  REQUIRE(written == static_cast<ssize_t>(text.size()));
  const auto after = read_kmsg_log(mark);
  REQUIRE(after.has_value());
  REQUIRE(std::all_of(after->begin(), after->end(), [&](const KmsgRecord& r) { return r.seq > mark; }));
  const auto ours = std::find_if(after->begin(), after->end(), [&](const KmsgRecord& r) { return r.message == line; });
  REQUIRE(ours != after->end());
  REQUIRE(*last_kmsg_seq() >= ours->seq);
  const auto later = read_kmsg_log(ours->seq);
  REQUIRE(later.has_value());
  REQUIRE(std::none_of(later->begin(), later->end(), [&](const KmsgRecord& r) { return r.message == line; }));
  const auto all = read_kmsg_log();
  REQUIRE(all.has_value());
  REQUIRE(all->size() >= after->size());
}
