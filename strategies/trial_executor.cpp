// SPDX-License-Identifier: GPL-2.0-or-later
// The names of trial kinds; FunctionExecutor's trials.
#include "strategies/trial_executor.hpp"

#include <utility>

namespace disktune::strategies {
namespace {

constexpr std::pair<TrialKind, std::string_view> kKindNames[] = {
    {TrialKind::search, "search"},
    {TrialKind::baseline, "baseline"},
    {TrialKind::baseline_repeat, "baseline_repeat"},
    {TrialKind::baseline_check, "baseline_check"},
    {TrialKind::confirmation_unit, "confirmation_unit"}};

}  // namespace

std::string_view to_string(TrialKind kind) {
  for (const auto& [known, name] : kKindNames)
    if (known == kind) return name;
  return "unknown";
}

std::optional<TrialKind> trial_kind_from(std::string_view name) {
  for (const auto& [kind, known] : kKindNames)
    if (known == name) return kind;
  return std::nullopt;
}

Executed FunctionExecutor::run(const probe::Settings& config, const TrialRequest& request) {
  TrialResult trial = function_(config, request);
  // A synthetic drive's figure is its median: a unit keeps it as its one sample.
  if (request.kind == TrialKind::confirmation_unit && trial.status == TrialStatus::ok && trial.samples.empty())
    trial.samples = {trial.median};
  return TrialMeasurement{std::move(trial), 0.0, 0};
}

}  // namespace disktune::strategies
