// SPDX-License-Identifier: GPL-2.0-or-later
// SharedCounts: what a forked child counts, its parent and later children see (the simulated
// drive's opens: a configuration measured again in another child draws new noise).
#include "probe/sim/shared_counts.hpp"

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

using disktune::probe::SharedCounts;

namespace {

// Forks a child that counts `key` `times` times, and waits for it.
void count_in_child(SharedCounts& counts, std::uint64_t key, int times) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    for (int i = 0; i < times; ++i) counts.next(key);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
}

}  // namespace

TEST_CASE("shared counts: a forked child's counts are its parent's and the next child's", "[probe]") {
  SharedCounts counts;
  REQUIRE(counts.next(42) == 0);
  count_in_child(counts, 42, 2);
  count_in_child(counts, 7, 1);
  REQUIRE(counts.next(42) == 3);  // a std::map in the child's copy of memory said 1
  REQUIRE(counts.next(7) == 1);
  REQUIRE(counts.next(0) == 0);  // key 0 is a key like any other
  REQUIRE(counts.next(0) == 1);
}

TEST_CASE("shared counts: a full table still counts", "[probe]") {
  SharedCounts counts(4);
  for (std::uint64_t key = 1; key <= 4; ++key) REQUIRE(counts.next(key) == 0);
  const auto fifth = counts.next(5);  // shares a slot once every slot is taken
  REQUIRE(counts.next(5) == fifth + 1);
}
