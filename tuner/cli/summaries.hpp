// SPDX-License-Identifier: GPL-2.0-or-later
// Plain-text output of identify, plan and bench for people (JSON is in results/).
#pragma once

#include "bench/objective.hpp"
#include "probe/identify/identify.hpp"
#include "results/report.hpp"

#include <string>
#include <vector>

namespace disktune::tuner {

/// hdparm -i-like summary: model, firmware, serial, MaxMultSect/MultSect, PIO/DMA/UDMA modes
/// with '*' on the active one, cable, capacity, checksum, warnings; "[KIND drive]" first when `kind` (results::device_kind: SIMULATED, EMULATED) is not empty.
std::string identify_summary(const probe::IdentifyInfo& info, const std::string& kind);
/// The legal space: one line per dimension with its values, the count, pruned reasons,
/// excluded settings with their reasons, and the original settings; on a device with a
/// scheduler, the write-side tunables left alone and why (probe::write_side_tunables).
std::string plan_summary(const results::DeviceInfo& device, const results::SpaceInfo& space,
                         const probe::Settings& original);
/// hdparm -Tt-like lines with median and spread of each kind, in MB/s (MB = MiB; the unit the
/// tune table and README use, where hdparm prints "MB/sec"), no blank line first; a kind with
/// no samples (not measured, bench --method) has no line.
std::string bench_summary(const std::string& path, const std::string& kind, const std::vector<double>& cached_mib_s,
                          const std::vector<double>& buffered_mib_s);
/// bench --objective NAME's text: "DEVICE:" then " NAME (fio-3.33):  FIGURE UNIT (median of N,
/// spread ±S%)", the median of `figures` (in unit_of(objective)) printed as the tune table
/// prints it (bench::figure_number: IOPS as whole numbers, MB/s 2 decimals, us 1 decimal).
std::string objective_bench_summary(const std::string& path, const bench::Objective& objective,
                                    const std::string& fio_version, const std::vector<double>& figures);

}  // namespace disktune::tuner
