// SPDX-License-Identifier: GPL-2.0-or-later
// ConfirmUnit: its progress line.
#include "tuner/trial/confirm_progress.hpp"

#include "strategies/evaluator.hpp"

#include <cstdio>

namespace disktune::tuner {

std::string confirm_progress_line(const ConfirmUnit& unit, const probe::Settings& contender,
                                  const probe::Settings& original, const std::string& kind,
                                  const bench::Objective& objective, int extra_pass) {
  const bool ok = unit.status == strategies::TrialStatus::ok;
  char figure[48];
  std::snprintf(figure, sizeof figure, "%8s %s", bench::figure_number(objective, unit.value).c_str(),
                std::string(bench::unit_of(objective)).c_str());
  const std::string who = unit.contender == 0 ? "baseline"
                                              : "finalist " + std::to_string(unit.contender) + "/" +
                                                    std::to_string(unit.contenders - 1);
  const auto changes = strategies::changes_from(original, contender);
  return "  " + (kind.empty() ? "" : "[" + kind + "] ") + "confirm " +
         (extra_pass > 0 ? "extra pass " + std::to_string(extra_pass) + ", " : std::string()) + "round " +
         std::to_string(unit.round) +
         "/" + std::to_string(unit.rounds) + ", " + who + ": " + std::string(to_string(unit.status)) + "  " +
         (ok ? figure : "") + "  " + (changes.empty() ? "(original settings)" : probe::format_settings(changes)) +
         (unit.detail.empty() ? "" : "  (" + unit.detail + ")");
}

}  // namespace disktune::tuner
