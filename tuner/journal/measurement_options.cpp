// SPDX-License-Identifier: GPL-2.0-or-later
// The options that shape a measurement, as JSON.
#include "tuner/journal/measurement_options.hpp"

#include <boost/json.hpp>

namespace disktune::tuner {

namespace json = boost::json;

boost::json::object measurement_options(const TrialSettings& trial, const std::string& strategy, std::uint64_t seed,
                                        double tolerance, const std::vector<std::string>& argv) {
  json::array command_line;
  for (const auto& arg : argv) command_line.emplace_back(arg);
  return {{"objective", trial.objective.name},
          {"metric", std::string(bench::to_string(trial.objective.metric))},
          {"guard_objective", trial.guard ? trial.guard->name : std::string()},
          {"tolerance_pct", 100.0 * tolerance},
          {"strategy", strategy},
          {"seed", seed},
          {"repeats", trial.sampling.min_samples},
          {"max_repeats", trial.sampling.max_samples},
          {"duration_s", trial.workload.duration.count()},
          {"method", std::string(to_string(trial.workload.method))},
          {"drop_behind_bytes", trial.workload.drop_behind_bytes},
          {"chunk_bytes", trial.workload.chunk_bytes},
          {"steady_stop", trial.workload.steady.enabled},
          {"confirm_rounds", trial.confirm_rounds},
          {"command_line", std::move(command_line)}};
}

}  // namespace disktune::tuner
