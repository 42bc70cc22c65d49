// SPDX-License-Identifier: GPL-2.0-or-later
// The run's objectives made ready for its device before anything is measured.
#pragma once

#include "bench/objective.hpp"
#include "probe/device.hpp"

#include <string>
#include <vector>

namespace disktune::tuner {

/// The objectives of a run, checked for its device.
struct ReadyObjectives {
  std::vector<bench::Objective> objectives;  ///< as given, each fio:FILE's metric resolved
  std::string fio_version;                   ///< "fio-3.33" when one is measured by fio; else empty
};

/// Check `objectives` for `device` before the baseline, so a refused job ends the run before
/// any setting changes: on a real device every fio objective's job is checked
/// (bench::check_fio_job: fio parses it, it only reads, and only this device) and fio's version
/// read; on a simulated drive fio objectives are measured by its random-read model, so no
/// fio is needed, and a fio:FILE job (which it cannot model) is refused. Every fio run ends on
/// the first stop request. Throws RunError: exit 2 for a refused or unparsable job (the job
/// and fio's message), exit 3 when fio is missing (naming Debian's fio package), fails to
/// start or runs past its limit, exit 1 (stopped) on a stop request.
ReadyObjectives ready_objectives(const std::vector<bench::Objective>& objectives, const probe::Device& device);

}  // namespace disktune::tuner
