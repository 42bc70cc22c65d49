// SPDX-License-Identifier: GPL-2.0-or-later
// Report: the plain record of one tuning run, rendered by the JSON, boot.local and table emitters.
#pragma once

#include "bench/objective.hpp"

#include "probe/device.hpp"
#include "probe/identify/identify.hpp"
#include "probe/settings.hpp"
#include "strategies/baseline.hpp"
#include "strategies/trial.hpp"
#include "strategies/winner_rule.hpp"

#include <boost/json/object.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace disktune::results {

/// JSON report schema version; bump on any incompatible change (README documents it).
inline constexpr int kSchemaVersion = 3;

/// The device as the report names it.
struct DeviceInfo {
  std::string path;      ///< as given ("/dev/loop0", "sim:")
  std::string model;     ///< identify words 27-46, empty when the device has no identify
  std::string serial;
  std::string firmware;
  bool simulated = false;
  std::string stable_path;  ///< /dev/disk/by-id/... when the system has one, else empty
  /// Why the device has no identify data ("no identify data (ioctl(HDIO_GET_IDENTITY) on
  /// /dev/vdb: ...; ioctl(SG_IO ATA_16 IDENTIFY) on /dev/vdb: ...)"); empty when it has some.
  std::string identify_note;
  /// The drive's stable identity beside model, serial and firmware (schema 3), what `apply`
  /// and `verify` find it by: size, the kernel's wwid (empty when none) and, for a loop
  /// device, its backing file (probe::loop_backing_file; empty otherwise).
  std::uint64_t size_bytes = 0;
  std::string wwid{};
  std::string backing_file{};
  /// The FUSE mount type behind a loop device's backing file ("fuse.emudisk"; probe::
  /// tuner::loop_emulation): a timing model behind the real kernel, EMULATED. Empty for
  /// hardware and for a SIMULATED drive.
  std::string emulated_by{};
  /// What a loop device's figures reflect of its backing file (tuner::page_cache_note): memory
  /// (tmpfs), the page cache (loop/dio 0), a cgroup's read cap (the throttled test bed), or the
  /// device stacked on another loop device's; empty for other devices and a SIMULATED drive.
  std::string backing_note{};
};

/// What every output calls a device that is not hardware: "SIMULATED" (the in-process model),
/// "EMULATED" (a timing model behind the real kernel's block layer), "" for hardware.
inline std::string device_kind(bool simulated, bool emulated) {
  return simulated ? "SIMULATED" : emulated ? "EMULATED" : "";
}
inline std::string device_kind(const DeviceInfo& device) {
  return device_kind(device.simulated, !device.emulated_by.empty());
}

/// One dimension of the search space as reported.
struct DimensionInfo {
  probe::SettingId id;
  std::vector<probe::SettingValue> values;  ///< legal values tried by the search
};

/// Values left out of the space, counted per stated reason.
struct PrunedCount {
  std::string reason;
  std::size_t count = 0;
};

/// A setting the driver refuses (never written to a snippet).
struct UnsupportedSetting {
  probe::SettingId id;
  std::string reason;
};

/// The legal space.
struct SpaceInfo {
  std::vector<DimensionInfo> dimensions;
  std::size_t legal_count = 0;      ///< legal full configurations
  std::vector<PrunedCount> pruned;
  std::vector<UnsupportedSetting> unsupported;
};

/// The confirmation round: the baseline and the finalists re-measured interleaved.
struct ConfirmationRound {
  int rounds = 0;                                ///< samples per contender (each after a warm-up)
  std::vector<strategies::TrialResult> results;  ///< [0] the baseline (id 0), then finalists (their trial ids)
  int winner_trial_id = 0;                       ///< 0 = keep the baseline
  double noise_pct = 0.0;           ///< the noise between its own trials (strategies::round_noise) [%]
  double gain_threshold_pct = 0.0;  ///< the gain it judged by (strategies::round_threshold) [%]
};

/// The chosen configuration. When nothing beat the baseline, keep_baseline is true,
/// settings == baseline settings and changes is empty.
struct Winner {
  probe::Settings settings;
  probe::Settings changes;           ///< only what differs from the baseline
  double median = 0.0;               ///< its median score (the objective's score unit)
  double spread_pct = 0.0;
  double speedup = 1.0;              ///< winner median / baseline median (scores)
  bool keep_baseline = false;
  int trial_id = 0;                  ///< the trial it came from; 0 = baseline
  double ci_low = 0.0;               ///< 95 % interval of its median score, from the confirmation round
  double ci_high = 0.0;
  bool confirmed = false;            ///< decided in a confirmation round
  /// A faster-by-median candidate it tied with and won against by being simpler
  /// (strategies::tie_break); JSON "tie", present only then.
  std::optional<strategies::TieBreak> tie{};
  /// The confirmation round's finalists it was not separated from after the round's last
  /// pass (strategies::unseparated_from): either reads as fast within the noise. JSON
  /// "unseparated", [] when none.
  std::vector<strategies::Unseparated> unseparated{};
};

/// Everything one `disktune tune` run produced.
struct Report {
  int schema_version = kSchemaVersion;
  std::string tool_version;
  std::string kernel;            ///< uname -r
  std::string started_at;        ///< ISO 8601 UTC, e.g. "2026-11-30T05:01:02Z"
  std::string finished_at;
  std::string strategy;
  /// What every figure measures: the objective (bench/objective.hpp). Every median, interval and
  /// sample of the trials is its score (higher is better); the report adds the figures in its
  /// unit (json_report.hpp).
  bench::Objective objective = bench::parse_objective("seq-read", "").value();
  std::string fio_version;       ///< "fio-3.33" when the objective is measured by fio; else empty
  /// The guard objective (`--objective A,B`: B), whose figures each trial's `guard` holds;
  /// nullopt: none (the report then has no guard keys at all).
  std::optional<bench::Objective> guard;
  double tolerance = 0.05;       ///< --tolerance, a fraction: the guard's allowed shortfall
  std::string method = "buffered";  ///< benchmark method of every median in the report
  int repeats = 3;               ///< first samples per configuration
  int max_repeats = 10;          ///< adaptive sampling's maximum
  /// Every trial took max_repeats samples: the noise between the baseline's trials was above
  /// the minimum gain (docs/statistics.md "Noise floor"). JSON "all_samples", added within schema 3.
  bool all_samples = false;
  /// The noise between repeated measurements of one configuration: relative spread
  /// (max - min) / median of the baseline's trial medians (baseline.aa_samples), percent.
  double noise_floor_pct = 0.0;
  /// The noise is larger than the smallest gain the winner rule accepts (2 %) even with
  /// --max-repeats samples per trial, and no configuration beat it: the answer is not a
  /// measured "keep the baseline" (exit 6).
  bool too_noisy = false;
  std::string noise_detail;      ///< the noise figures and what to do when it is too large; else empty
  /// Measurement time of everything measured: the baseline and its noise repeats, the
  /// search's trials and the confirmation round [s; virtual when simulated].
  double measured_s = 0.0;
  double wall_s = 0.0;           ///< wall time of the run, start to report, a resumed run's before it included [s]
  std::uint64_t seed = 1;
  /// Every option that shapes a measurement (duration_s, repeats, max_repeats, method,
  /// chunk_bytes, drop_behind_bytes, confirm_rounds, strategy, seed) and the command line,
  /// as the journal's start record keeps them (tuner::measurement_options).
  boost::json::object options;
  DeviceInfo device;
  std::optional<probe::IdentifyInfo> identify;
  SpaceInfo space;
  /// The settings as found, measured (trial.settings: the original settings); the JSON
  /// report shows a part of it (json_report.hpp).
  strategies::Baseline baseline;
  std::vector<strategies::TrialResult> trials;
  std::optional<ConfirmationRound> confirmation;  ///< nullopt when no finalist beat the baseline
  /// Why the confirmation round was skipped (it was in flight at a reboot, or twice when the
  /// process died): the winner is then the search's best, unconfirmed. Empty otherwise.
  std::string confirmation_skipped;
  Winner winner;
  bool completed = true;         ///< the search ran to its end (false: interrupted or failed)
  /// The settings the search never tried in any trial (the budget, --max-trials or a stop
  /// ended it first), by name in apply order: the answer says nothing about them. Empty when
  /// every setting was tried (the JSON report then leaves "unscreened" out).
  std::vector<std::string> unscreened;
  /// The settings whose values made a difference beyond the noise in the search (two
  /// measurements differing in their group alone, one significantly faster than the other:
  /// strategies::acted_settings), by name in group order; empty when none did.
  std::vector<std::string> acting;
  std::string stop_reason;       ///< why it did not complete (empty when completed)
  bool restored = false;         ///< original settings put back and read back
  std::string restore_detail;    ///< why not, when restored is false
  bool wedged = false;           ///< a trial child stayed in uninterruptible sleep (state D) after
                                 ///< SIGKILL: the run stopped and did not touch the device again
  std::string wedged_detail;     ///< pid, state and trial of the wedged child; empty when not wedged
  /// Why data checksums were not compared with the baseline's (the data is in use: its file
  /// system writes to it), and what evidence remains; empty when they were compared.
  std::string integrity_note;
};

}  // namespace disktune::results
