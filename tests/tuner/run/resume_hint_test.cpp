// SPDX-License-Identifier: GPL-2.0-or-later
// The lines that say how to resume a stopped tune: a command a person can copy as shown.
#include "tuner/run/resume_hint.hpp"

#include <catch2/catch.hpp>

using disktune::tuner::resume_hint_text;

TEST_CASE("resume hint: the program as it was run, without --fresh, in quotes when it holds none", "[tuner]") {
  CHECK(resume_hint_text({"build/disktune", "tune", "/dev/loop3", "--fresh", "--max-trials", "4"}, "/dev/loop3", "/j") ==
        "disktune: journal /j kept: the next 'build/disktune tune /dev/loop3 --max-trials 4' resumes this run (its "
        "measured trials and bounds kept), 'build/disktune tune --fresh /dev/loop3 --max-trials 4' starts over\n");
  CHECK_THAT(resume_hint_text({}, "/dev/loop3", "/j"), Catch::Contains("the next 'disktune tune /dev/loop3' resumes"));
}

TEST_CASE("resume hint: a command holding quoted words is set apart, not wrapped in more quotes", "[tuner]") {
  // The adversary's hint read "the next ''./dis'\''ktune' tune sim: ...'": copied whole, another command.
  const auto text = resume_hint_text({"./dis'ktune", "tune", "sim:", "--journal", "../j q"}, "sim:", "../j q");
  CHECK(text == "disktune: journal ../j q kept; to resume this run (its measured trials and bounds kept): "
                "'./dis'\\''ktune' tune sim: --journal '../j q'\n"
                "disktune: to start over: './dis'\\''ktune' tune --fresh sim: --journal '../j q'\n");
}

TEST_CASE("resume hint: --fresh goes right after the command word, never after a '--'", "[tuner]") {
  // The adversary's "disktune tune ... -- /dev/loop1 --fresh' starts over" named --fresh as a second drive.
  CHECK_THAT(resume_hint_text({"disktune", "tune", "--journal", "/j", "--", "/dev/loop1"}, "/dev/loop1", "/j"),
             Catch::Contains("'disktune tune --fresh --journal /j -- /dev/loop1' starts over"));
}

TEST_CASE("resume hint: a program word holding '=' is quoted (else the shell reads an assignment)", "[tuner]") {
  // Pasted, "x=y/disktune tune /dev/loop1" ran "tune" with x set: command not found.
  CHECK_THAT(resume_hint_text({"x=y/disktune", "tune", "/dev/loop1"}, "/dev/loop1", "/j"),
             Catch::Contains("to resume this run (its measured trials and bounds kept): 'x=y/disktune' tune /dev/loop1\n"));
}
