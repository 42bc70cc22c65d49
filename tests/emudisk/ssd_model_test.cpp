// SPDX-License-Identifier: GPL-2.0-or-later
// The emulated SSD's timing against its defining formulas (on the model's own clock).
#include "tests/emudisk/ssd_model.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using disktune::emudisk::Request;
using disktune::emudisk::SsdModel;
using disktune::emudisk::SsdProfile;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// Reads per second with `depth` reads of `size` bytes kept outstanding (a closed loop).
double rate_at_depth(const SsdProfile& p, std::size_t depth, std::uint64_t size, int reads) {
  SsdModel model(p);
  std::vector<double> done;  // completion times of the reads outstanding
  double now = 0.0;
  for (int i = 0; i < reads; ++i) {
    if (done.size() == depth) {
      auto first = std::min_element(done.begin(), done.end());
      now = std::max(now, *first);
      done.erase(first);
    }
    now = std::max(now, model.ready_at(now));
    done.push_back(model.start(Request{static_cast<std::uint64_t>(i) * size, size, now}, now));
  }
  return reads / *std::max_element(done.begin(), done.end());
}

}  // namespace

TEST_CASE("SsdModel serves a read at QD1 in overhead, access and transfer", "[emudisk]") {
  const SsdProfile p;
  const double expected_s = (p.overhead_us + p.read_us) / 1e6 + 4096.0 / (p.bandwidth_mib_s * kMiB);
  CHECK(1.0 / rate_at_depth(p, 1, 4096, 20000) == Approx(expected_s).epsilon(0.01));
}

TEST_CASE("SsdModel's units serve reads in parallel up to the link's ceiling", "[emudisk]") {
  const SsdProfile p;
  const double per_unit_s = (p.overhead_us + p.read_us) / 1e6;
  CHECK(rate_at_depth(p, 32, 4096, 20000) == Approx(static_cast<double>(p.units) / per_unit_s).epsilon(0.02));
  CHECK(rate_at_depth(p, 2, 4096, 20000) == Approx(2.0 / (per_unit_s + 4096.0 / (p.bandwidth_mib_s * kMiB))).epsilon(0.02));
  // 1 MiB reads: the link (550 MiB/s) binds, not the units.
  CHECK(rate_at_depth(p, 16, 1 << 20, 2000) == Approx(p.bandwidth_mib_s).epsilon(0.02));
}
