// SPDX-License-Identifier: GPL-2.0-or-later
// The JSON form of a Report (schema kSchemaVersion) and of its parts, with Boost.JSON.
#pragma once

#include "results/codec/settings_codec.hpp"
#include "results/emitter.hpp"
#include "results/pretty_json.hpp"
#include "results/report.hpp"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

namespace disktune::results {

/// IdentifyInfo as JSON. Contract keys (other tools read them): model, serial, firmware,
/// device_type ("ata"|"atapi"|"cfa"), max_multsect, multsect (null unless word 59 valid),
/// lba_sectors, dma_supported, lba_supported, iordy_supported, pio_modes, mdma_modes,
/// mdma_active, udma_modes, udma_active (mode-number lists; *_active a number or null),
/// cable_80wire (true/false/null), checksum ("valid"|"invalid"|"absent"|"unknown"), source
/// ("raw"|"hdparm-i"|"hdparm-I"|"live"), warnings; also iordy_can_disable, sdma_modes,
/// sdma_active, is_sata, ata_major_versions, ata_minor_version (null when not reported) and
/// features {write_cache, look_ahead, apm, aam, lba48: {supported, enabled (null = unknown)}}.
/// The raw words are not included.
boost::json::value identify_to_json(const probe::IdentifyInfo& info);

/// SpaceInfo as JSON: {dimensions: [{setting, values}], legal_count, pruned: [{reason, count}],
/// unsupported: [{setting, reason}]}.
boost::json::value space_to_json(const SpaceInfo& space);

/// The whole report (schema_version 2). Keys, in this order: schema_version, tool_version,
/// kernel, started_at, finished_at, strategy, objective {name, fio_version (null
/// unless fio measures it), engine ("hdparm-reads" | "fio"),
/// metric, unit ("MB/s" | "IOPS" | "us"), direction ("higher" | "lower": which is better),
/// score ("the figure" | "1e6 / the figure")}, method, repeats, ..., seed, options, device {path,
/// model, serial, firmware, simulated, stable_path (null if empty)}, identify (identify_to_json or
/// null), space, baseline {settings, samples, median, spread_pct, cached_median_mib_s, ci_low,
/// ci_high, outliers, warmup, aa_samples, figure} (the TrialResult codec's keys of
/// baseline.trial, cached_median_mib_s = Baseline::cached_median_mib_s (hdparm -T, MiB/s),
/// aa_samples = Baseline::aa_medians; the journal keeps the whole Baseline codec form),
/// trials [the TrialResult codec's objects plus figure], confirmation, winner {settings, changes,
/// median, spread_pct, speedup, baseline_median, figures_from, keep_baseline, trial_id, ci_low,
/// ci_high, confirmed, figure}, completed, stop_reason, restored, restore_detail, wedged,
/// wedged_detail, integrity_note. samples, median, ci_low, ci_high and warmup are the objective's
/// scores (higher is better; for seq-read MiB/s, as schema 1's *_mib_s keys); `figure` {median,
/// ci_low, ci_high, unit} gives the same median and interval in the objective's unit. Spreads in
/// percent. `changes` is persisted_changes(report): winner.changes less anything equal to the
/// baseline. Source: README "Report".
boost::json::value to_json(const Report& report);

/// Emitter of pretty_json(to_json(report)) (registry name "json").
class JsonEmitter : public Emitter {
 public:
  [[nodiscard]] std::string render(const Report& report) const override;
};

}  // namespace disktune::results
