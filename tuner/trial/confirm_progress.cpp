// SPDX-License-Identifier: GPL-2.0-or-later
// ConfirmUnit: its note form (JSON on one line) and its progress line.
#include "tuner/trial/confirm_progress.hpp"

#include "strategies/evaluator.hpp"

#include <boost/json.hpp>

#include <cstdio>

namespace disktune::tuner {

namespace json = boost::json;

std::string to_note(const ConfirmUnit& unit) {
  return json::serialize(json::object{{"confirm_unit", true},
                                      {"round", unit.round},
                                      {"rounds", unit.rounds},
                                      {"contender", unit.contender},
                                      {"contenders", unit.contenders},
                                      {"status", std::string(to_string(unit.status))},
                                      {"mib_s", unit.value},
                                      {"detail", unit.detail}});
}

std::optional<ConfirmUnit> from_note(std::string_view line) {
  boost::system::error_code ec;
  const auto value = json::parse(line, ec);
  if (ec || !value.is_object() || !value.as_object().contains("confirm_unit")) return std::nullopt;
  const auto& o = value.as_object();
  try {
    ConfirmUnit unit;
    unit.round = o.at("round").to_number<int>();
    unit.rounds = o.at("rounds").to_number<int>();
    unit.contender = o.at("contender").to_number<std::size_t>();
    unit.contenders = o.at("contenders").to_number<std::size_t>();
    unit.status = strategies::trial_status_from_name(o.at("status").as_string())
                      .value_or(strategies::TrialStatus::error);
    unit.value = o.at("mib_s").to_number<double>();
    unit.detail = std::string(o.at("detail").as_string());
    return unit;
  } catch (const std::exception&) {  // a field missing or of another type: not a unit
    return std::nullopt;
  }
}

std::string confirm_progress_line(const ConfirmUnit& unit, const probe::Settings& contender,
                                  const probe::Settings& original, const std::string& kind,
                                  const bench::Objective& objective) {
  const bool ok = unit.status == strategies::TrialStatus::ok;
  char figure[48];
  std::snprintf(figure, sizeof figure, "%8s %s", bench::figure_number(objective, unit.value).c_str(),
                std::string(bench::unit_of(objective)).c_str());
  const std::string who = unit.contender == 0 ? "baseline"
                                              : "finalist " + std::to_string(unit.contender) + "/" +
                                                    std::to_string(unit.contenders - 1);
  const auto changes = strategies::changes_from(original, contender);
  return "  " + (kind.empty() ? "" : "[" + kind + "] ") + "confirm round " + std::to_string(unit.round) +
         "/" + std::to_string(unit.rounds) + ", " + who + ": " + std::string(to_string(unit.status)) + "  " +
         (ok ? figure : "") + "  " + (changes.empty() ? "(original settings)" : probe::format_settings(changes)) +
         (unit.detail.empty() ? "" : "  (" + unit.detail + ")");
}

}  // namespace disktune::tuner
