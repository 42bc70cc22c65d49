// SPDX-License-Identifier: GPL-2.0-or-later
// SimDevice: a SIMULATED drive behind the legacy IDE driver, built from real identify data.
#pragma once

#include "probe/device.hpp"
#include "probe/identify/identify.hpp"
#include "probe/sim/sim_block_io.hpp"
#include "probe/sim/sim_profile.hpp"

#include <cstdint>

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

/// Create a simulated drive from decoded identify data: what make_sim_device does after
/// reading the identify capture and the profile (tests use it with hand-built IdentifyInfo).
/// `path` is what path() returns ("sim:" or "sim:FILE").
/// identify() reports the parsed data with the current xfermode (words 62/63/88 "active"),
/// multcount (word 59) reflected, and word 93's cable as the simulation uses it (the profile's
/// cable_80wire, or 80-wire inferred per sim_limits when the capture does not say).
/// Starts in the conservative state of sim_default_state (sim_rules.hpp). Supported settings:
/// multcount, io_support, unmaskirq, using_dma, xfermode, readahead (using_dma read-only when
/// word 49 bit 8 is clear; multcount read-only when MaxMultSect is 0), apm and aam where
/// identify offers them (word 83 bits 3, 9; starting at the levels identify shows, reflected
/// in identify(); they change no modelled time), unsupported with the word-83 reason
/// otherwise; the block-queue settings
/// are unsupported ("simulated legacy IDE driver: no blk-mq queue attributes").
/// Errors: errc::invalid_argument, `path` = `path`, when the identify data has no capacity
/// (LBA sectors) or no PIO/DMA mode data.
Result<std::unique_ptr<Device>> make_sim_device_from(IdentifyInfo identify, std::string path,
                                                     SimProfile profile, std::uint64_t seed);

/// The shared state of a drive made by make_sim_device / make_sim_device_from, for models
/// that time work other than BlockIo reads (the random-read model's sampler); nullptr for any
/// other Device.
std::shared_ptr<SimCore> sim_core_of(Device& device);

}  // namespace disktune::probe
