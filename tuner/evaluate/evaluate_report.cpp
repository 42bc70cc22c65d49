// SPDX-License-Identifier: GPL-2.0-or-later
// disktune evaluate: per-strategy summaries against exhaustive, as a table or JSON.
#include "results/pretty_json.hpp"
#include "strategies/registry.hpp"
#include "tuner/evaluate/evaluate.hpp"
#include "tuner/run_error.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>

namespace disktune::tuner {
namespace {

namespace json = boost::json;
constexpr double kSuccessRatio = 0.98;  // within 2 % of exhaustive's final configuration
constexpr std::size_t kLargeSpace = 100;

using RunKey = std::tuple<std::string, std::uint64_t>;

bool succeeded(const EvaluationRun& run, const EvaluationRun& reference) {
  return run.final_settings == reference.final_settings || run.true_score >= kSuccessRatio * reference.true_score;
}

double ratio(double part, double whole) { return whole > 0.0 ? part / whole : 0.0; }

json::object to_json(const StrategySummary& s) {
  return json::object{{"name", s.name},
                      {"runs", s.runs},
                      {"success_rate", s.success_rate},
                      {"trial_fraction", s.trial_fraction},
                      {"time_fraction", s.time_fraction},
                      {"wall_s", s.wall_s},
                      {"large_space_runs", s.large_runs},
                      {"large_space_success_rate", s.large_success_rate},
                      {"large_space_trial_fraction", s.large_trial_fraction}};
}

void print_table(std::ostream& out, const std::vector<StrategySummary>& summaries) {
  char line[200];
  std::snprintf(line, sizeof line, "%-20s %5s %8s %9s %9s %9s %11s %10s\n", "strategy", "runs", "success",
                "trials", "sim time", "wall s", "success>100", "trials>100");
  out << line;
  for (const auto& s : summaries) {
    std::snprintf(line, sizeof line, "%-20s %5zu %7.1f%% %8.1f%% %8.1f%% %9.3f %10.1f%% %9.1f%%\n", s.name.c_str(),
                  s.runs, 100 * s.success_rate, 100 * s.trial_fraction, 100 * s.time_fraction, s.wall_s,
                  100 * s.large_success_rate, 100 * s.large_trial_fraction);
    out << line;
  }
}

}  // namespace

std::vector<StrategySummary> summarize(const std::vector<EvaluationRun>& runs) {
  std::map<RunKey, const EvaluationRun*> exhaustive;
  for (const auto& run : runs)
    if (run.strategy == "exhaustive") exhaustive[{run.drive, run.seed}] = &run;
  std::vector<StrategySummary> summaries;
  for (const auto& name : strategies::strategy_names()) {
    StrategySummary s{name};
    std::size_t large_ok = 0, ok = 0;
    for (const auto& run : runs) {
      const auto ref = exhaustive.find({run.drive, run.seed});
      if (run.strategy != name || ref == exhaustive.end()) continue;
      const bool success = succeeded(run, *ref->second);
      const double trials = ratio(static_cast<double>(run.trials), static_cast<double>(ref->second->trials));
      ++s.runs;
      ok += success;
      s.trial_fraction += trials;
      s.time_fraction += ratio(run.measured_s, ref->second->measured_s);
      s.wall_s += run.wall_s;
      if (run.legal_count > kLargeSpace) {
        ++s.large_runs;
        large_ok += success;
        s.large_trial_fraction += trials;
      }
    }
    const auto n = static_cast<double>(std::max<std::size_t>(s.runs, 1));
    const auto large = static_cast<double>(std::max<std::size_t>(s.large_runs, 1));
    s.success_rate = static_cast<double>(ok) / n;
    s.trial_fraction /= n;
    s.time_fraction /= n;
    s.wall_s /= n;
    s.large_success_rate = static_cast<double>(large_ok) / large;
    s.large_trial_fraction /= large;
    if (s.runs > 0) summaries.push_back(s);
  }
  return summaries;
}

int run_evaluate_command(const EvaluateRequest& request, std::ostream& out, std::ostream& err) {
  auto files = tunable_drive_files(request.options.identify_dir, request.options.drive_filter, request.measure.only);
  if (request.options.drives && files.size() > *request.options.drives) files.resize(*request.options.drives);
  if (files.empty()) {
    err << "disktune: evaluate: no tunable identify files in " << request.options.identify_dir
        << (request.options.drive_filter ? " whose name contains '" + *request.options.drive_filter + "'" : std::string())
        << " (--identify-dir names the captures)\n";
    return kExitUsage;
  }
  const auto seeds = evaluation_seeds(request);
  err << "disktune: evaluating " << evaluated_strategies(request).size() << " strategies on " << files.size()
      << " SIMULATED drives x " << seeds.size() << " seeds (" << seeds.front() << "-" << seeds.back() << ")\n";
  const auto start = std::chrono::steady_clock::now();
  const auto runs = run_evaluation(files, request);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto summaries = summarize(runs);
  if (std::getenv("DISKTUNE_EVALUATE_RUNS"))  // one line per run, for looking into a result
    for (const auto& r : runs)
      err << r.strategy << ' ' << r.drive << " seed " << r.seed << ": " << r.legal_count << " configurations, "
          << r.trials << " trials, " << r.measured_s << " s measured, true "
          << bench::format_figure(request.measure.objectives.front(), r.true_score) << ", " << (r.kept_baseline ? "baseline" : r.final_settings) << '\n';
  if (request.json) {
    json::array list;
    for (const auto& s : summaries) list.push_back(to_json(s));
    out << results::pretty_json(json::object{{"simulated", true},
                                             {"objective", request.measure.objectives.front().name},
                                             {"drives", files.size()},
                                             {"seeds", request.options.seeds},
                                             {"first_seed", request.first_seed},
                                             {"default_strategy", strategies::default_strategy_name()},
                                             {"wall_s", wall},
                                             {"strategies", std::move(list)}});
  } else {
    char head[120];
    std::snprintf(head, sizeof head, "SIMULATED drives: %zu, seeds: %llu-%llu, wall time %.0f s\n", files.size(),
                  static_cast<unsigned long long>(seeds.front()), static_cast<unsigned long long>(seeds.back()), wall);
    out << head;
    print_table(out, summaries);
    out << "default strategy: " << strategies::default_strategy_name() << '\n';
  }
  return 0;
}

}  // namespace disktune::tuner
