// SPDX-License-Identifier: GPL-2.0-or-later
// SimProfile: the JSON behaviour profile of a SIMULATED drive (--sim-profile FILE).
#pragma once

#include "probe/core/error.hpp"
#include "probe/settings.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe {

/// What a fault does while the device's settings match its `when`.
enum class FaultEffect {
  hang,         ///< a drive read blocks forever (the watchdog must kill the trial child)
  eio,          ///< drive reads fail with EIO
  corrupt,      ///< drive reads return wrong bytes, silently
  revert,       ///< apply() succeeds but the setting keeps its old value (reads back old)
  reject,       ///< apply() fails with EIO (rejected by the device)
  unsupported,  ///< apply() fails with ENOTTY
  slow,         ///< drive reads take 4 times as long
};

/// "hang", "eio", "corrupt", "revert", "reject", "unsupported", "slow".
std::string_view to_string(FaultEffect effect);

/// One fault: `effect` applies when every `when` entry equals the device's current value
/// (for revert / reject / unsupported: the value the apply() would produce). An empty
/// `when` always matches.
struct SimFault {
  Settings when;
  FaultEffect effect = FaultEffect::eio;
};

/// The behaviour profile. Every key is optional.
struct SimProfile {
  std::optional<double> media_mib_s;   ///< sustained media rate [MiB/s]; default by drive generation
  double noise_pct = 2.0;              ///< standard deviation of the time noise [%]
  std::optional<bool> cable_80wire;    ///< overrides identify word 93
  /// The drive class when the capture has no IDENTIFY word 217: its nominal rotation rate
  /// [rpm], 1 = non-rotating (SSD), as word 217 encodes it (sim_random_model.hpp).
  std::optional<int> rotation_rpm;
  std::vector<SimFault> faults;
};

/// True when every entry of `fault.when` is in `settings` with an equal value.
bool fault_matches(const SimFault& fault, const Settings& settings);

/// True when some fault with `effect` matches `settings`.
bool has_fault(const SimProfile& profile, FaultEffect effect, const Settings& settings);

/// Parse a profile: {"media_mib_s": 18.5, "noise_pct": 2, "cable_80wire": true, "rotation_rpm": 7200,
///   "faults": [{"when": {"xfermode": "udma4", "unmaskirq": 1}, "effect": "hang"}]}.
/// `when` values are numbers, strings or booleans read as probe::parse_value reads them; only
/// the six settings the simulated legacy driver has may appear.
/// Errors: errc::invalid_argument, `op` = "sim profile key 'faults[0].when.bogus': <reason>"
/// (or "sim profile: <JSON syntax error>"), `path` = name. Unknown keys, wrong types,
/// media_mib_s <= 0, noise_pct outside 0..50, rotation_rpm neither 1 nor 1025..65534 (word
/// 217's rotating range, ACS-3 Table 45) and unknown effects are errors.
Result<SimProfile> parse_sim_profile(std::string_view text, const std::string& name);

/// Read `path` and parse it. Errors: (errno, "read", path) or the parse error.
Result<SimProfile> load_sim_profile(const std::string& path);

}  // namespace disktune::probe
