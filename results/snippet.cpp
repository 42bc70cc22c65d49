// SPDX-License-Identifier: GPL-2.0-or-later
// Safe device targets, header comments and value formats shared by the snippet emitters.
#include "results/snippet.hpp"

#include "bench/objective.hpp"
#include "probe/core/text.hpp"
#include "results/guard_text.hpp"
#include "results/hdparm_flags.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/guard.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace disktune::results {
namespace {

bool is_path_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         c == '/' || c == '_' || c == '.' || c == ':' || c == '+' || c == '-';
}

bool only_path_chars(std::string_view text) {
  for (const char c : text)
    if (!is_path_char(c)) return false;
  return true;
}

[[noreturn]] void reject(std::string_view what, std::string_view text) {
  throw std::invalid_argument(std::string(what) + " '" + probe::one_line(text) +
                              "' is not safe to write into a script or rule");
}

std::string base_name(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string device_line(const DeviceInfo& device) {
  std::string line = "# device: " + probe::one_line(device.path);
  if (device.simulated) line += " (simulated)";
  if (!device.emulated_by.empty()) line += " (EMULATED: " + probe::one_line(device.emulated_by) + ")";
  if (device.model.empty()) return line + ", no identify data\n";
  line += ", model " + probe::one_line(device.model) + ", serial " + probe::one_line(device.serial) +
          ", firmware " + probe::one_line(device.firmware) + '\n';
  if (!device.stable_path.empty()) line += "# stable name: " + probe::one_line(device.stable_path) + '\n';
  return line;
}

std::string measured_line(const Report& report, const char* label, double median, double spread) {
  return std::string("# ") + label + bench::format_figure(report.objective, median) + " (spread " +
         probe::printf_number("%.1f", spread) + " %)";
}

std::string result_lines(const Report& report) {
  const AnswerBaseline baseline = answer_baseline(report);
  const std::string from = " [" + std::string(baseline.source) + "]";
  std::string text = (baseline.measured() ? measured_line(report, "baseline: ", baseline.median, baseline.spread_pct)
                                           : std::string("# baseline: not measured")) + from + '\n';
  // Too noisy is no measured answer: it must not read as "keep the baseline" (exit 6).
  if (report.too_noisy)
    return text + "# result:   too noisy for an answer (no configuration beat the noise): none recommended\n";
  // A stopped run has no answer either: neither "keep the baseline" nor its best so far.
  if (!report.completed) return text + "# result:   none: the run stopped before it completed\n";
  if (baseline_only(report)) return text + "# result:   none: " + std::string(kBaselineOnlyNote) + "\n";
  if (report.winner.keep_baseline)
    return text + "# result:   keep the baseline (no configuration was significantly faster)\n";
  return text + measured_line(report, "winner:   ", report.winner.median,
                              report.winner.spread_pct) +
         ", " + probe::printf_number("%.2fx", report.winner.speedup) + " the baseline (trial " +
         std::to_string(report.winner.trial_id) + ")" + from + "\n";
}

// True when `trial` fails the guard objective (`--objective A,B`): no candidate, whatever A says.
bool fails_guard(const Report& report, const strategies::TrialResult& trial) {
  return report.guard && strategies::fails_guard(trial, report.baseline.trial, report.tolerance);
}

// The fastest ok trial; with `within_guard`, the fastest of those that pass the guard.
const strategies::TrialResult* best_stable_trial(const Report& report, bool within_guard) {
  const strategies::TrialResult* best = nullptr;
  for (const auto& trial : report.trials)
    if (trial.status == strategies::TrialStatus::ok && !(within_guard && fails_guard(report, trial)) &&
        (best == nullptr || trial.median > best->median))
      best = &trial;
  return best;
}

// A trial faster than every stable one within the guard but failing it: named with its guard
// figures, never offered as the best stable trial ("" when there is none).
std::string guard_failed_comment(const Report& report, const strategies::TrialResult* best_within) {
  const auto* fastest = best_stable_trial(report, false);
  if (fastest == nullptr || fastest == best_within || !fails_guard(report, *fastest)) return "";
  return "# Trial " + std::to_string(fastest->id) + " (" +
         probe::one_line(describe_changes(changed_settings(fastest->settings, report.baseline.trial.settings))) +
         ") measured " + bench::format_figure(report.objective, fastest->median) + " but failed the " +
         probe::one_line(guard_note(*report.guard, *fastest, report.baseline.trial, report.tolerance)) +
         ": no candidate.\n";
}

// The confirmation round's result for search trial `id`, or nullptr when it took no part.
const strategies::TrialResult* confirmed_result(const Report& report, int id) {
  if (!report.confirmation) return nullptr;
  for (const auto& result : report.confirmation->results)
    if (result.id == id && result.status == strategies::TrialStatus::ok) return &result;
  return nullptr;
}

// Why the best stable trial is not the answer: its search figure against the search
// baseline, and, when it was a finalist, the round's figures that decided.
std::string keep_baseline_comment(const Report& report) {
  std::string text = "# Keeping the baseline: nothing to apply.\n";
  const auto* best = best_stable_trial(report, true);
  text += guard_failed_comment(report, best);
  if (best == nullptr)
    return text + (best_stable_trial(report, false) ? "# No stable trial passed the guard (see the JSON report).\n"
                                                    : "# No trial finished stable (see the JSON report).\n");
  const double baseline = report.baseline.trial.median;
  // The change of the figure itself: a latency 5 % lower reads "-5.0 %", never "+5.3 %" (its score's gain).
  const double base_figure = bench::figure_of(report.objective, baseline);
  const double change_pct =
      base_figure > 0.0 ? (bench::figure_of(report.objective, best->median) / base_figure - 1.0) * 100.0 : 0.0;
  const bool lower = report.objective.direction == bench::Direction::lower;
  const auto changes = changed_settings(best->settings, report.baseline.trial.settings);
  text += std::string(report.guard ? "# The best stable trial within the guard (" : "# The best stable trial (") +
          std::to_string(best->id) + ": " +
          probe::one_line(describe_changes(changes)) + ") measured " + bench::format_figure(report.objective, best->median) +
          " in the search\n# (" + probe::printf_number("%+.1f", change_pct) +
          " % against the search baseline" + (lower ? ", lower is better" : "");
  // Every trial slower than the baseline: say so, not "within the noise" (-88.7 % was printed so).
  if (best->median <= baseline) return text + "): no trial was faster than the baseline.\n";
  const auto* confirmed = confirmed_result(report, best->id);
  const AnswerBaseline round = answer_baseline(report);
  if (confirmed != nullptr && round.source == "confirmation round")
    return text + "); in the confirmation round it measured\n# " + bench::format_figure(report.objective, confirmed->median) +
           " against the baseline's " + bench::format_figure(report.objective, round.median) +
           ": not significantly faster.\n";
  // The winner rule's reason, as it judged: a gain below its threshold (the larger of the
  // minimum gain and the noise floor), else intervals that overlap.
  const double threshold_pct = std::max(100.0 * strategies::EvaluatorOptions{}.min_gain, report.noise_floor_pct);
  const double gain_pct = lower ? (base_figure / bench::figure_of(report.objective, best->median) - 1.0) * 100.0 : change_pct;
  if (gain_pct <= threshold_pct)
    return text + "), below the " + probe::printf_number("%.1f", threshold_pct) +
           " % a gain must exceed\n# (the larger of the minimum gain and the noise floor).\n";
  return text + "), its interval overlapping the baseline's (baseline spread " +
         probe::printf_number("%.1f", report.baseline.trial.spread_pct) + " %,\n# trial spread " +
         probe::printf_number("%.1f", best->spread_pct) + " %).\n";
}

}  // namespace

bool baseline_only(const Report& report) {
  return report.completed && report.trials.empty() && report.stop_reason == kBaselineOnlyNote;
}

AnswerBaseline answer_baseline(const Report& report) {
  if (report.winner.confirmed && report.confirmation && !report.confirmation->results.empty()) {
    const auto& base = report.confirmation->results.front();
    if (base.status == strategies::TrialStatus::ok && base.median > 0.0)
      return {base.median, base.spread_pct, "confirmation round"};
  }
  return {report.baseline.trial.median, report.baseline.trial.spread_pct, "search"};
}

void check_device_path(std::string_view path) {
  if (path.size() < 2 || path.front() != '/' || !only_path_chars(path)) reject("device path", path);
}

void check_kernel_name(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos ||
      !only_path_chars(name))
    reject("kernel device name", name);
}

void check_scheduler_name(std::string_view name) {
  bool ok = !name.empty();
  for (const char c : name)
    ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-');
  if (!ok) reject("scheduler name", name);
}

SnippetTarget snippet_target(const DeviceInfo& device) {
  SnippetTarget target;
  if (device.simulated) {
    // The seed walkthrough tuned its drive as /dev/hdb; other simulated drives get a
    // placeholder. The header says SIMULATED either way.
    target.hdparm_device = device.path == "sim:" ? "/dev/hdb" : "/dev/hdX";
  } else {
    target.stable_path = device.stable_path;
    target.hdparm_device = device.stable_path.empty() ? device.path : device.stable_path;
  }
  target.kernel_name = base_name(device.simulated ? target.hdparm_device : device.path);
  check_device_path(target.hdparm_device);
  if (!target.stable_path.empty()) check_device_path(target.stable_path);
  check_kernel_name(target.kernel_name);
  return target;
}

std::string sampling_text(const Report& report) {
  // A built-in percentile pools its samples' completions (bench/latency_pool.hpp).
  const std::string what = bench::percentile_completions(report.objective)
                               ? std::string(bench::to_string(report.objective.metric)) + " of the completions of "
                               : "median of ";
  if (report.max_repeats <= report.repeats)
    return what + std::to_string(report.repeats) + (report.repeats == 1 ? " sample" : " samples");
  // The run said "taking 10 samples per trial (--max-repeats)": "3-10 (adaptive)" contradicted
  // it. Yet a trial clearly slower, or with no gain, still stops sooner ("1 sample" in its row).
  if (report.all_samples) {
    const auto stopped_sooner = [&](const strategies::TrialResult& trial) {
      return trial.status == strategies::TrialStatus::ok && trial.samples.size() < static_cast<std::size_t>(report.max_repeats);
    };
    const std::string n = std::to_string(report.max_repeats);
    if (std::none_of(report.trials.begin(), report.trials.end(), stopped_sooner))
      return what + n + " samples (every trial: the baseline's noise was above the minimum gain)";
    return what + "up to " + n + " samples (" + n + " unless a trial was clearly slower or showed no gain: the "
                                 "baseline's noise was above the minimum gain)";
  }
  return what + std::to_string(report.repeats) + "-" + std::to_string(report.max_repeats) + " samples (adaptive)";
}

std::string measured_text(const Report& report) {
  const auto& objective = report.objective;
  if (objective.engine == bench::Engine::hdparm_reads) return probe::one_line(report.method) + " reads";
  // No fio runs on a simulated drive: its figures are the model's.
  const std::string engine = report.device.simulated ? "the model's " : "fio ";
  return "objective " + probe::one_line(objective.name) + " (" + engine + std::string(bench::to_string(objective.metric)) +
         ", " + std::string(bench::unit_of(objective)) + ", " + std::string(bench::to_string(objective.direction)) +
         " is better)";
}


std::string snippet_header(const Report& report, std::string_view title) {
  std::string text = "# " + std::string(title) + " generated by disktune " +
                     probe::one_line(report.tool_version) + " on " +
                     probe::one_line(report.finished_at) + '\n';
  if (report.device.simulated) text += "# SIMULATED drive: do not apply to real hardware.\n";
  if (!report.device.emulated_by.empty())
    text += "# EMULATED drive (a timing model behind a FUSE file, " + probe::one_line(report.device.emulated_by) +
            "): measured through the kernel, not on hardware.\n";
  if (!report.device.backing_note.empty()) text += "# note: " + probe::one_line(report.device.backing_note) + '\n';
  text += device_line(report.device) + result_lines(report);
  text += "# measured: " + measured_text(report) + ", " + sampling_text(report) + "; strategy " +
          probe::one_line(report.strategy) + ", seed " + std::to_string(report.seed) + '\n';
  return text;
}

probe::Settings persisted_changes(const Report& report) {
  if (report.winner.keep_baseline) return {};
  return changed_settings(report.winner.changes, report.baseline.trial.settings);
}

// DMA on/off and the transfer mode are one decision (a DMA mode runs only with using_dma=1):
// when either changed, the snippet sets both, so a boot with another BIOS-chosen mode still
// reproduces what was measured (the seed's form: hdparm -X66 -d1 ...).
void add_transfer_partner(const Report& report, probe::Settings& settings) {
  const bool transfer_changed =
      settings.count(probe::SettingId::using_dma) || settings.count(probe::SettingId::xfermode);
  if (!transfer_changed) return;
  for (const auto id : {probe::SettingId::using_dma, probe::SettingId::xfermode})
    if (const auto it = report.winner.settings.find(id); it != report.winner.settings.end())
      settings.emplace(id, it->second);
}

// The winner's value of `id`: searched, or held at the baseline's.
const probe::SettingValue* winner_value(const Report& report, probe::SettingId id) {
  if (const auto it = report.winner.settings.find(id); it != report.winner.settings.end()) return &it->second;
  if (const auto it = report.baseline.trial.settings.find(id); it != report.baseline.trial.settings.end()) return &it->second;
  return nullptr;
}

// The settings a write of a changed one moves, written again after it at the winner's value,
// only where that coupling applies: a scheduler switch resets nr_requests and the new
// scheduler's tunables (to the kernel's defaults: a tunable the winner holds at its default
// needs no line); a max_sectors_kb write can move read_ahead_kb (raised on some kernels,
// recomputed with every queue-limits update on others); a scheduler tunable exists only under
// its scheduler, so its scheduler line comes first (naming the active scheduler again changes
// nothing). A setting no written one moves is not written.
void add_coupled_queue_settings(const Report& report, probe::Settings& settings) {
  using probe::SettingId;
  const auto add = [&](SettingId id) {
    if (settings.count(id) || !probe::applicable(id, report.winner.settings)) return;
    if (const auto* value = winner_value(report, id)) settings.emplace(id, *value);
  };
  if (settings.count(SettingId::scheduler)) {
    add(SettingId::nr_requests);
    for (const auto id : probe::all_settings())
      if (probe::is_scheduler_tunable(id))
        if (const auto* value = winner_value(report, id); value && *value != probe::tunable_default(id)) add(id);
  }
  if (settings.count(SettingId::max_sectors_kb))
    add(report.winner.settings.count(SettingId::read_ahead_kb) || report.baseline.trial.settings.count(SettingId::read_ahead_kb)
            ? SettingId::read_ahead_kb
            : SettingId::readahead);
  const bool tunable = std::any_of(settings.begin(), settings.end(),
                                   [](const auto& entry) { return probe::is_scheduler_tunable(entry.first); });
  if (tunable) add(SettingId::scheduler);
}

probe::Settings snippet_settings(const Report& report) {
  auto settings = persisted_changes(report);
  add_transfer_partner(report, settings);
  add_coupled_queue_settings(report, settings);
  return settings;
}

std::string rewritten_comment(const Report& report, const probe::Settings& written) {
  const auto changed = persisted_changes(report);
  std::string text;
  // DMA and the transfer mode are one decision (add_transfer_partner): the unchanged half is
  // written so that a boot with another mode chosen still gets the measured pair.
  for (const auto id : {probe::SettingId::using_dma, probe::SettingId::xfermode})
    if (const auto it = written.find(id); it != written.end() && !changed.count(id))
      text += "# also written, unchanged: " + std::string(probe::setting_name(id)) + "=" +
              probe::one_line(probe::format_value(id, it->second)) +
              " (DMA and the transfer mode are set together, as measured: a DMA mode runs only with DMA on)\n";
  std::string names;
  for (const auto& [id, value] : probe::in_apply_order(written))
    if (!probe::setting_info(id).sysfs_attr.empty() && !changed.count(id))
      names += (names.empty() ? "" : " ") + std::string(probe::setting_name(id)) + "=" +
               probe::one_line(probe::format_value(id, value));
  if (names.empty()) return text;
  return text + "# also written, unchanged, at their measured values: " + names +
         "\n# (coupled to a change: a scheduler switch resets nr_requests and its tunables, a\n"
         "# max_sectors_kb write can move read_ahead_kb, a scheduler tunable needs its scheduler)\n";
}

SnippetStart start_snippet(const Report& report, std::string_view title) {
  SnippetStart start{snippet_target(report.device), snippet_settings(report),
                     snippet_header(report, title), true};
  if (report.too_noisy) {  // a finished run (exit 6), not a stopped one: it has no answer either
    start.text += "# Too noisy for an answer (" + probe::one_line(report.noise_detail) +
                  "): no configuration beat the noise; no settings are recommended.\n";
    start.changes.clear();
  } else if (!report.completed) {
    start.text += "# The run stopped before it completed (" + probe::one_line(report.stop_reason) +
                  "): no settings are recommended.\n";
    start.changes.clear();
  } else if (baseline_only(report))
    start.text += "# Nothing to apply: no configuration was tried.\n";
  else if (report.winner.keep_baseline)
    start.text += keep_baseline_comment(report);
  else if (start.changes.empty())
    start.text += "# The winner changes nothing: nothing to apply.\n";
  else
    start.complete = false;
  return start;
}

}  // namespace disktune::results
