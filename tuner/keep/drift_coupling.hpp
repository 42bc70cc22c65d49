// SPDX-License-Identifier: GPL-2.0-or-later
// A drift explained by a kernel coupling: one queue write moving another setting, recognised
// from the values the device reads now.
#pragma once

#include "probe/settings.hpp"

#include <functional>
#include <optional>
#include <string>

namespace disktune::tuner {

/// Reads one setting of the device now; nullopt when it cannot be read (or does not exist:
/// a scheduler tunable under another scheduler).
using LiveReader = std::function<std::optional<probe::SettingValue>(probe::SettingId)>;

/// The kernel coupling that explains `id` reading `live` (nullopt: unreadable, e.g. a tunable
/// gone with its scheduler) instead of the applied `expected`,
/// from what the device reads now (`read`) and the configuration the apply set (`applied`:
/// the report's baseline with its changes, so an unchanged scheduler counts too); "" when no known coupling matches. The couplings (probe/settings.cpp's apply
/// order follows from the same ones):
/// - read_ahead_kb (readahead, in 512-byte sectors: 4 x) raised to twice max_sectors_kb:
///   a write to max_sectors_kb raises read_ahead_kb to twice the new value when it is lower
///   (seen on 6.18: read_ahead_kb 0 or 1024, max_sectors_kb 1280 written, 2560 read);
/// - nr_requests, or a scheduler tunable gone, while the scheduler reads another than the one
///   applied: a switch resets nr_requests and removes the old scheduler's tunables;
/// - a scheduler tunable at its kernel default (probe::tunable_default) under its scheduler:
///   a switch to that scheduler sets its tunables to their defaults, so the scheduler was
///   switched away and back.
/// Each says the value that matched ("2560 = 2 x max_sectors_kb 1280").
/// `certain` is true only where the device shows the cause itself (the scheduler reads another
/// than the report's); a value that merely equals what a coupling gives (read_ahead_kb at twice
/// max_sectors_kb, a tunable at its default) is also what the kernel sets on its own or what a
/// user may write back, so it is a possibility, not evidence.
struct Coupling {
  std::string text;  ///< "" when no known coupling matches
  bool certain = false;
};
Coupling coupling_cause(probe::SettingId id, const std::optional<probe::SettingValue>& live,
                        const probe::SettingValue& expected, const probe::Settings& applied, const LiveReader& read);

}  // namespace disktune::tuner
