// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune bench --objective NAME` for the fio-measured objectives.
#pragma once

#include "probe/device.hpp"
#include "tuner/cli/config.hpp"
#include "tuner/run_error.hpp"

#include <ostream>

namespace disktune::tuner {

/// config.repeats samples of config.objectives[0] (an Engine::fio objective) on `device`,
/// each config.duration_s long (bench::FioSampler), printed as text (median and spread in the
/// objective's unit, with fio's version) or, with --json, as an object (device, objective,
/// metric, unit, direction, median, samples, fio_version, the fio command line).
/// Throws RunError: exit 2 for a simulated device (no fio model) and a refused or unparsable
/// job file; exit 3 when fio is missing, fails or prints what is not its JSON.
ExitCode run_fio_bench(const Config& config, const probe::Device& device, std::ostream& out);

}  // namespace disktune::tuner
