// SPDX-License-Identifier: GPL-2.0-or-later
// The SIMULATED random-read model: seek and rotation, queuing, scheduler costs, latency quantiles.
#include "probe/sim/sim_random_model.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace disktune::probe {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kSector = 512.0;
constexpr double kPairSqrtMean = 8.0 / 15.0;  // E[sqrt|x - y|], x, y uniform on [0, 1]
constexpr std::size_t kStrata = 128;                  // quadrature points over the seek distance
constexpr int kBisections = 36;  // a 2^-36 share of the latency range

int generation_rpm(const IdentifyInfo& identify) {
  const auto udma = std::max_element(identify.udma_modes.begin(), identify.udma_modes.end());
  const bool modern = identify.is_sata || (udma != identify.udma_modes.end() && *udma >= 3);
  return modern ? 7200 : 5400;
}

double class_avg_seek_s(int rpm) {
  if (rpm == 1) return 0.0;
  if (rpm >= 15000) return 3.5e-3;
  if (rpm >= 10000) return 4.5e-3;
  if (rpm >= 7200) return 8.5e-3;
  return 12e-3;
}

bool sorts(const std::string& scheduler) { return scheduler == "mq-deadline" || scheduler == "bfq"; }

double cpu_cost_s(const std::string& scheduler, const SimQueueMachine& qm) {
  double extra = 0.0;
  if (scheduler == "kyber") extra = qm.kyber_extra_s;
  if (scheduler == "mq-deadline") extra = qm.deadline_extra_s;
  if (scheduler == "bfq") extra = qm.bfq_extra_s;
  return qm.block_layer_s + extra;
}

// E[sqrt(D)] for D ~ Beta(1, m): m * B(3/2, m).
double beta_sqrt_mean(double m) {
  return m * std::exp(std::lgamma(1.5) + std::lgamma(m) - std::lgamma(m + 1.5));
}

// The queue as the workload sees it.
struct Queueing {
  int depth = 1;         // outstanding in the block layer
  int in_drive = 1;      // held by the drive
  int window = 1;        // requests the seek is chosen among
  bool reordered = false;
  double requests_per_io = 1.0;  // dispatched requests per workload I/O (split > 1, merged < 1)
};

Queueing queueing_of(const SimDriveConfig& drive, const SimWorkload& workload) {
  const QueueConfig& queue = drive.queue;
  Queueing q;
  q.depth = std::max(1, std::min(workload.queue_depth, queue.nr_requests));
  const int device_depth = std::clamp(queue.device_queue_depth.value_or(drive.mechanics.queue_depth),
                                      1, drive.mechanics.queue_depth);
  q.in_drive = std::min(q.depth, device_depth);
  const int held = q.depth - q.in_drive + 1;
  const int os_window = sorts(queue.scheduler) ? held : 1;
  q.window = std::max(os_window, q.in_drive);
  q.reordered = q.window > 1 && workload.random;  // a sequential stream stays in order
  const double max_bytes = std::max(4, queue.max_sectors_kb) * 1024.0;
  const double block = static_cast<double>(workload.block_bytes);
  if (block > max_bytes) {
    q.requests_per_io = std::ceil(block / max_bytes);
  } else if (!workload.random && queue.nomerges < 2) {
    const double merged = std::min(std::floor(max_bytes / block), static_cast<double>(held));
    q.requests_per_io = 1.0 / std::max(1.0, merged);
  }
  return q;
}

// Service time of one I/O: fixed part plus (rotating, random) seek and rotational wait.
struct Service {
  double fixed_s = 0.0;
  double seek_min_s = 0.0;
  double seek_k_s = 0.0;       // seek = seek_min + seek_k * sqrt(D), D ~ Beta(1, window + 1)
  double window = 1.0;
  double rotation_max_s = 0.0;  // rotational wait ~ U(0, rotation_max)
  double ssd_access_s = 0.0;    // SSD access ~ U(1 -+ jitter/2) * ssd_access
  double ssd_jitter = 0.0;
  std::array<double, kStrata> sqrt_distance{};

  [[nodiscard]] double mean_s() const {
    return fixed_s + seek_min_s + seek_k_s * beta_sqrt_mean(window + 1.0) +
           rotation_max_s / 2.0 + ssd_access_s;
  }
  // sqrt of the seek distance's quantiles at the strata's midpoints (the quadrature nodes).
  void set_window(double w) {
    window = w;
    const double m = window + 1.0;
    for (std::size_t k = 0; k < kStrata; ++k) {
      const double u = (static_cast<double>(k) + 0.5) / kStrata;
      sqrt_distance[k] = std::sqrt(1.0 - std::pow(1.0 - u, 1.0 / m));
    }
  }
  // P(service <= x), by quadrature over the seek distance's quantiles.
  [[nodiscard]] double cdf(double x) const {
    if (seek_k_s == 0.0) return spread_cdf(x - fixed_s - seek_min_s);
    double sum = 0.0;
    for (const double root : sqrt_distance)
      sum += spread_cdf(x - fixed_s - seek_min_s - seek_k_s * root);
    return sum / kStrata;
  }
  [[nodiscard]] double quantile(double q) const {
    double low = fixed_s;
    double high = fixed_s + seek_min_s + seek_k_s + rotation_max_s +
                  ssd_access_s * (1.0 + ssd_jitter / 2.0);
    for (int i = 0; i < kBisections; ++i) {
      const double mid = (low + high) / 2.0;
      (cdf(mid) < q ? low : high) = mid;
    }
    return high;
  }

 private:
  // P(rotation + SSD access <= rest): a uniform of width rotation_max or of the SSD spread.
  [[nodiscard]] double spread_cdf(double rest) const {
    const double base = ssd_access_s * (1.0 - ssd_jitter / 2.0);
    const double width = rotation_max_s + ssd_access_s * ssd_jitter;
    if (width <= 0.0) return rest - base >= 0.0 ? 1.0 : 0.0;
    return std::clamp((rest - base) / width, 0.0, 1.0);
  }
};

Service service_of(const SimDriveConfig& drive, const SimWorkload& workload, const Queueing& q,
                   double cpu_s, const SimMachine& machine, const SimQueueMachine& qm) {
  const SimMechanics& mech = drive.mechanics;
  const double sectors = static_cast<double>(workload.block_bytes) / kSector;
  const double sector_s = sector_time_s(drive.state, drive.fastest_pio, drive.media_mib_s, machine);
  const double overlap = q.in_drive > 1 ? machine.overlap_loss : 1.0;
  Service s;
  s.fixed_s = cpu_s + sectors * sector_s +
              overlap * q.requests_per_io * request_time_s(drive.state, drive.fastest_pio, machine);
  if (!mech.rotating()) {
    s.ssd_access_s = qm.ssd_access_s;
    s.ssd_jitter = qm.ssd_jitter;
  } else if (workload.random) {
    s.seek_min_s = mech.min_seek_s;
    s.seek_k_s = (mech.avg_seek_s - mech.min_seek_s) / kPairSqrtMean;
    s.set_window(q.window);
    s.rotation_max_s = 2.0 * (60.0 / mech.rotation_rpm) / (q.in_drive + 1.0);
  }
  return s;
}

double iops_of(const SimDriveConfig& drive, const SimWorkload& workload, const Queueing& q,
               const Service& service, double cpu_s, const SimQueueMachine& qm) {
  if (q.depth == 1) return 1.0 / service.mean_s();
  const double cpu_bound = 1.0 / (cpu_s * std::max(1.0, q.requests_per_io));
  // A rotating drive serves one request at a time while the CPU prepares the next ones; an
  // SSD's units each take a whole request (CPU included) per cycle of the closed loop.
  if (drive.mechanics.rotating()) return std::min(1.0 / (service.mean_s() - cpu_s), cpu_bound);
  const double served = std::min(q.in_drive, qm.ssd_parallel_units);
  return std::min({served / service.mean_s(), cpu_bound,
                   qm.sata_mib_s * kMiB / static_cast<double>(workload.block_bytes)});
}

}  // namespace

SimMechanics sim_mechanics(const IdentifyInfo& identify, std::optional<int> profile_rpm,
                           const SimQueueMachine& machine) {
  SimMechanics mech;
  mech.rotation_rpm = identify.rotation_rate.value_or(profile_rpm.value_or(generation_rpm(identify)));
  mech.avg_seek_s = class_avg_seek_s(mech.rotation_rpm);
  mech.min_seek_s = machine.min_seek_fraction * mech.avg_seek_s;
  mech.queue_depth = identify.queue_depth.value_or(1);
  return mech;
}

QueueConfig sim_queue_config(const Settings& settings) {
  QueueConfig queue;
  const auto number = [&](SettingId id, int fallback) {
    const auto found = settings.find(id);
    return found == settings.end() ? fallback : static_cast<int>(found->second.number());
  };
  if (const auto found = settings.find(SettingId::scheduler); found != settings.end())
    queue.scheduler = found->second.text();
  queue.nr_requests = number(SettingId::nr_requests, queue.nr_requests);
  queue.max_sectors_kb = number(SettingId::max_sectors_kb, queue.max_sectors_kb);
  return queue;
}

SimDriveConfig sim_drive_config(const SimCore& core) {
  SimDriveConfig drive;
  drive.state = core.state;
  drive.fastest_pio = fastest_pio_code(core.limits);
  drive.media_mib_s = core.media_mib_s;
  drive.mechanics = sim_mechanics(core.identify, core.profile.rotation_rpm);
  drive.queue = sim_queue_config(sim_settings(core.state));
  return drive;
}

SimFigures sim_workload_figures(const SimDriveConfig& drive, const SimWorkload& workload,
                                const SimMachine& machine, const SimQueueMachine& queue_machine) {
  DT_ASSERT(workload.block_bytes > 0 && workload.block_bytes % 512 == 0);
  DT_ASSERT(workload.queue_depth >= 1);
  const Queueing q = queueing_of(drive, workload);
  const double cpu_s = cpu_cost_s(drive.queue.scheduler, queue_machine);
  const Service service = service_of(drive, workload, q, cpu_s, machine, queue_machine);
  SimFigures figures;
  figures.iops = iops_of(drive, workload, q, service, cpu_s, queue_machine);
  figures.mib_s = figures.iops * static_cast<double>(workload.block_bytes) / kMiB;
  figures.mean_latency_s = std::max(q.depth / figures.iops, service.mean_s());
  const double wait_s = figures.mean_latency_s - service.mean_s();
  // mq-deadline serves a read older than read_expire after the current batch.
  const double longest_wait_s =
      drive.queue.scheduler == "mq-deadline"
          ? queue_machine.deadline_read_expire_s +
                queue_machine.deadline_fifo_batch * service.mean_s()
          : std::numeric_limits<double>::infinity();
  const auto latency = [&](double p) {
    const double spread = q.reordered ? -std::log(1.0 - p) * wait_s : wait_s;
    return service.quantile(p) + std::min(spread, std::max(wait_s, longest_wait_s));
  };
  figures.p50_latency_s = latency(0.5);
  figures.p99_latency_s = latency(0.99);
  figures.p999_latency_s = latency(0.999);
  return figures;
}

}  // namespace disktune::probe
