// SPDX-License-Identifier: GPL-2.0-or-later
// Emitter registry: every name renders, unknown names list the valid ones.
#include "results/emitters.hpp"

#include "tests/support/sample_reports.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace disktune;

TEST_CASE("every registered emitter renders a newline-terminated text", "[results]") {
  const std::vector<std::string_view> names(results::emitter_names().begin(),
                                            results::emitter_names().end());
  const auto name = GENERATE_COPY(from_range(names));
  auto emitter = results::make_emitter(name);
  REQUIRE(emitter);
  const auto text = (*emitter)->render(test_support::seed_report());
  REQUIRE(text.size() > 100);
  REQUIRE(text.back() == '\n');
}

TEST_CASE("an unknown emitter name is an error listing the valid names", "[results]") {
  const auto emitter = results::make_emitter("xml");
  REQUIRE_FALSE(emitter);
  REQUIRE(emitter.error().code == std::errc::invalid_argument);
  REQUIRE(emitter.error().op.find("boot-local, hdparm-conf, udev, tuned, table, json") != std::string::npos);
}

TEST_CASE("snippets for a winner that changes nothing apply nothing", "[results]") {
  auto report = test_support::seed_report();
  report.winner.changes = {};
  for (const auto name : {"boot-local", "hdparm-conf", "udev", "tuned"}) {
    const auto text = (*results::make_emitter(name))->render(report);
    INFO(name << ":\n" << text);
    REQUIRE(text.find("# The winner changes nothing: nothing to apply.\n") != std::string::npos);
    REQUIRE(text.find("\n/") == std::string::npos);     // no hdparm.conf block
    REQUIRE(text.find("hdparm -") == std::string::npos);  // no hdparm line or RUN
  }
}

// A device that is not hardware is named for what it is in every output (the brief): the
// script test emulated_disk_named.sh sees boot.local only when its short tune finds an answer.
TEST_CASE("every emitter names an EMULATED drive and never calls it SIMULATED", "[results]") {
  auto report = test_support::loop_report();
  report.device.emulated_by = "fuse.emudisk";
  const std::vector<std::string_view> names(results::emitter_names().begin(),
                                            results::emitter_names().end());
  const auto name = GENERATE_COPY(from_range(names));
  const auto text = (*results::make_emitter(name))->render(report);
  INFO(name << ":\n" << text);
  if (name == "json") {  // fields, not a banner: results/json_report.cpp
    REQUIRE(text.find("\"emulated\": true") != std::string::npos);
    REQUIRE(text.find("\"emulated_by\": \"fuse.emudisk\"") != std::string::npos);
  } else {
    REQUIRE(text.find("EMULATED") != std::string::npos);
  }
  if (name != "table") REQUIRE(text.find("fuse.emudisk") != std::string::npos);  // the table says "EMULATED drive"
  REQUIRE(text.find("SIMULATED") == std::string::npos);
}

// What a loop device's figures reflect (the page cache, memory, a read cap) was said on stderr
// only: the report, the snippets and the HTML carry it beside the figures.
TEST_CASE("every emitter but the table carries a loop device's backing note", "[results]") {
  auto report = test_support::loop_report();
  report.device.backing_note = "/dev/loop0 reads its backing file through the page cache (loop/dio 0)";
  const std::vector<std::string_view> names(results::emitter_names().begin(), results::emitter_names().end());
  const auto name = GENERATE_COPY(from_range(names));
  const auto text = (*results::make_emitter(name))->render(report);
  INFO(name << ":\n" << text);
  if (name == "table") return;  // the run printed it at its start, above the table
  REQUIRE(text.find("reads its backing file through the page cache (loop/dio 0)") != std::string::npos);
  if (name == "json") REQUIRE(text.find("\"backing_note\": \"/dev/loop0 reads its backing file") != std::string::npos);
}
