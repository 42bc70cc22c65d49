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

/// The relative noise of one simulated sample, in percent (one standard deviation of its
/// figure): the drive's own per-sample noise (`environment_pct`, the profile's noise_pct: what
/// a real machine adds whatever the sample's length) and the sampling noise of `completions`
/// reads, added in quadrature. Sampling noise: IOPS and MiB/s are a mean over the completions,
/// cv / sqrt(n), cv = 0.35 for random reads (a uniform rotational wait plus a square-root
/// seek) and 0.05 for sequential ones; a p-quantile (p99: 0.99, p999: 0.999) rests on the
/// k = n (1 - p) completions beyond it: slope / (quantile sqrt(k)), slope being the latency
/// per unit of -ln(1 - u) around it in sim_latency_draws' distribution of `figures` (for a
/// pure exponential tail, 1 / (ln(1 / (1 - p)) sqrt(k)); k at least 1). The sampler takes a
/// rate's noise from this and draws a percentile's reads (whose spread this predicts). So a
/// shorter sample, or a slower device, is noisier. 0 when `environment_pct` is 0: a noise-free
/// profile gives the model's exact figures (evaluate's truth, the tests' reference).
double sim_sample_noise_pct(Metric metric, const probe::SimWorkload& workload, const probe::SimFigures& figures,
                            double completions, double environment_pct);

/// A Sampler of `objective` on the simulated drive `device` (probe::sim_core_of), for the
/// settings in force at each sample() (SIMULATED: sim_workload_figures, not a measurement).
/// sample(): Sample::value = score_of(objective, figure), figure = the model's MiB/s, IOPS or
/// p99 / p999 latency [µs] as objective.metric names it, times the drive's seeded noise
/// (noise_factor at sim_sample_noise_pct of the sample's completions: per sample, per
/// configuration, per sampler opened under it; never on the order of trials), a "slow" fault's
/// factor 4 included; a percentile on a noisy profile is instead fio's rule over its reads
/// drawn by sim_latency_draws (times the environment noise), kept in Sample::latency to pool; Sample::elapsed = `duration`, or for a percentile the time its
/// percentile_completions (sample_completions': at most its bound) take when shorter (as fio's --number_ios), by which the drive's
/// virtual clock advances; Sample::bytes = what the workload would have read in that time.
/// warmup(): as fio's (builtin_warmup: a third of `duration`, a percentile's 36 reads).
/// The sampler keeps the drive's shared state: `device` may go first.
/// Errors: errc::not_supported when `device` is not simulated, or as sim_workload_of; from
/// sample(): EIO under a matching "eio" fault (a "hang" fault never returns, as a read would).
/// DT_ASSERT: duration > 0.
probe::Result<std::unique_ptr<Sampler>> make_sim_sampler(probe::Device& device,
                                                         const Objective& objective,
                                                         probe::Seconds duration);

}  // namespace disktune::bench
