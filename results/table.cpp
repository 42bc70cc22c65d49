// SPDX-License-Identifier: GPL-2.0-or-later
// The terminal table: rows of cells, column widths from the widest cell, a summary line.
#include "results/table.hpp"

#include "probe/core/text.hpp"
#include "results/guard_text.hpp"
#include "results/snippet.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

namespace disktune::results {
namespace {

constexpr std::size_t kColumns = 7;
constexpr std::size_t kDetailChars = 40;
using Row = std::array<std::string, kColumns>;
// Numbers (both figures, spread) align right; the mark+id column too.
constexpr std::array<bool, kColumns> kRightAligned{true, false, true, true, true, false, false};

std::size_t code_points(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string truncate(std::string_view text, std::size_t limit) {
  if (code_points(text) <= limit) return std::string(text);
  std::string out;
  std::size_t points = 0;
  for (const char c : text) {
    if ((c & 0xC0) != 0x80 && ++points > limit - 3) break;
    out += c;
  }
  return out + "...";
}

// The guard objective's figure column, a column of its own so that both figures align
// whatever their widths: B's figure, "-" for a trial without one.
std::string guard_cell(const strategies::TrialResult& trial, const Report& report) {
  if (!report.guard) return "";
  return trial.guard ? bench::figure_number(*report.guard, trial.guard->median) : "-";
}

std::string guard_header(const Report& report) {
  return report.guard ? report.guard->name + " " + std::string(bench::unit_of(*report.guard)) : "";
}

// The detail column: the trial's detail cut to kDetailChars, or with a guard objective the
// guard's note whole (its figures and the tolerance are the reason the trial lost).
std::string detail_cell(const strategies::TrialResult& trial, const Report& report) {
  if (!trial.detail.empty()) return truncate(probe::one_line(trial.detail), kDetailChars);
  if (!report.guard) return "";
  return probe::one_line(guard_note(*report.guard, trial, report.baseline.trial, report.tolerance));
}

// The row the summary line quotes carries the mark: the confirmation round's when the
// winner was decided there, else the search's.
Row trial_row(const strategies::TrialResult& trial, const Report& report, bool marked) {
  const bool ok = trial.status == strategies::TrialStatus::ok;
  return {std::string(marked ? "* " : "") + (trial.id == 0 ? "base" : std::to_string(trial.id)),
          std::string(strategies::to_string(trial.status)),
          ok ? bench::figure_number(report.objective, trial.median) : "-",
          ok ? guard_cell(trial, report) : report.guard ? "-" : "",
          ok ? spread_text(trial) : "-",
          trial.id == 0 ? "(settings as found)"
                        : describe_changes(changed_settings(trial.settings, report.baseline.trial.settings)),
          detail_cell(trial, report)};
}

bool quotes_confirmation(const Report& report) { return answer_baseline(report).source == "confirmation round"; }

// A stopped or too-noisy run has no answer: no row is marked (the summary says none is recommended).
bool is_answer(int id, const Report& report) {
  if (!report.completed || report.too_noisy || baseline_only(report)) return false;  // --max-trials 0: no answer
  return report.winner.keep_baseline ? id == 0 : id == report.winner.trial_id;
}


std::vector<Row> search_rows(const Report& report) {
  const bool marks = !quotes_confirmation(report);
  std::vector<Row> table{Row{"trial", "status", std::string(bench::unit_of(report.objective)), guard_header(report),
                             "spread", "changes vs baseline", "detail"}};
  // A baseline the run stopped before measuring has no figure: never a 0.
  const bool measured = report.baseline.trial.median > 0.0;
  table.push_back({std::string(marks && measured && is_answer(0, report) ? "* " : "") + "base", measured ? "ok" : "-",
                   measured ? bench::figure_number(report.objective, report.baseline.trial.median) : "not measured",
                   measured ? guard_cell(report.baseline.trial, report) : report.guard ? "-" : "",
                   measured ? spread_text(report.baseline.trial) : "-", "(settings as found)", ""});
  for (const auto& trial : report.trials) table.push_back(trial_row(trial, report, marks && is_answer(trial.id, report)));
  return table;
}

// The confirmation round's figures, one row per contender (the search trial's id).
std::vector<Row> confirmation_rows(const Report& report) {
  std::vector<Row> table;
  if (!report.confirmation) return table;
  const bool marks = quotes_confirmation(report);
  for (const auto& trial : report.confirmation->results)
    table.push_back(trial_row(trial, report, marks && is_answer(trial.id, report)));
  return table;
}

// A row at `widths`; a column of width 0 (the guard's without one) is left out with its gap.
std::string render_row(const Row& row, const std::array<std::size_t, kColumns>& widths) {
  std::string line;
  for (std::size_t i = 0; i < kColumns; ++i) {
    if (widths[i] == 0) continue;
    const std::string pad(widths[i] - code_points(row[i]), ' ');
    line += (i == 0 ? "" : "  ") + (kRightAligned[i] ? pad + row[i] : row[i] + pad);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line + '\n';
}

std::string title(const Report& report) {
  const auto& device = report.device;
  std::string text = "disktune " + probe::one_line(report.tool_version) + ": " + probe::one_line(device.path);
  if (!device.model.empty()) text += " " + probe::one_line(device.model);
  if (const auto kind = device_kind(device); !kind.empty()) text += " (" + kind + " drive)";
  return text + ", strategy " + probe::one_line(report.strategy) + ", " + measured_text(report) + ", " +
         sampling_text(report) + "\n";
}

// "confirmation round (6 interleaved rounds, ...)", and the extra passes the round took when
// a pass could not separate its contenders: each pass is `rounds` samples more per contender.
// The passes are counted from the contender measured longest: a baseline far behind every
// finalist is left out after the round's first call (strategies::confirm).
std::string confirmation_heading(const ConfirmationRound& round) {
  std::size_t samples = 0;
  for (const auto& result : round.results) samples = std::max(samples, result.samples.size());
  const std::size_t base = round.results.empty() ? 0 : round.results.front().samples.size();
  const std::size_t per_pass = round.rounds > 0 ? static_cast<std::size_t>(round.rounds) : 1;
  const std::size_t extra = samples > per_pass ? (samples - 1) / per_pass : 0;
  const std::string left_out =
      base < samples ? " (the baseline " + std::to_string(base) + ": far behind, not measured again)" : "";
  return "confirmation round (" + std::to_string(round.rounds) + " interleaved rounds" +
         (extra > 0 ? " and " + std::to_string(extra) + (extra == 1 ? " extra pass" : " extra passes") + ", " +
                          std::to_string(samples) + " samples per contender" + left_out
                    : left_out) +
         ", each contender opened after applying it):\n";
}

std::string unscreened_line(const Report& report);
std::string acting_line(const Report& report);
std::string answer(const Report& report);
std::string tie_line(const Report& report);
std::string unseparated_line(const Report& report);

std::string summary(const Report& report) {
  if (report.too_noisy)
    return "too noisy for an answer: no configuration beat the noise (" + report.noise_detail +
           "): no configuration is recommended\n" + unscreened_line(report);
  if (!report.completed)
    return "run stopped before it completed (" + report.stop_reason + "): no configuration is recommended\n";
  if (baseline_only(report))
    return std::string(kBaselineOnlyNote) + ": no configuration is recommended; the baseline reads " +
           bench::format_figure(report.objective, report.baseline.trial.median) + '\n';
  return answer(report) + tie_line(report) + unseparated_line(report) + acting_line(report) + unscreened_line(report);
}

// Which knobs mattered on this drive, from the screening; or that none did.
std::string acting_line(const Report& report) {
  if (report.trials.empty()) return "";
  if (report.acting.empty())
    return report.winner.keep_baseline && report.unscreened.empty()
               ? "no setting's effect exceeded the noise in the screening: every value tried tied with the baseline\n"
               : "";
  std::string names;
  for (const auto& name : report.acting) names += (names.empty() ? "" : ", ") + probe::one_line(name);
  return "settings that made a difference beyond the noise in the screening (a value faster or slower than the baseline): " + names + '\n';
}

// Said when a candidate with a higher median lost to a simpler winner: the two tied.
std::string tie_line(const Report& report) {
  const auto& tie = report.winner.tie;
  if (report.winner.keep_baseline || !tie) return "";
  return "tie: trial " + std::to_string(tie->faster_trial_id) + " read " +
         bench::format_figure(report.objective, tie->faster_median) +
         ", a higher median but not significantly faster than the winner (their intervals overlap or it is ahead "
         "by less than the minimum gain); a tie goes by the winner rule's order: " + probe::one_line(tie->rule) + '\n';
}

// The changes of confirmation contender `id`, " (-m4)"; empty when the round has no such contender.
std::string contender_changes(const Report& report, int id) {
  if (!report.confirmation) return "";
  for (const auto& trial : report.confirmation->results)
    if (trial.id == id)
      return " (" + describe_changes(changed_settings(trial.settings, report.baseline.trial.settings)) + ")";
  return "";
}

// Said when finalists stayed tied with the winner after the round's last pass (the tie line
// already names the faster one a simpler winner beat): either reads as fast within the noise.
std::string unseparated_line(const Report& report) {
  const auto& winner = report.winner;
  if (winner.keep_baseline) return "";
  std::string tied;
  for (const auto& rival : winner.unseparated) {
    if (winner.tie && rival.trial_id == winner.tie->faster_trial_id) continue;
    tied += (tied.empty() ? "" : "; ") + std::string("trial ") + std::to_string(rival.trial_id) +
            contender_changes(report, rival.trial_id) + " " + bench::format_figure(report.objective, rival.median);
  }
  if (tied.empty()) return "";
  return "not separated from the winner by the confirmation round (either reads as fast within the noise): " + tied +
         '\n';
}

// Said under every answer (and a too-noisy end) that did not try each setting: it holds for
// the tried ones only.
std::string unscreened_line(const Report& report) {
  if (report.unscreened.empty()) return "";
  std::string names;
  for (const auto& name : report.unscreened) names += (names.empty() ? "" : ", ") + name;
  return "not tried (--max-trials or --time-budget ended the search first; the answer says nothing about them): " +
         names + '\n';
}

std::string answer(const Report& report) {
  const auto& winner = report.winner;
  const AnswerBaseline baseline = answer_baseline(report);
  const std::string from = " (" + std::string(baseline.source) + ")";
  if (winner.keep_baseline)
    return "keep the baseline: no configuration was significantly faster than " +
           bench::format_figure(report.objective, baseline.median) + from + '\n';
  return "winner: " + describe_changes(persisted_changes(report)) + " (trial " +
         std::to_string(winner.trial_id) + "): " + bench::format_figure(report.objective, winner.median) + ", " +
         probe::printf_number("%.2fx", winner.speedup) + " baseline " + bench::format_figure(report.objective, baseline.median) + from + '\n';
}

}  // namespace

std::string spread_text(const strategies::TrialResult& trial) {
  return trial.samples.size() == 1 ? "1 sample" : probe::printf_number("±%.1f%%", trial.spread_pct);
}

std::string TableEmitter::render(const Report& report) const {
  const auto search = search_rows(report);
  const auto confirmation = confirmation_rows(report);
  std::array<std::size_t, kColumns> widths{};
  for (const auto* part : {&search, &confirmation})
    for (const auto& row : *part)
      for (std::size_t i = 0; i < kColumns; ++i) widths[i] = std::max(widths[i], code_points(row[i]));
  std::string text = title(report);
  for (const auto& row : search) text += render_row(row, widths);
  if (!confirmation.empty()) text += confirmation_heading(*report.confirmation);
  for (const auto& row : confirmation) text += render_row(row, widths);
  text += summary(report);
  if (!report.integrity_note.empty()) text += "note: " + probe::one_line(report.integrity_note) + '\n';
  return text;
}

}  // namespace disktune::results
