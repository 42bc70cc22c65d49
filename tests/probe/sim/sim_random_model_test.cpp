// SPDX-License-Identifier: GPL-2.0-or-later
// Tests for the SIMULATED random-read model: the physical limits it must respect.
#include "probe/sim/sim_random_model.hpp"
#include "tests/support/sim_fixture.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace disktune;
using namespace disktune::probe;

namespace {

constexpr std::uint64_t k4k = 4096;

// Identify words of a SATA drive: word 217 = `rotation`, NCQ (word 76 bit 8) with depth 32
// when `ncq`.
IdentifyInfo sata_identify(std::uint16_t rotation, bool ncq) {
  IdentifyInfo info = testing::udma5_identify();
  std::array<std::uint16_t, 256> words{};
  words[75] = 31;                                           // queue depth 32
  words[76] = static_cast<std::uint16_t>(0x0006 | (ncq ? 0x0100 : 0));  // SATA gen 1/2
  words[217] = rotation;
  const IdentifyInfo decoded = decode_identify(words, IdentifySource::raw);
  info.rotation_rate = decoded.rotation_rate;
  info.queue_depth = decoded.queue_depth;
  info.is_sata = decoded.is_sata;
  return info;
}

SimDriveConfig drive_of(const IdentifyInfo& identify, const std::string& scheduler = "none",
                        std::optional<int> profile_rpm = std::nullopt) {
  SimDriveConfig drive;
  drive.state.using_dma = true;
  drive.state.xfermode = 69;  // udma5
  drive.media_mib_s = identify.rotation_rate == 1 ? 500.0 : 60.0;
  drive.mechanics = sim_mechanics(identify, profile_rpm);
  drive.queue.scheduler = scheduler;
  return drive;
}

double iops(const SimDriveConfig& drive, int qd) {
  return sim_workload_figures(drive, {k4k, qd, true}).iops;
}

}  // namespace

TEST_CASE("sim_mechanics reads words 217, 75 and 76, else the profile's class or the generation",
          "[probe]") {
  const SimMechanics hdd = sim_mechanics(sata_identify(5400, true), 7200);
  CHECK(hdd.rotation_rpm == 5400);  // word 217 wins over the profile
  CHECK(hdd.queue_depth == 32);
  CHECK(hdd.avg_seek_s > sim_mechanics(sata_identify(7200, true), {}).avg_seek_s);
  CHECK(sim_mechanics(sata_identify(7200, false), {}).queue_depth == 1);  // no NCQ bit
  const SimMechanics ssd = sim_mechanics(sata_identify(1, true), {});
  CHECK_FALSE(ssd.rotating());
  CHECK(ssd.avg_seek_s == 0.0);
  CHECK(sim_mechanics(sata_identify(0, true), 10000).rotation_rpm == 10000);       // not reported
  CHECK(sim_mechanics(sata_identify(0xFFFF, true), {}).rotation_rpm == 7200);      // SATA class
  CHECK(sim_mechanics(testing::seed_identify(), {}).rotation_rpm == 7200);  // UDMA4 generation
  CHECK(sim_mechanics(testing::seed_identify(), {}).queue_depth == 1);      // text: no words
  IdentifyInfo old = testing::seed_identify();
  old.udma_modes = {0, 1, 2};
  CHECK(sim_mechanics(old, {}).rotation_rpm == 5400);
}

TEST_CASE("QD1 random IOPS never beats one average seek plus half a revolution", "[probe]") {
  for (const int rpm : {5400, 7200, 10000, 15000}) {
    const SimDriveConfig drive = drive_of(sata_identify(static_cast<std::uint16_t>(rpm), true), "mq-deadline");
    const double limit = 1.0 / (drive.mechanics.avg_seek_s + 30.0 / rpm);
    INFO(rpm << " rpm: " << iops(drive, 1) << " IOPS, limit " << limit);
    CHECK(iops(drive, 1) <= limit);
    CHECK(iops(drive, 1) > 0.8 * limit);  // the seek and the rotation are the cost
  }
}

TEST_CASE("random IOPS grow with QD under NCQ and not without queuing", "[probe]") {
  const SimDriveConfig ncq = drive_of(sata_identify(7200, true));
  const SimDriveConfig plain = drive_of(sata_identify(7200, false));  // and scheduler none
  double previous = 0.0;
  for (const int qd : {1, 2, 4, 8, 16, 32}) {
    INFO("QD" << qd);
    CHECK(iops(ncq, qd) > previous);
    previous = iops(ncq, qd);
    // Without queuing only the next request's CPU work overlaps: no reordering gain.
    CHECK(iops(plain, qd) == Approx(iops(plain, 1)).epsilon(1e-3));
  }
  CHECK(iops(ncq, 1) == Approx(iops(plain, 1)).epsilon(1e-9));  // QD1: no difference
}

TEST_CASE("the OS queue's sorting alone gains about half at QD32 and nothing at QD1", "[probe]") {
  // The 2009 NCQ measurements (docs/evaluation.md) (7200 rpm, 32 threads of random reads).
  const SimDriveConfig fifo = drive_of(sata_identify(7200, false), "none");
  const SimDriveConfig sorted = drive_of(sata_identify(7200, false), "mq-deadline");
  const SimDriveConfig both = drive_of(sata_identify(7200, true), "mq-deadline");
  CHECK(iops(sorted, 1) == Approx(iops(fifo, 1)).epsilon(0.001));
  const double gain = iops(sorted, 32) / iops(fifo, 32);
  CHECK(gain > 1.3);
  CHECK(gain < 1.7);
  CHECK(iops(both, 32) > iops(sorted, 32));  // NCQ plus the OS queue: more
  CHECK(iops(drive_of(sata_identify(7200, false), "bfq"), 32) > iops(fifo, 32));
  CHECK(iops(drive_of(sata_identify(7200, false), "kyber"), 32) == Approx(iops(fifo, 32)));
}

TEST_CASE("an SSD has no seek term: random and sequential small reads cost the same", "[probe]") {
  const SimDriveConfig ssd = drive_of(sata_identify(1, true));
  const SimFigures random = sim_workload_figures(ssd, {k4k, 1, true});
  const SimFigures sequential = sim_workload_figures(ssd, {k4k, 1, false});
  CHECK(random.iops == Approx(sequential.iops).epsilon(1e-12));
  CHECK(random.iops > 20 * iops(drive_of(sata_identify(7200, true)), 1));
  CHECK(iops(ssd, 32) > 4 * iops(ssd, 1));  // parallel flash units
}

TEST_CASE("latency quantiles are ordered and the mean obeys Little's law", "[probe]") {
  for (const std::uint16_t rotation : {std::uint16_t{1}, std::uint16_t{7200}}) {
    for (const bool ncq : {false, true}) {
      for (const std::string scheduler : {"none", "mq-deadline", "bfq", "kyber"}) {
        for (const int qd : {1, 4, 32}) {
          const SimDriveConfig drive = drive_of(sata_identify(rotation, ncq), scheduler);
          const SimFigures f = sim_workload_figures(drive, {k4k, qd, true});
          INFO(rotation << " ncq " << ncq << " " << scheduler << " QD" << qd);
          CHECK(f.p50_latency_s > 0.0);
          CHECK(f.p99_latency_s >= f.p50_latency_s);
          CHECK(f.p999_latency_s >= f.p99_latency_s);
          CHECK(f.mean_latency_s == Approx(qd / f.iops).epsilon(1e-9));
        }
      }
    }
  }
}

TEST_CASE("nr_requests bounds the depth; max_sectors_kb splits; nomerges=2 stops merging",
          "[probe]") {
  SimDriveConfig drive = drive_of(sata_identify(7200, true));
  const double qd4 = iops(drive, 4);
  drive.queue.nr_requests = 4;
  CHECK(iops(drive, 32) == Approx(qd4).epsilon(1e-12));

  SimDriveConfig seq = drive_of(sata_identify(7200, false), "mq-deadline");
  const auto mib_s = [&](std::uint64_t block, int qd) {
    return sim_workload_figures(seq, {block, qd, false}).mib_s;
  };
  seq.queue.max_sectors_kb = 1024;
  const double whole = mib_s(1 << 20, 16);
  seq.queue.max_sectors_kb = 64;
  CHECK(mib_s(1 << 20, 16) < whole);  // sixteen commands per 1 MiB read
  CHECK(whole < seq.media_mib_s);
  const double merged = mib_s(k4k, 16);
  seq.queue.nomerges = 2;
  CHECK(mib_s(k4k, 16) < merged);
  seq.queue.nomerges = 1;  // simple merges still join a sequential stream
  CHECK(mib_s(k4k, 16) == Approx(merged));
}

TEST_CASE("a sorting or costlier scheduler pays CPU time per request", "[probe]") {
  const SimDriveConfig none = drive_of(sata_identify(1, true), "none");
  const SimDriveConfig bfq = drive_of(sata_identify(1, true), "bfq");
  const SimFigures a = sim_workload_figures(none, {k4k, 1, true});
  const SimFigures b = sim_workload_figures(bfq, {k4k, 1, true});
  CHECK(b.p99_latency_s > a.p99_latency_s);
  CHECK(b.iops < a.iops);
}

TEST_CASE("sim_queue_config reads the queue settings present and defaults the rest", "[probe]") {
  const QueueConfig legacy = sim_queue_config(sim_settings(SimState{}));
  CHECK(legacy.scheduler == "mq-deadline");
  CHECK(legacy.nr_requests == 128);
  CHECK(legacy.max_sectors_kb == 64);
  const QueueConfig set = sim_queue_config(
      {{SettingId::scheduler, SettingValue(std::string("bfq"))},
       {SettingId::nr_requests, SettingValue(std::int64_t{32})},
       {SettingId::max_sectors_kb, SettingValue(std::int64_t{512})}});
  CHECK(set.scheduler == "bfq");
  CHECK(set.nr_requests == 32);
  CHECK(set.max_sectors_kb == 512);
}

TEST_CASE("mq-deadline bounds a reordered read's wait; bfq's sorting does not", "[probe]") {
  const SimDriveConfig deadline = drive_of(sata_identify(7200, false), "mq-deadline");
  const SimDriveConfig bfq = drive_of(sata_identify(7200, false), "bfq");
  const SimFigures d = sim_workload_figures(deadline, {k4k, 32, true});
  const SimFigures b = sim_workload_figures(bfq, {k4k, 32, true});
  const SimQueueMachine machine;
  const double service_s = 1.0 / d.iops;
  CHECK(d.p999_latency_s <= machine.deadline_read_expire_s +
                                (machine.deadline_fifo_batch + 2) * service_s +
                                drive_of(sata_identify(7200, false)).mechanics.avg_seek_s * 2);
  CHECK(b.p999_latency_s > d.p999_latency_s);
  CHECK(b.iops == Approx(d.iops).epsilon(1e-3));  // the same sorting gain
}
