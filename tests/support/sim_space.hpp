// SPDX-License-Identifier: GPL-2.0-or-later
// Brute force over a simulated drive's legal configurations (tests: optima are found, not coded).
#pragma once

#include "probe/device.hpp"
#include "probe/identify/identify.hpp"
#include "probe/sim/sim_profile.hpp"

#include <functional>
#include <vector>

namespace disktune::testing {

/// The best rating and every configuration reaching it (ties within 1e-12 relative).
struct Optimum {
  double score = 0.0;
  std::vector<probe::Settings> configs;
};

/// Rates a configuration on `device`, which is set to `config`; higher is better.
using Rating = std::function<double(probe::Device& device, const probe::Settings& config)>;

/// Every combination of the values a fresh simulated drive accepts for each of its six
/// settings (each applied alone from its start), kept only if the device takes the whole
/// combination (Device::restore applies and reads back), rated by `rate`. Nothing here names
/// an answer: whatever is best comes out of the enumeration.
Optimum brute_force(const probe::IdentifyInfo& identify, const probe::SimProfile& profile,
                    const Rating& rate);

}  // namespace disktune::testing
