// SPDX-License-Identifier: GPL-2.0-or-later
// The emulated SSD's timing (see ssd_model.hpp).
#include "tests/emudisk/ssd_model.hpp"

#include <algorithm>
#include <cstdlib>

namespace disktune::emudisk {

SsdModel::SsdModel(const SsdProfile& profile)
    : profile_(profile), unit_free_at_(profile.units, 0.0), random_(profile.seed) {
  if (!(profile.read_us > 0 && profile.spread_pct >= 0 && profile.spread_pct < 100 && profile.units >= 1 &&
        profile.bandwidth_mib_s > 0 && profile.overhead_us >= 0 && profile.queue_depth >= 1 &&
        profile.capacity_bytes > 0))
    std::abort();  // emudisk_options checks every value before a model is built
}

double SsdModel::ready_at(double now) const {
  return std::max(now, *std::min_element(unit_free_at_.begin(), unit_free_at_.end()));
}

std::size_t SsdModel::choose(std::span<const Request> /*held*/, double /*now*/) const { return 0; }

double SsdModel::start(const Request& request, double now) {
  auto unit = std::min_element(unit_free_at_.begin(), unit_free_at_.end());
  std::uniform_real_distribution<double> spread(-profile_.spread_pct / 100.0, profile_.spread_pct / 100.0);
  const double accessed = std::max(now, *unit) + (profile_.overhead_us + profile_.read_us * (1.0 + spread(random_))) / 1e6;
  // The unit is free once its data sits in the controller's buffer; the link then carries it.
  *unit = accessed;
  const double sent = std::max(accessed, link_free_at_) +
                      static_cast<double>(request.size_bytes) / (profile_.bandwidth_mib_s * 1024.0 * 1024.0);
  link_free_at_ = sent;
  return sent;
}

}  // namespace disktune::emudisk
