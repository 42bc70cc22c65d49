// SPDX-License-Identifier: GPL-2.0-or-later
// Requests in flight from /sys/block/<name>/inflight.
#include "probe/watch/in_flight.hpp"

#include <chrono>
#include <fstream>
#include <thread>

namespace disktune::probe {

std::optional<long> reads_in_flight(const std::string& kernel_name, const std::string& sys_block) {
  std::ifstream file(sys_block + "/" + kernel_name + "/inflight");
  long reads = 0;
  if (!(file >> reads)) return std::nullopt;
  return reads;
}

long reads_stuck_in_flight(const std::string& kernel_name, Seconds grace, const std::string& sys_block) {
  const auto give_up = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(grace);
  for (;;) {
    const long reads = reads_in_flight(kernel_name, sys_block).value_or(0);
    if (reads == 0 || std::chrono::steady_clock::now() >= give_up) return reads;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace disktune::probe
