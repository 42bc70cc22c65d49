// SPDX-License-Identifier: GPL-2.0-or-later
// disktune evaluate: per-strategy summaries against each drive's true optimum, as a table or JSON.
#include "probe/core/text.hpp"
#include "results/pretty_json.hpp"
#include "strategies/registry.hpp"
#include "tuner/evaluate/evaluate.hpp"
#include "tuner/run_error.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <filesystem>
#include <cstdio>
#include <cstdlib>
#include <algorithm>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

double ratio(double part, double whole) { return whole > 0.0 ? part / whole : 0.0; }

// The gap between a run's final configuration and the true optimum [%]; 0 at or above it.
double regret_pct(const EvaluationRun& run) {
  return run.optimum_score > 0.0 ? std::max(0.0, 100.0 * (run.optimum_score - run.true_score) / run.optimum_score) : 0.0;
}

json::object to_json(const StrategySummary& s) {
  return json::object{{"name", s.name},
                      {"runs", s.runs},
                      {"success_rate", s.success_rate},
                      {"false_winners", s.false_winners},
                      {"mean_regret_pct", s.mean_regret_pct},
                      {"worst_regret_pct", s.worst_regret_pct},
                      {"trial_fraction", s.trial_fraction},
                      {"measured_s", s.measured_s},
                      {"wall_s", s.wall_s},
                      {"large_space_runs", s.large_runs},
                      {"large_space_success_rate", s.large_success_rate},
                      {"large_space_trial_fraction", s.large_trial_fraction}};
}

json::object to_json(const DriveTruth& t) {
  return json::object{{"drive", t.drive},
                      {"legal_count", t.legal_count},
                      {"baseline_score", t.baseline_score},
                      {"optimum_score", t.optimum_score},
                      {"optimum", t.optimum}};
}

void print_table(std::ostream& out, const std::vector<StrategySummary>& summaries) {
  char line[200];
  std::snprintf(line, sizeof line, "%-20s %5s %8s %6s %8s %8s %8s %11s %10s %8s\n", "strategy", "runs", "success",
                "false", "regret", "worst", "trials", "success>100", "trials>100", "wall s");
  out << line;
  for (const auto& s : summaries) {
    std::snprintf(line, sizeof line, "%-20s %5zu %7.1f%% %6zu %7.2f%% %7.2f%% %7.2f%% %10.1f%% %9.2f%% %8.3f\n",
                  s.name.c_str(), s.runs, 100 * s.success_rate, s.false_winners, s.mean_regret_pct,
                  s.worst_regret_pct, 100 * s.trial_fraction, 100 * s.large_success_rate,
                  100 * s.large_trial_fraction, s.wall_s);
    out << line;
  }
}

}  // namespace

std::vector<StrategySummary> summarize(const std::vector<EvaluationRun>& runs) {
  std::vector<StrategySummary> summaries;
  for (const auto& name : strategies::strategy_names()) {
    StrategySummary s{name};
    std::size_t large_ok = 0, ok = 0;
    for (const auto& run : runs) {
      if (run.strategy != name) continue;
      const double regret = regret_pct(run);
      const bool success = regret <= 100.0 * kSuccessRegret;
      const double trials = ratio(static_cast<double>(run.trials), static_cast<double>(run.legal_count));
      ++s.runs;
      ok += success;
      s.false_winners += run.true_score < run.baseline_score;
      s.mean_regret_pct += regret;
      s.worst_regret_pct = std::max(s.worst_regret_pct, regret);
      s.trial_fraction += trials;
      s.measured_s += run.measured_s;
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
    s.mean_regret_pct /= n;
    s.trial_fraction /= n;
    s.measured_s /= n;
    s.wall_s /= n;
    s.large_success_rate = static_cast<double>(large_ok) / large;
    s.large_trial_fraction /= large;
    if (s.runs > 0) summaries.push_back(s);
  }
  return summaries;
}

namespace {

// A line at every tenth of the runs ("disktune: evaluate: 30 of 300 runs done"): seq-read's
// 300 runs take minutes, and without this a user sees nothing all that while.
EvaluationProgress progress_lines(std::ostream& err) {
  return [&err, step = std::size_t{0}](std::size_t done, std::size_t total) mutable {
    const std::size_t tenth = done * 10 / total;
    if (tenth == step) return;  // the last run too: "6 of 6 runs done"
    step = tenth;
    err << "disktune: evaluate: " << done << " of " << total << " runs done\n" << std::flush;
  };
}

// One line per run (DISKTUNE_EVALUATE_RUNS set), for looking into a result.
void print_runs(std::ostream& err, const std::vector<EvaluationRun>& runs, const bench::Objective& objective) {
  for (const auto& r : runs)
    err << r.strategy << ' ' << r.drive << " seed " << r.seed << ": " << r.legal_count << " configurations, "
        << r.trials << " trials, " << r.measured_s << " s measured, true " << bench::format_figure(objective, r.true_score)
        << " (optimum " << bench::format_figure(objective, r.optimum_score) << "), "
        << (r.kept_baseline ? "baseline" : r.final_settings) << '\n';
}

}  // namespace

int run_evaluate_command(const EvaluateRequest& request, std::ostream& out, std::ostream& err) {
  if (std::error_code ec; !std::filesystem::is_directory(request.options.identify_dir, ec)) {
    err << "disktune: evaluate: --identify-dir " << request.options.identify_dir << ": no such directory"
        << " (the identify captures; the default is relative to the current directory: run from the source tree, or name it)\n";
    return kExitUsage;
  }
  auto files = tunable_drive_files(request.options.identify_dir, request.options.drive_filter, request.measure.only);
  if (request.options.drives && files.size() > *request.options.drives) files.resize(*request.options.drives);
  if (files.empty()) {
    err << "disktune: evaluate: no tunable identify files in " << request.options.identify_dir
        << (request.options.drive_filter ? " whose name contains '" + *request.options.drive_filter + "'" : std::string())
        << " (--identify-dir names the captures)\n";
    return kExitUsage;
  }
  const auto seeds = evaluation_seeds(request);
  err << "disktune: evaluating " << probe::counted(evaluated_strategies(request).size(), "strategy", "strategies")
      << " on " << probe::counted(files.size(), "SIMULATED drive") << " x " << probe::counted(seeds.size(), "seed") << " ("
      << seeds.front() << "-" << seeds.back() << ")\n";
  const auto start = std::chrono::steady_clock::now();
  const auto truths = drive_truths(files, request);
  const auto runs = run_evaluation(files, truths, request, progress_lines(err));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto summaries = summarize(runs);
  if (std::getenv("DISKTUNE_EVALUATE_RUNS")) print_runs(err, runs, request.measure.objectives.front());
  if (request.json) {
    json::array list, drives;
    for (const auto& s : summaries) list.push_back(to_json(s));
    for (const auto& t : truths) drives.push_back(to_json(t));
    out << results::pretty_json(json::object{{"simulated", true},
                                             {"objective", request.measure.objectives.front().name},
                                             {"drives", files.size()},
                                             {"success_rule", "the final configuration's noise-free score within 3 % of the "
                                                              "true optimum of the legal space (brute force, noise-free model)"},
                                             {"drive_truths", std::move(drives)},
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
    out << "each run judged against the true optimum of its drive's legal space (noise-free, brute force): success = "
           "within 3 %; false = final below the baseline; regret = gap to the optimum\n";
    print_table(out, summaries);
    out << "default strategy: " << strategies::default_strategy_name() << '\n';
  }
  return 0;
}

}  // namespace disktune::tuner
