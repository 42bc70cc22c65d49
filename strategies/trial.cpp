// SPDX-License-Identifier: GPL-2.0-or-later
// Trial status names.
#include "strategies/trial.hpp"

#include <initializer_list>

namespace disktune::strategies {

std::string_view to_string(TrialStatus status) {
  switch (status) {
    case TrialStatus::ok: return "ok";
    case TrialStatus::hang: return "hang";
    case TrialStatus::slow: return "slow";
    case TrialStatus::error: return "error";
    case TrialStatus::unsupported: return "unsupported";
    case TrialStatus::unstable: return "unstable";
    case TrialStatus::crashed: return "crashed";
    case TrialStatus::wedged: return "wedged";
  }
  return "error";
}

std::optional<TrialStatus> trial_status_from_name(std::string_view name) {
  for (const auto status : {TrialStatus::ok, TrialStatus::hang, TrialStatus::slow, TrialStatus::error, TrialStatus::unsupported,
                            TrialStatus::unstable, TrialStatus::crashed, TrialStatus::wedged})
    if (to_string(status) == name) return status;
  return std::nullopt;
}

}  // namespace disktune::strategies
