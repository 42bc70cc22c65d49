// SPDX-License-Identifier: GPL-2.0-or-later
// Each command's own options, taken from the parsed command line: a room below cli/ never sees Config.
#pragma once

#include "tuner/cli/config.hpp"
#include "tuner/device/open_device.hpp"
#include "tuner/evaluate/evaluate.hpp"
#include "tuner/fleet/multi_outputs.hpp"
#include "tuner/keep/apply.hpp"
#include "tuner/keep/install.hpp"
#include "tuner/keep/restore.hpp"
#include "tuner/keep/verify.hpp"
#include "tuner/run/tune_options.hpp"

namespace disktune::tuner {

/// The device `config` names: DEVICE, or "sim:FILE" for identify/plan --from FILE, with
/// --seed, --sim-profile and --allow-mounted.
DeviceRequest device_request(const Config& config);

/// --journal, --fresh and --force.
JournalOptions journal_options(const Config& config);

/// --only, --safe-only and --allow-mounted: what bounds plan's and tune's legal space.
SpaceBounds space_bounds(const Config& config);

/// A single-drive tune's options (tune DEVICE).
TuneOptions tune_options(const Config& config);

/// A tune of several drives' options (tune DEV DEV... or --all).
FleetOptions fleet_options(const Config& config);

/// restore's options.
RestoreOptions restore_options(const Config& config);

/// apply's options: the one REPORT (or --config DIR), the DEVICE named after it, --journal.
ApplyOptions apply_options(const Config& config);

/// verify's options: REPORT... (or --config DIR) and --json.
VerifyOptions verify_options(const Config& config);

/// install's and uninstall's options: the one REPORT, --root, --exe, --form.
InstallOptions install_options(const Config& config);

/// evaluate's options, with its measurement (--duration, --repeats, ..., --objective, --only),
/// --seed as the first seed and --json.
EvaluateRequest evaluate_request(const Config& config);

/// Check every input file the command names before any device is opened: --from,
/// --sim-profile, sim:FILE, and --journal when it exists (a new one is created by the run;
/// with several drives each worker checks its own) with check_input_file, and each
/// --objective fio:FILE job file with check_job_file. Throws RunError(exit 2) naming the
/// option, the path and the reason.
void check_command_inputs(const Config& config);

}  // namespace disktune::tuner
