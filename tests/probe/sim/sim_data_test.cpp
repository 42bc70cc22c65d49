// SPDX-License-Identifier: GPL-2.0-or-later
// The simulated drive's content: byte p is byte p % 8 of mix64(p / 8), wherever the read
// falls (inside the table of the first 64 MiB, across its end, beyond it, unaligned).
#include "probe/sim/sim_data.hpp"
#include "probe/sim/sim_state.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace disktune::probe;

namespace {

std::byte expected_byte(std::uint64_t p) { return static_cast<std::byte>(mix64(p / 8) >> (8 * (p % 8))); }

}  // namespace

TEST_CASE("simulated content is byte p % 8 of mix64(p / 8) at every offset and length", "[sim]") {
  constexpr std::uint64_t kMib = 1u << 20;
  const auto [offset, length] = GENERATE(table<std::uint64_t, std::uint64_t>({
      {0, 2 * kMib}, {3, 4093}, {2 * kMib - 5, 11}, {7 * kMib + 1, 3 * kMib}, {64 * kMib - 9, 20},
      {64 * kMib, 4096}, {1000 * kMib + 7, 13}, {0, 1}}));
  for (int pass = 0; pass < 2; ++pass) {  // computed, then copied from the table
    std::vector<std::byte> buffer(length);
    fill_sim_data(offset, buffer);
    std::uint64_t first_wrong = length;
    for (std::uint64_t i = length; i-- > 0;)
      if (buffer[i] != expected_byte(offset + i)) first_wrong = i;
    INFO("offset " << offset << ", length " << length << ", pass " << pass);
    REQUIRE(first_wrong == length);
  }
}
