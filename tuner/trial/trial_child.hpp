// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's body, one for every kind of trial: apply, read back, open, measure, read back again, checksum.
#pragma once

#include "probe/device.hpp"
#include "probe/watch/watchdog.hpp"
#include "strategies/evaluator.hpp"
#include "tuner/trial/trial_plan.hpp"
#include "tuner/trial/trial_settings.hpp"
#include "tuner/trial/trial_wire.hpp"

#include <string>

namespace disktune::tuner {

/// Bytes of each block the data checksum reads, and of the read check's one block.
inline constexpr std::size_t kCrcBlockBytes = 64 * 1024;

/// The trial body, the one every kind of trial runs (trial_plan.hpp), inside the watchdog
/// child (or in process for evaluate): apply the configuration's changes from `original`
/// through probe::apply_configuration (a heartbeat after every write), read every setting
/// back (one the configuration does not change that moved: unstable, kChangedPrefix ...
/// "before measuring"), only THEN open the device buffered (a file's readahead window is
/// fixed at open), take plan.sampling's samples of settings.objective (a warm-up, then
/// adaptively, stopping early below plan.incumbent_low), the guard objective's when
/// plan.guard, the cached-read median (hdparm -T, 2 s per sample) when plan.cached, read
/// every setting back again (kChangedPrefix ... "after measuring"), and CRC-32 a fixed
/// sample of 8 blocks of 64 KiB spread over the device. Does not restore: the caller does.
/// Returns the report; failures are its status and detail, never an error: unsupported
/// (the driver refused a setting), error (kRejectedPrefix for EIO, a failed open or read),
/// unstable (kIneffectivePrefix: a value that did not read back; kChangedPrefix).
ChildReport measure_trial(probe::Device& device, const probe::Settings& original, const TrialPlan& plan,
                          const TrialSettings& settings, probe::Heartbeat& heartbeat);

/// The read check's body: flush the page cache and read the first kCrcBlockBytes through a
/// buffered BlockIo. Returns "" when that worked, else the failing step's error message.
std::string read_first_block(probe::Device& device);

}  // namespace disktune::tuner
