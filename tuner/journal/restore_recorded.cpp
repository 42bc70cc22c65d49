// SPDX-License-Identifier: GPL-2.0-or-later
// Recorded originals put back through the SettingsWriter.
#include "tuner/journal/restore_recorded.hpp"

#include "tuner/run_error.hpp"
#include "tuner/trial/settings_writer.hpp"

namespace disktune::tuner {

void restore_recorded(probe::Device& device, const results::JournalState& start, const std::string& what) {
  device.keep_tunables(start.original_tunables);
  if (const auto restored = SettingsWriter(device).restore(start.original); !restored.done)
    throw RunError(kExitRestoreFailed, what + ": " + restored.done.error().message());
}

}  // namespace disktune::tuner
