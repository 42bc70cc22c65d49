// SPDX-License-Identifier: GPL-2.0-or-later
// SettingsWriter: Device::restore in this process (simulated) or in a watched child (real devices).
#include "tuner/trial/settings_writer.hpp"

#include <iostream>

namespace disktune::tuner {

probe::Result<void> SettingsWriter::restore_here(const probe::Settings& settings) const { return device_.restore(settings); }

Written SettingsWriter::write(const probe::Settings& settings, const std::string& purpose, probe::Seconds limit) const {
  if (in_process_) {
    auto done = restore_here(settings);
    std::string why = done ? "" : done.error().message();
    return Written{std::move(done), probe::ChildEnd::finished, "", std::move(why)};
  }
  const auto outcome = probe::run_in_child(
      [&](probe::Heartbeat&) {
        const auto restored = restore_here(settings);
        return restored ? std::string() : restored.error().message();
      },
      probe::WatchLimits{limit, std::nullopt, probe::Seconds{2.0}, true});
  if (outcome.end == probe::ChildEnd::finished && outcome.payload.empty()) return Written{{}, outcome.end, outcome.detail};
  const bool hung = outcome.end == probe::ChildEnd::timed_out || outcome.end == probe::ChildEnd::wedged;
  const std::string why = outcome.end == probe::ChildEnd::finished ? outcome.payload : outcome.detail;
  return Written{probe::Error{std::make_error_code(hung ? std::errc::timed_out : std::errc::io_error),
                               purpose + " (" + why + ")", device_.path()},
                  outcome.end, outcome.detail, why};
}

RestoreGuard::~RestoreGuard() {
  if (dismissed_) return;
  if (const auto restored = restorer_.restore(original_); !restored.done)
    std::cerr << "disktune: could not restore the original settings: " << restored.done.error() << '\n';
}

}  // namespace disktune::tuner
