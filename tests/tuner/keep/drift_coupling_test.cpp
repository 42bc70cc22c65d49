// SPDX-License-Identifier: GPL-2.0-or-later
// coupling_cause: a drift explained by a kernel coupling, recognised from the values read now.
// The read_ahead_kb figures are this machine's 6.18 kernel on a loop device: read_ahead_kb 1024,
// max_sectors_kb 1280 written, read_ahead_kb 2560 read.
#include "tuner/keep/drift_coupling.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;

namespace {

SettingValue num(std::int64_t n) { return SettingValue(n); }

tuner::LiveReader reader(probe::Settings live) {
  return [live](SettingId id) -> std::optional<SettingValue> {
    const auto it = live.find(id);
    return it == live.end() ? std::nullopt : std::optional(it->second);
  };
}

}  // namespace

TEST_CASE("drift coupling: read_ahead_kb raised to twice max_sectors_kb names the max_sectors_kb write", "[tuner]") {
  const auto read = reader({{SettingId::max_sectors_kb, num(1280)}});
  const probe::Settings applied{{SettingId::read_ahead_kb, num(1024)}};
  const auto cause = tuner::coupling_cause(SettingId::read_ahead_kb, num(2560), num(1024), applied, read).text;
  REQUIRE_FALSE(tuner::coupling_cause(SettingId::read_ahead_kb, num(2560), num(1024), applied, read).certain);
  REQUIRE(cause.find("read_ahead_kb reads 2560 = 2 x max_sectors_kb 1280: a write to max_sectors_kb raises "
                     "read_ahead_kb") == 0);
  // hdparm's readahead counts 512-byte sectors: 5120 sectors = 2560 KiB.
  REQUIRE(tuner::coupling_cause(SettingId::readahead, num(5120), num(2048), applied, read).text.find("readahead reads 5120") ==
          0);
  // Another value, or one lowered, is no such coupling: "cause unknown" stays the caller's.
  REQUIRE(tuner::coupling_cause(SettingId::read_ahead_kb, num(2048), num(1024), applied, read).text.empty());
  REQUIRE(tuner::coupling_cause(SettingId::read_ahead_kb, num(2560), num(4096), applied, read).text.empty());
  REQUIRE(tuner::coupling_cause(SettingId::read_ahead_kb, std::nullopt, num(1024), applied, read).text.empty());
  REQUIRE(tuner::coupling_cause(SettingId::read_ahead_kb, num(2560), num(1024), applied, reader({})).text.empty());
}

TEST_CASE("drift coupling: a scheduler switch explains nr_requests and the tunables", "[tuner]") {
  const probe::Settings applied{{SettingId::scheduler, SettingValue(std::string("mq-deadline"))},
                                {SettingId::nr_requests, num(32)},
                                {SettingId::fifo_batch, num(4)}};
  const auto switched = reader({{SettingId::scheduler, SettingValue(std::string("none"))}});
  REQUIRE(tuner::coupling_cause(SettingId::nr_requests, num(256), num(32), applied, switched).certain);
  REQUIRE(tuner::coupling_cause(SettingId::nr_requests, num(256), num(32), applied, switched).text ==
          "the scheduler is none now, not the report's mq-deadline: a scheduler switch resets nr_requests");
  // The tunable is gone with its scheduler: unreadable, and said why.
  REQUIRE(tuner::coupling_cause(SettingId::fifo_batch, std::nullopt, num(4), applied, switched)
              .text.find("removes the old scheduler's tunables") != std::string::npos);
  // Switched away and back: the tunable reads its kernel default (mq-deadline's fifo_batch 16).
  const auto back = reader({{SettingId::scheduler, SettingValue(std::string("mq-deadline"))}});
  REQUIRE(tuner::coupling_cause(SettingId::fifo_batch, num(16), num(4), applied, back).text ==
          "fifo_batch reads mq-deadline's default, which a switch to mq-deadline sets: the scheduler may have been "
          "switched away and back");
  REQUIRE(tuner::coupling_cause(SettingId::fifo_batch, num(8), num(4), applied, back).text.empty());
  REQUIRE(tuner::coupling_cause(SettingId::nr_requests, num(256), num(32), applied, back).text.empty());
  REQUIRE(tuner::coupling_cause(SettingId::multcount, num(0), num(16), applied, back).text.empty());
}
