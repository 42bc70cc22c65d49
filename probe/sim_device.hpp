// SPDX-License-Identifier: GPL-2.0-or-later
// SimDevice: a SIMULATED drive behind the legacy IDE driver, built from real identify data.
#pragma once

#include "probe/device.hpp"

#include <memory>
#include <optional>
#include <string>

namespace disktune::probe {

/// Create a simulated drive (the spec "sim:" or "sim:FILE").
/// `identify_file`: nullopt = the built-in seed drive IBM-DJNA-352500 (its hdparm -i text,
/// compiled in); otherwise an identify capture in any format parse_identify_file accepts.
/// `options.sim_profile`: a JSON behaviour profile (keys media_mib_s, noise_pct,
/// cable_80wire, faults; see sim_profile.hpp). `options.seed` makes the noise deterministic.
/// Errors: errc::invalid_argument naming the file and the reason (unparsable identify,
/// bad profile, a drive with nothing to tune such as an ATAPI device without DMA/PIO data).
Result<std::unique_ptr<Device>> make_sim_device(const std::optional<std::string>& identify_file,
                                                const DeviceOptions& options);

}  // namespace disktune::probe
