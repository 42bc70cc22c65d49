// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's body: apply, read every setting back, open, measure, read back again, checksum.
#pragma once

#include "probe/device.hpp"
#include "probe/watch/watchdog.hpp"
#include "strategies/evaluator.hpp"
#include "tuner/trial/trial_settings.hpp"
#include "tuner/trial/trial_wire.hpp"

#include <string>
#include <vector>

namespace disktune::tuner {

/// Bytes of each block the data checksum reads, and of the read check's one block.
inline constexpr std::size_t kCrcBlockBytes = 64 * 1024;

/// One trial's body, run inside the watchdog child (or in process for evaluate): apply
/// the full configuration `config` (the settings it changes from `original`) through probe::apply_configuration (a heartbeat after every
/// write), read every setting back (one the configuration does not change that moved: unstable,
/// kChangedPrefix ... "before measuring"), only THEN open the device buffered (a file's
/// readahead window is fixed at open), sample adaptively (settings.sampling; its minimum
/// when request.quick; stopping early below request.incumbent_low), with_cached: a
/// cached-read median (hdparm -T, 2 s per sample), read every setting back again
/// (kChangedPrefix ... "after measuring"), and CRC-32 a fixed sample of 8 blocks of 64 KiB
/// spread over the device. Does not restore: the caller does.
/// Returns the report; failures are its status and detail, never an error: unsupported
/// (the driver refused a setting), error (kRejectedPrefix for EIO, a failed open or read),
/// unstable (kIneffectivePrefix: a value that did not read back; kChangedPrefix).
ChildReport measure_trial(probe::Device& device, const probe::Settings& original, const probe::Settings& config,
                          const TrialSettings& settings, bool with_cached, const strategies::TrialRequest& request,
                          probe::Heartbeat& heartbeat);

/// The confirmation round's body: settings.confirm_rounds rounds, each measuring every
/// contender in turn (A B C A B C ...). Each unit applies the whole contender (the previous
/// unit's values undone), reads every setting back, opens the device, takes a warm-up and
/// one kept sample, and reads every setting back again. A contender that fails once is not
/// applied again. Does not restore: the caller does.
/// Returns one report per contender, in order: its kept samples (scores of the objective) and measurement
/// time [s], or the first failure's status and detail.
std::vector<ChildReport> measure_confirmation(probe::Device& device, const probe::Settings& original,
                                              const std::vector<probe::Settings>& contenders,
                                              const TrialSettings& settings, probe::Heartbeat& heartbeat);

/// The read check's body: flush the page cache and read the first kCrcBlockBytes through a
/// buffered BlockIo. Returns "" when that worked, else the failing step's error message.
std::string read_first_block(probe::Device& device);

}  // namespace disktune::tuner
