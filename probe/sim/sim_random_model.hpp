// SPDX-License-Identifier: GPL-2.0-or-later
// The SIMULATED drive's random-read model: positioning, command queuing, the block layer's
// scheduler, merging and splitting, and the completion-latency distribution of a workload.
#pragma once

#include "probe/identify/identify.hpp"
#include "probe/settings.hpp"
#include "probe/sim/sim_block_io.hpp"
#include "probe/sim/sim_model.hpp"
#include "probe/sim/sim_state.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace disktune::probe {

/// The mechanics of a SIMULATED drive. Seek time over a distance d (a fraction of the full
/// stroke) follows the square-root curve of short seeks (Ruemmler & Wilkes, "An Introduction
/// to Disk Drive Modeling", IEEE Computer 27(3), 1994): seek(d) = min_seek + k * sqrt(d), k set
/// so that the mean over two uniformly random positions (E[sqrt|x-y|] = 8/15) is avg_seek.
struct SimMechanics {
  int rotation_rpm = 7200;  ///< IDENTIFY word 217: 1 = non-rotating (SSD), else rpm
  double avg_seek_s = 0.0;  ///< mean random seek [s]; 0 for an SSD
  double min_seek_s = 0.0;  ///< settle plus the shortest seek [s]; 0 for an SSD
  /// Commands the drive holds at once: word 75 bits 4:0 + 1 when word 76 bit 8 (NCQ) is set,
  /// else 1 (no queuing: one command at a time).
  int queue_depth = 1;
  [[nodiscard]] bool rotating() const { return rotation_rpm != 1; }
};

/// Constants of the SIMULATED block layer and drive classes. Sources (docs/evaluation.md,
/// "The random-read model"): half a revolution is the mean rotational latency (30 / rpm s:
/// 4.17 ms at 7200 rpm); average seeks are typical datasheet figures of each class (7200 rpm
/// desktop 8.5 ms, as the sequential model's positioning_s; 5400 rpm 12 ms; 10 000 rpm 4.5 ms;
/// 15 000 rpm 3.5 ms); min_seek is set so that a no-NCQ 7200 rpm drive gains about +50 % at
/// 32 outstanding random reads from the OS queue's sorting alone, and nothing at QD1 (the
/// 2009 NCQ measurements in docs/evaluation.md). The scheduler costs are CPU time per request:
/// bfq's extra is set so that a CPU-bound none -> bfq loses 63 % of its IOPS (the ICPE'24
/// scheduler study's largest NVMe overhead); kyber's and mq-deadline's are smaller guesses.
/// SSD constants are typical SATA SSD figures (4 KiB read ~90 us, ~8 parallel flash units).
/// None of them describes a configuration: the best one has to be found by search.
struct SimQueueMachine {
  double min_seek_fraction = 0.30;   ///< min_seek as a share of avg_seek (settle + head switch)
  double block_layer_s = 2e-6;       ///< CPU per request through blk-mq with "none"
  double kyber_extra_s = 0.3e-6;     ///< kyber's token accounting per request
  double deadline_extra_s = 0.6e-6;  ///< mq-deadline's sort and FIFO insertion per request
  double bfq_extra_s = 3.4e-6;       ///< bfq's scheduling per request
  /// mq-deadline's defaults (Documentation/block/deadline-iosched.rst): a read waits at most
  /// about read_expire plus one batch of fifo_batch requests.
  double deadline_read_expire_s = 0.5;
  int deadline_fifo_batch = 16;
  double ssd_access_s = 90e-6;       ///< flash read + controller time of one small read
  double ssd_jitter = 0.4;           ///< SSD access time spread: uniform over (1 +- jitter/2)
  int ssd_parallel_units = 8;        ///< requests an SSD serves at once
  double sata_mib_s = 550.0;         ///< SATA 6 Gb/s payload ceiling for an SSD
};

/// The drive's mechanics from identify data: rotation from word 217 where the capture gives it
/// (IdentifyInfo::rotation_rate: 1 = SSD, else rpm), else `profile_rpm` (the profile's drive
/// class), else the drive's generation (SATA or UDMA3+: 7200 rpm, older: 5400 rpm); queue
/// depth IdentifyInfo::queue_depth (words 75/76, NCQ), else 1. The SIMULATED host controller
/// is taken to run NCQ wherever the drive offers it (as libata would).
SimMechanics sim_mechanics(const IdentifyInfo& identify, std::optional<int> profile_rpm,
                           const SimQueueMachine& machine = {});

/// The block-queue configuration the model reads (queue/ attributes).
struct QueueConfig {
  std::string scheduler = "mq-deadline";  ///< none, mq-deadline, bfq, kyber (others: as none)
  int nr_requests = 128;                  ///< requests the queue allocates (limits the depth)
  int max_sectors_kb = 64;                ///< largest request [KiB]; larger ones are split
  int nomerges = 0;                       ///< 0 = merge, 1 = simple merges only, 2 = never
  std::optional<int> device_queue_depth;  ///< SCSI device/queue_depth; nullopt = the drive's
};

/// The queue configuration in `settings`: scheduler, nr_requests and max_sectors_kb where
/// present, the rest as QueueConfig's defaults (the simulated legacy IDE driver has no queue
/// attributes: a sorting elevator, 128 requests, 64 KiB requests as its max_request_sectors).
QueueConfig sim_queue_config(const Settings& settings);

/// A read workload: fio's bs, iodepth and rw=randread / rw=read, direct=1, over the device.
struct SimWorkload {
  std::uint64_t block_bytes = 4096;
  int queue_depth = 1;
  bool random = true;
};

/// What the model needs of one drive in one configuration.
struct SimDriveConfig {
  SimState state;                  ///< the legacy driver's knobs (transfer rate, PIO costs)
  std::int64_t fastest_pio = 12;   ///< fastest_pio_code of the drive
  double media_mib_s = 18.5;       ///< sustained media rate
  SimMechanics mechanics;
  QueueConfig queue;
};

/// The drive's configuration now: its SimState, limits, media rate, sim_mechanics(identify,
/// profile.rotation_rpm) and sim_queue_config(sim_settings(state)).
SimDriveConfig sim_drive_config(const SimCore& core);

/// Noise-free figures of a workload in steady state.
struct SimFigures {
  double iops = 0.0;
  double mib_s = 0.0;            ///< iops * block_bytes / 2^20
  double mean_latency_s = 0.0;   ///< completion latency (submission to completion)
  double p50_latency_s = 0.0;
  double p99_latency_s = 0.0;
  double p999_latency_s = 0.0;
};

/// The model (SIMULATED). Depth in the block layer = min(workload QD, nr_requests); the drive
/// holds n = min(depth, device queue depth) of them; a sorting scheduler (mq-deadline, bfq)
/// orders the depth - n + 1 it still holds by position, the drive (n > 1) reorders its own:
/// the seek spans the spacing of the larger window w (distance ~ Beta(1, w + 1), the elevator's
/// spacing; w = 1 gives two random positions), and NCQ's rotational wait is uniform with mean
/// T_rot / (n + 1). Requests are split at max_sectors_kb (each piece pays request_time_s);
/// sequential reads smaller than that merge up to it unless nomerges = 2, from the requests the
/// scheduler holds. A request's CPU cost (block layer + scheduler) adds to its latency at QD1
/// and bounds IOPS at 1 / cost when pipelined. Rotating drives serve one request at a time;
/// an SSD serves min(n, parallel units), bounded by the SATA ceiling. Latency percentiles:
/// the service-time quantile plus the queue wait (Little: depth / IOPS - mean service), a fixed
/// wait in FIFO order or a sequential stream, exponentially spread when random reads are
/// reordered, bounded under mq-deadline by read_expire + fifo_batch mean services.
/// DT_ASSERT: block_bytes > 0 and a multiple of 512, queue_depth >= 1.
SimFigures sim_workload_figures(const SimDriveConfig& drive, const SimWorkload& workload,
                                const SimMachine& machine = {},
                                const SimQueueMachine& queue_machine = {});

}  // namespace disktune::probe
