// SPDX-License-Identifier: GPL-2.0-or-later
// SimSampler: samples of the fio objectives on the SIMULATED drive, from its random-read model.
#pragma once

#include "bench/objective.hpp"
#include "bench/sampler.hpp"
#include "probe/device.hpp"
#include "probe/sim/sim_random_model.hpp"

#include <memory>

namespace disktune::bench {

/// The workload of a built-in fio objective (objective.hpp): seq-read-direct = 1 MiB
/// sequential reads at QD16; rand-read-iops = 4 KiB random reads at QD32; rand-read-latency =
/// 4 KiB random reads at QD1. Errors: errc::not_supported naming the objective for seq-read
/// (hdparm-style reads: sample it with ReadSampler over the simulated BlockIo) and fio:FILE
/// (a user's job is not simulated).
probe::Result<probe::SimWorkload> sim_workload_of(const Objective& objective);

/// A Sampler of `objective` on the simulated drive `device` (probe::sim_core_of), for the
/// settings in force at each sample() (SIMULATED: sim_workload_figures, not a measurement).
/// sample(): Sample::value = score_of(objective, figure), figure = the model's MiB/s, IOPS or
/// p99 / p999 latency [µs] as objective.metric names it, times the drive's seeded noise
/// (noise_factor: per sample, per configuration, per sampler opened under it; never on the
/// order of trials), a "slow" fault's factor 4 included; Sample::bytes = what the workload
/// would have read in `duration`; Sample::elapsed = `duration`, by which the drive's virtual
/// clock advances. The sampler keeps the drive's shared state: `device` may go first.
/// Errors: errc::not_supported when `device` is not simulated, or as sim_workload_of; from
/// sample(): EIO under a matching "eio" fault (a "hang" fault never returns, as a read would).
/// DT_ASSERT: duration > 0.
probe::Result<std::unique_ptr<Sampler>> make_sim_sampler(probe::Device& device,
                                                         const Objective& objective,
                                                         probe::Seconds duration);

}  // namespace disktune::bench
