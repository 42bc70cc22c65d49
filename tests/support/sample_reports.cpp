// SPDX-License-Identifier: GPL-2.0-or-later
// Sample Reports. Numbers are hand-made but consistent (median of the samples, spread =
// (max - min) / median in percent, speedup = winner median / baseline median).
#include "tests/support/sample_reports.hpp"

#include <string>

namespace disktune::test_support {
namespace {

using probe::SettingId;
using probe::SettingValue;
using strategies::TrialStatus;

SettingValue num(std::int64_t number) { return SettingValue(number); }
SettingValue name(const char* text) { return SettingValue(std::string(text)); }

probe::Settings with(probe::Settings settings, const probe::Settings& changes) {
  for (const auto& [id, value] : changes) settings[id] = value;
  return settings;
}

strategies::TrialResult trial(int id, probe::Settings settings, TrialStatus status,
                              std::vector<double> samples, double median, double spread,
                              std::string detail = "") {
  strategies::TrialResult t;
  t.id = id;
  t.settings = std::move(settings);
  t.status = status;
  t.samples = std::move(samples);
  t.median = median;
  t.spread_pct = spread;
  t.detail = std::move(detail);
  return t;
}

// hdparm -i of the seed drive (walkthrough): MaxMultSect=16, MultSect=16, PIO 3-4 (0-2 via
// OldPIO), MDMA 0-2, UDMA 0-4 with *mode2 active, ATA-1..4.
probe::IdentifyInfo seed_identify() {
  probe::IdentifyInfo info;
  info.model = "IBM-DJNA-352500";
  info.serial = "GW0GWF05809";
  info.firmware = "J51OA30K";
  info.max_multsect = 16;
  info.multsect = 16;
  info.dma_supported = true;
  info.lba_supported = true;
  info.iordy_supported = true;
  info.iordy_can_disable = true;
  info.pio_modes = {0, 1, 2, 3, 4};
  info.mdma_modes = {0, 1, 2};
  info.udma_modes = {0, 1, 2, 3, 4};
  info.udma_active = 2;
  info.ata_major_versions = {1, 2, 3, 4};
  info.lba_sectors = 49981680;
  info.checksum = probe::Checksum::unknown;
  info.source = probe::IdentifySource::hdparm_i;
  return info;
}

results::SpaceInfo seed_space() {
  results::SpaceInfo space;
  space.dimensions = {{SettingId::multcount, {num(0), num(2), num(4), num(8), num(16)}},
                      {SettingId::io_support, {num(0), num(1), num(3)}},
                      {SettingId::unmaskirq, {num(0), num(1)}},
                      {SettingId::using_dma, {num(0), num(1)}},
                      {SettingId::xfermode, {num(11), num(12), num(32), num(33), num(34),
                                             num(64), num(65), num(66)}}};
  // (2 PIO modes with using_dma=0 + 6 DMA modes with using_dma=1) x 5 x 3 x 2.
  space.legal_count = 240;
  space.pruned = {{"udma3, udma4: no 80-wire cable reported (word 93)", 60},
                  {"DMA transfer mode with using_dma=0, or PIO mode with using_dma=1", 240}};
  space.unsupported = {
      {SettingId::scheduler, "sim: the simulated legacy IDE driver has no blk-mq queue"}};
  return space;
}

probe::Settings seed_baseline() {
  return {{SettingId::multcount, num(0)}, {SettingId::io_support, num(0)},
          {SettingId::unmaskirq, num(0)}, {SettingId::using_dma, num(0)},
          {SettingId::xfermode, num(12)}, {SettingId::readahead, num(8)}};
}

probe::Settings seed_changes() {
  return {{SettingId::using_dma, num(1)}, {SettingId::xfermode, num(66)},
          {SettingId::unmaskirq, num(1)}, {SettingId::multcount, num(16)},
          {SettingId::io_support, num(3)}};
}

std::vector<strategies::TrialResult> seed_trials(const probe::Settings& base) {
  const probe::Settings dma66{{SettingId::using_dma, num(1)}, {SettingId::xfermode, num(66)}};
  return {
      trial(1, with(base, {{SettingId::multcount, num(16)}, {SettingId::io_support, num(3)}}),
            TrialStatus::ok, {5.61, 5.66, 5.70}, 5.66, 1.59),
      trial(2, with(base, {{SettingId::using_dma, num(1)}, {SettingId::xfermode, num(34)}}),
            TrialStatus::ok, {11.80, 11.92, 12.01}, 11.92, 1.76),
      trial(3, with(base, seed_changes()), TrialStatus::ok, {14.71, 14.85, 14.93}, 14.85, 1.48),
      trial(4, with(with(base, dma66), {{SettingId::io_support, num(1)}}), TrialStatus::unstable,
            {9.10, 14.20, 14.60}, 0.0, 0.0,
            "using_dma read back as 0 after the trial (the driver turned DMA off)"),
      trial(5, with(base, {{SettingId::unmaskirq, num(1)}, {SettingId::io_support, num(3)},
                           {SettingId::multcount, num(8)}}),
            TrialStatus::hang, {}, 0.0, 0.0,
            "watchdog: trial child killed after 60 s without progress (state D)"),
      trial(6, with(base, {{SettingId::using_dma, num(1)}, {SettingId::xfermode, num(65)}}),
            TrialStatus::error, {}, 0.0, 0.0, "read at offset 1073741824: Input/output error"),
  };
}

strategies::Baseline baseline_of(probe::Settings settings, std::vector<double> samples, double median, double spread,
                                 double cached) {
  strategies::Baseline b;
  b.trial.settings = std::move(settings);
  b.trial.samples = std::move(samples);
  b.trial.median = median;
  b.trial.spread_pct = spread;
  b.cached_median_mib_s = cached;
  return b;
}

results::Report common(const char* strategy, int repeats, std::uint64_t seed) {
  results::Report report;
  report.tool_version = "0.1.0";
  report.kernel = "6.1.0-28-amd64";
  report.started_at = "2026-11-30T05:01:02Z";
  report.finished_at = "2026-11-30T05:09:47Z";
  report.strategy = strategy;
  report.repeats = repeats;
  report.seed = seed;
  report.restored = true;
  return report;
}

probe::Settings loop_baseline() {
  return {{SettingId::read_ahead_kb, num(128)}, {SettingId::scheduler, name("none")},
          {SettingId::nr_requests, num(128)}, {SettingId::max_sectors_kb, num(1280)}};
}

results::SpaceInfo loop_space() {
  results::SpaceInfo space;
  space.dimensions = {{SettingId::read_ahead_kb, {num(0), num(128), num(1024), num(4096)}},
                      {SettingId::scheduler, {name("none"), name("mq-deadline")}},
                      {SettingId::nr_requests, {num(32), num(64), num(128)}},
                      {SettingId::max_sectors_kb, {num(128), num(1280)}}};
  space.legal_count = 48;
  space.pruned = {{"max_sectors_kb above max_hw_sectors_kb (1280)", 1}};
  for (const auto id : {SettingId::multcount, SettingId::io_support, SettingId::unmaskirq,
                        SettingId::using_dma, SettingId::xfermode})
    space.unsupported.push_back(
        {id, "ioctl(HDIO_GET_" + std::string(probe::setting_name(id)) +
                 ") on /dev/loop0: Inappropriate ioctl for device"});
  return space;
}

}  // namespace

results::Report seed_report() {
  auto report = common("exhaustive", 3, 1);
  report.device = {"sim:", "IBM-DJNA-352500", "GW0GWF05809", "J51OA30K", true, "", ""};
  report.identify = seed_identify();
  report.space = seed_space();
  report.baseline = baseline_of(seed_baseline(), {3.79, 3.83, 3.88}, 3.83, 2.35, 102.40);
  report.trials = seed_trials(seed_baseline());
  report.baseline.trial.ci_low = 3.79;
  report.baseline.trial.ci_high = 3.88;
  report.baseline.trial.warmup = 3.81;
  report.baseline.aa_medians = {3.80, 3.86, 3.87};
  report.noise_floor_pct = 0.78;
  report.measured_s = 63.0;
  results::ConfirmationRound round;
  round.rounds = 6;
  round.results = {trial(0, seed_baseline(), TrialStatus::ok, {3.80, 3.84, 3.82, 3.86, 3.79, 3.83}, 3.825, 0.92),
                   trial(3, with(seed_baseline(), seed_changes()), TrialStatus::ok,
                         {14.80, 14.90, 14.84, 14.88, 14.79, 14.86}, 14.85, 0.37)};
  round.results[0].ci_low = 3.79;
  round.results[0].ci_high = 3.86;
  round.results[1].ci_low = 14.79;
  round.results[1].ci_high = 14.90;
  round.winner_trial_id = 3;
  report.confirmation = round;
  report.winner = {with(seed_baseline(), seed_changes()), seed_changes(), 14.85, 0.37,
                   14.85 / 3.825, false, 3, 14.79, 14.90, true};
  return report;
}

results::Report loop_report() {
  auto report = common("one-at-a-time", 5, 7);
  report.device = {"/dev/loop0", "", "", "", false, "",
                   "no identify data (ioctl(HDIO_GET_IDENTITY) on /dev/loop0: Invalid argument; "
                   "ioctl(SG_IO ATA_16 IDENTIFY) on /dev/loop0: Invalid argument)",
                   64u << 20, "", "/srv/images/disk.img"};
  report.space = loop_space();
  const auto base = loop_baseline();
  report.baseline = baseline_of(base, {812.4, 845.1, 850.9}, 845.1, 4.56, 9876.5);
  const probe::Settings changes{{SettingId::read_ahead_kb, num(1024)},
                                {SettingId::scheduler, name("mq-deadline")},
                                {SettingId::nr_requests, num(64)}};
  report.trials = {
      trial(1, with(base, {{SettingId::read_ahead_kb, num(1024)}}), TrialStatus::ok,
            {1010.2, 1021.7, 1030.0}, 1021.7, 1.94),
      trial(2, with(base, {{SettingId::scheduler, name("mq-deadline")}}), TrialStatus::ok,
            {840.0, 851.3, 860.2}, 851.3, 2.37),
      trial(3, with(base, changes), TrialStatus::ok, {1098.8, 1105.3, 1111.0}, 1105.3, 1.10),
      trial(4, with(base, {{SettingId::max_sectors_kb, num(128)}}), TrialStatus::ok,
            {700.5, 702.0, 719.9}, 702.0, 2.76),
  };
  report.winner = {with(base, changes), changes, 1105.3, 1.10, 1105.3 / 845.1, false, 3, 1098.8, 1111.0, false};
  return report;
}

results::Report keep_baseline_report() {
  auto report = common("random", 3, 42);
  report.device = {"/dev/sda", "WDC WD800JB-00JJC0", "WD-WMAM9AB12345", "05.01C05", false,
                   "/dev/disk/by-id/ata-WDC_WD800JB-00JJC0_WD-WMAM9AB12345", ""};
  const probe::Settings base{{SettingId::readahead, num(256)},
                             {SettingId::read_ahead_kb, num(128)},
                             {SettingId::scheduler, name("mq-deadline")}};
  report.space.dimensions = {{SettingId::read_ahead_kb, {num(128), num(1024)}},
                             {SettingId::scheduler, {name("mq-deadline"), name("bfq")}}};
  report.space.legal_count = 4;
  report.baseline = baseline_of(base, {56.2, 57.9, 58.0}, 57.9, 3.11, 4120.0);
  report.trials = {
      trial(1, with(base, {{SettingId::read_ahead_kb, num(1024)}}), TrialStatus::ok,
            {57.1, 58.4, 58.9}, 58.4, 3.08),
      trial(2, with(base, {{SettingId::scheduler, name("bfq")}}), TrialStatus::ok,
            {55.0, 56.0, 56.3}, 56.0, 2.32),
  };
  report.winner = {base, {}, 57.9, 3.11, 1.0, true, 0};
  return report;
}

results::Report by_id_report() {
  auto report = keep_baseline_report();
  const probe::Settings changes{{SettingId::readahead, num(2048)},
                                {SettingId::read_ahead_kb, num(1024)}};
  report.winner = {with(report.baseline.trial.settings, changes), changes, 58.4, 3.08, 58.4 / 57.9,
                   false, 1};
  return report;
}

}  // namespace disktune::test_support
