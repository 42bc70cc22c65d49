// SPDX-License-Identifier: GPL-2.0-or-later
// Trial status names.
#include "strategies/trial.hpp"

namespace disktune::strategies {

std::string_view to_string(TrialStatus status) {
  switch (status) {
    case TrialStatus::ok: return "ok";
    case TrialStatus::hang: return "hang";
    case TrialStatus::error: return "error";
    case TrialStatus::unsupported: return "unsupported";
    case TrialStatus::unstable: return "unstable";
    case TrialStatus::wedged: return "wedged";
  }
  return "error";
}

}  // namespace disktune::strategies
