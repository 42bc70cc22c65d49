// SPDX-License-Identifier: GPL-2.0-or-later
// restore_recorded: the original settings a journal or probe record holds, put back.
#pragma once

#include "probe/device.hpp"
#include "results/journal.hpp"

#include <string>

namespace disktune::tuner {

/// Put back on `device` the original settings `start` (a journal's or a probe record's start
/// record) holds, the active scheduler's recorded tunables with them (Device::keep_tunables),
/// each written and read back by the SettingsWriter (tuner/trial/settings_writer.hpp). The one way a
/// recorded original comes back: `restore`, a resumed tune, a killed probe's record.
/// Throws RunError(exit 4) "WHAT: REASON" naming the setting that could not be restored.
void restore_recorded(probe::Device& device, const results::JournalState& start, const std::string& what);

}  // namespace disktune::tuner
