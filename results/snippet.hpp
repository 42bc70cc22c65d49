// SPDX-License-Identifier: GPL-2.0-or-later
// Pieces every persisted snippet shares: the safe device target, the header comment, values.
#pragma once

#include "results/report.hpp"

#include <string>
#include <string_view>

namespace disktune::results {

/// Where a snippet points. Every field passed check_device_path / check_kernel_name.
struct SnippetTarget {
  /// Device node for hdparm: the /dev/disk/by-id path when known, else the path as given;
  /// for a simulated drive the seed's "/dev/hdb" (path "sim:") or the placeholder "/dev/hdX".
  std::string hdparm_device;
  /// Kernel name for /sys/block/NAME and udev KERNEL== ("loop0", "sda", "hdb"): the last
  /// component of the path as given (tuner/ records the resolved node there).
  std::string kernel_name;
  /// /dev/disk/by-id/... or empty (docs/ata-reference.md §6.5: persist by-id, resolve at apply time).
  std::string stable_path;
};

/// The target of `device`. Throws std::invalid_argument when a path or name has a character
/// outside [A-Za-z0-9/_.:+-], a device path does not start with '/', or a kernel name is
/// empty, "." or ".." (such text must never reach a shell script or a udev rule).
SnippetTarget snippet_target(const DeviceInfo& device);

/// Throws std::invalid_argument unless `path` is '/' followed by [A-Za-z0-9/_.:+-].
void check_device_path(std::string_view path);
/// Throws std::invalid_argument unless `name` is [A-Za-z0-9_.:+-]+ and not "." or "..".
void check_kernel_name(std::string_view name);
/// Throws std::invalid_argument unless `name` is a plausible I/O scheduler name, [a-z0-9_-]+
/// (the kernel's elevator names: none, mq-deadline, kyber, bfq).
void check_scheduler_name(std::string_view name);


/// How each configuration was sampled: "median of 3-10 samples (adaptive)", "median of 3
/// samples" when repeats and max_repeats agree; when all_samples (report.hpp; bench/adaptive.hpp:
/// no stop for precision) "median of 10 samples (every trial: ...)", or "median of up to 10
/// samples (10 unless a trial was clearly slower or showed no gain: ...)" when an ok trial of
/// report.trials took fewer.
std::string sampling_text(const Report& report);

/// What the figures measure, for titles and headers: "buffered reads" (seq-read), else
/// "objective rand-read-iops (fio iops, IOPS, higher is better)"; on a simulated drive
/// "(the model's iops, ...)", since no fio runs there.
std::string measured_text(const Report& report);

/// Header comment lines ("# ...", newline-terminated) for a snippet called `title`
/// ("boot.local snippet"): generator and version, date (finished_at), SIMULATED warning when
/// the drive is simulated, device identity, baseline and winner with spread and speedup,
/// method, repeats, strategy and seed.
std::string snippet_header(const Report& report, std::string_view title);

/// The baseline figure an answer is quoted against, and where both it and the winner's
/// figures come from: the confirmation round's baseline when the winner was decided in one
/// (the winner's median and speedup then come from that round too, report.hpp), else the
/// search's baseline. One source per quantity for the table, the snippets and the report.
struct AnswerBaseline {
  double median = 0.0;  ///< the baseline's median score
  double spread_pct = 0.0;
  std::string_view source;  ///< "confirmation round" or "search"
  /// False when the baseline was never measured (a run stopped during it): median is then
  /// no figure, and the table and snippets say "not measured" instead of a 0.
  [[nodiscard]] bool measured() const { return median > 0.0; }
};
AnswerBaseline answer_baseline(const Report& report);

/// The stop_reason of a run asked for its baseline only (`tune --max-trials 0`).
inline constexpr std::string_view kBaselineOnlyNote =
    "baseline only (--max-trials 0): the baseline and its noise measured, no configuration tried";
/// True for a completed run that tried no configuration (`--max-trials 0`): it has no answer,
/// neither a winner nor "keep the baseline".
bool baseline_only(const Report& report);

/// The settings a snippet must persist: report.winner.changes without any entry equal to its
/// baseline value (defensive: a change that changes nothing is never written); none when
/// keep_baseline.
probe::Settings persisted_changes(const Report& report);

/// What a snippet writes (SnippetStart::changes): persisted_changes, the coupled
/// using_dma/xfermode partner, and at the winner's value only the queue settings a written one
/// moves or needs: after a scheduler switch nr_requests and the new scheduler's tunables that
/// are not at the kernel's default; after max_sectors_kb, read_ahead_kb; before a scheduler
/// tunable, its scheduler.
probe::Settings snippet_settings(const Report& report);

/// Comment lines (each "# ...\n") naming the settings in `written` (SnippetStart::changes) that
/// the winner left unchanged, at their values, and why they are written: the DMA/transfer-mode
/// partner (set together), and the queue settings coupled to a change (snippet_settings).
/// Empty when there are none. Above the writes.
std::string rewritten_comment(const Report& report, const probe::Settings& written);

/// The common start of every snippet emitter.
struct SnippetStart {
  SnippetTarget target;
  /// snippet_settings(report): the changes and only the settings coupled to them.
  /// Emitters write these in apply order (probe::in_apply_order).
  probe::Settings changes;
  /// snippet_header; when `complete`, followed by comment lines saying why nothing is
  /// applied: the baseline is kept (with the best stable trial and how far it was from the
  /// baseline, or that no trial finished stable), or the winner changes nothing.
  std::string text;
  bool complete = false;  ///< nothing to apply: `text` is the whole snippet
};

/// snippet_target, snippet_header and persisted_changes of `report` in one step.
/// Throws std::invalid_argument as snippet_target does.
SnippetStart start_snippet(const Report& report, std::string_view title);

}  // namespace disktune::results
