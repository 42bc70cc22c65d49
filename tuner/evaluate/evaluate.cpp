// SPDX-License-Identifier: GPL-2.0-or-later
// disktune evaluate: strategies over simulated drives, each run against the noise-free truth, in parallel (oneTBB).
#include "tuner/evaluate/evaluate.hpp"

#include "tuner/trial/sampler_factory.hpp"

#include "probe/identify/identify_text.hpp"
#include "probe/sim/sim_device.hpp"
#include "probe/sim/sim_model.hpp"
#include "strategies/registry.hpp"
#include "tuner/run/pipeline.hpp"
#include "tuner/trial/child_executor.hpp"

#include <atomic>
#include <mutex>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>

namespace disktune::tuner {
namespace {

constexpr double kSimNoisePct = 2.0;
// Smaller reads than hdparm's 2 MiB keep thousands of simulated trials fast; every strategy
// and the noise-free reference use the same workload.
constexpr std::uint64_t kEvaluationChunk = 256u << 10;

probe::Result<std::unique_ptr<probe::Device>> sim_drive(const std::string& file, std::uint64_t seed, double noise) {
  auto identify = probe::parse_identify_file(file, std::nullopt);
  if (!identify) return identify.error();
  probe::SimProfile profile;
  profile.noise_pct = noise;
  return probe::make_sim_device_from(std::move(*identify), std::string(probe::kSimSpec) + file, std::move(profile), seed);
}

// `only`: evaluate --only (the settings searched; the others keep their value), as tune's.
strategies::SearchSpace space_of(probe::Device& device, const probe::Settings& original,
                                 const std::optional<std::vector<probe::SettingId>>& only) {
  std::optional<probe::IdentifyInfo> identify;
  if (auto id = device.identify()) identify = std::move(*id);
  strategies::SpaceOptions options;
  options.only = only;
  return strategies::build_space(identify, device.capabilities(), original, options);
}

// Everything the simulated drive's behaviour follows from: the legal values, the settings as
// found and the default media rate (probe::default_media_mib_s).
std::string drive_signature(probe::Device& device, const strategies::SearchSpace& space) {
  std::string signature = probe::format_settings(space.baseline());
  for (const auto& group : space.groups())
    for (const auto& choice : group.choices) signature += "|" + probe::format_settings(choice);
  if (auto id = device.identify()) signature += "|" + std::to_string(probe::default_media_mib_s(*id));
  return signature;
}

TrialSettings evaluation_trial_settings(const EvaluateRequest& request) {
  TrialSettings settings;
  settings.workload = bench::Workload{bench::Method::buffered, 0, kEvaluationChunk, probe::Seconds(request.measure.duration_s)};
  settings.sampling = bench::SamplingPlan{request.measure.repeats, request.measure.max_repeats, 0.02, true};
  settings.in_process = true;
  settings.objective = request.measure.objectives.front();
  return settings;
}

// The noise-free score of `config` on the same drive for the run's objective: one sample of
// the trials' own workload (--duration) with noise 0, taken by the objective's sampler
// (SIMULATED). Noise-free, one sample is the figure; a longer one only costs: the simulated
// reads fill their buffers, and the truth samples every legal configuration.
double true_score(const std::string& file, const probe::Settings& config, const TrialSettings& trial) {
  auto device = sim_drive(file, 1, 0.0);
  if (!device) return 0.0;
  for (const auto& [id, value] : config)
    if (!(*device)->apply(id, value)) return 0.0;
  auto io = (*device)->open_io(probe::IoMode::buffered);
  if (!io) return 0.0;
  auto sampler = make_sampler(**device, **io, trial);
  if (!sampler) return 0.0;
  auto sample = (*sampler)->sample();
  return sample ? sample->value : 0.0;
}

// Every legal configuration of `space`, by an odometer over the groups' choice indices.
std::vector<probe::Settings> legal_configurations(const strategies::SearchSpace& space) {
  const auto& groups = space.groups();
  std::vector<probe::Settings> all;
  std::vector<std::size_t> index(groups.size(), 0);
  for (;;) {
    all.push_back(space.configuration(index));
    std::size_t g = groups.size();
    while (g > 0 && ++index[g - 1] == groups[g - 1].choices.size()) index[--g] = 0;
    if (g == 0) return all;
  }
}

DriveTruth truth_of(const std::string& file, const EvaluateRequest& request) {
  DriveTruth truth;
  truth.drive = std::filesystem::path(file).filename().string();
  auto device = sim_drive(file, 1, 0.0);
  if (!device) return truth;
  const auto original = (*device)->snapshot();
  if (!original) return truth;
  const auto space = space_of(**device, *original, request.measure.only);
  const TrialSettings trial = evaluation_trial_settings(request);
  const auto configs = legal_configurations(space);
  std::vector<double> scores(configs.size());
  tbb::parallel_for(std::size_t{0}, configs.size(), [&](std::size_t i) { scores[i] = true_score(file, configs[i], trial); });
  const auto best = static_cast<std::size_t>(std::max_element(scores.begin(), scores.end()) - scores.begin());
  truth.legal_count = configs.size();
  truth.baseline_score = true_score(file, *original, trial);
  truth.optimum_score = scores[best];
  truth.optimum = probe::format_settings(strategies::changes_from(*original, configs[best]));
  return truth;
}

EvaluationRun run_one(const std::string& file, std::uint64_t seed, const std::string& name, const EvaluateRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  EvaluationRun run;
  run.strategy = name;
  run.drive = std::filesystem::path(file).filename().string();
  run.seed = seed;
  auto device = sim_drive(file, seed, kSimNoisePct);
  auto original = (*device)->snapshot();
  const auto space = space_of(**device, *original, request.measure.only);
  run.legal_count = space.legal_count();
  const TrialSettings trial_settings = evaluation_trial_settings(request);
  TrialRunner runner(**device, *original, trial_settings);
  ChildExecutor executor(runner, {});
  strategies::MemoryTrialStore store;
  auto strategy = strategies::make_strategy(name);
  std::ostream quiet(nullptr);  // no progress lines: thousands of runs in parallel
  // The figures of `evaluate` are taken without the noise check and without a budget.
  const PipelineInput input{space, **strategy, *original, run.drive, true, std::nullopt, std::nullopt, false,
                            trial_settings};
  const PipelineResult result = run_pipeline(input, store, executor, quiet);
  if (!result.baseline) return run;
  run.trials = result.search_trials;
  run.measured_s = strategies::measurement_seconds(result.baseline->trial) + result.search_s + result.confirmation_s;
  run.kept_baseline = result.best.id == 0;
  run.final_settings = probe::format_settings(strategies::changes_from(*original, result.best.settings));
  run.true_score = true_score(file, result.best.settings, trial_settings);
  run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace

std::vector<std::string> tunable_drive_files(const std::string& directory, const std::optional<std::string>& filter,
                                             const std::optional<std::vector<probe::SettingId>>& only) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.ends_with(".txt") && (!filter || name.find(*filter) != std::string::npos))
      names.push_back(entry.path().string());
  }
  std::sort(names.begin(), names.end());
  std::vector<std::string> files;
  std::set<std::string> seen;  // captures of the same model simulate the same drive: keep one
  for (const auto& file : names) {
    auto device = sim_drive(file, 1, kSimNoisePct);
    if (!device) continue;
    auto original = (*device)->snapshot();
    if (!original) continue;
    const auto space = space_of(**device, *original, only);
    if (space.legal_count() > 1 && seen.insert(drive_signature(**device, space)).second) files.push_back(file);
  }
  return files;
}

std::vector<std::string> evaluated_strategies(const EvaluateRequest& request) {
  const auto& named = request.options.strategies;
  std::vector<std::string> names;
  for (const auto& name : strategies::strategy_names())
    if (named.empty() ? name != "exhaustive" : std::find(named.begin(), named.end(), name) != named.end())
      names.push_back(name);
  return names;
}

std::vector<std::uint64_t> evaluation_seeds(const EvaluateRequest& request) {
  std::vector<std::uint64_t> seeds;
  for (int i = 0; i < request.options.seeds; ++i) seeds.push_back(request.first_seed + static_cast<std::uint64_t>(i));
  return seeds;
}

std::vector<DriveTruth> drive_truths(const std::vector<std::string>& files, const EvaluateRequest& request) {
  std::vector<DriveTruth> truths(files.size());
  tbb::parallel_for(std::size_t{0}, files.size(), [&](std::size_t i) { truths[i] = truth_of(files[i], request); });
  return truths;
}

std::vector<EvaluationRun> run_evaluation(const std::vector<std::string>& files, const std::vector<DriveTruth>& truths,
                                          const EvaluateRequest& request, const EvaluationProgress& progress) {
  const auto names = evaluated_strategies(request);
  const auto seeds = evaluation_seeds(request);
  const std::size_t pairs = files.size() * seeds.size();
  std::vector<EvaluationRun> runs(pairs * names.size());
  std::atomic<std::size_t> done{0};
  std::mutex reporting;  // one progress call at a time, in order
  tbb::parallel_for(std::size_t{0}, runs.size(), [&](std::size_t i) {
    const std::size_t pair = i / names.size();
    const std::size_t drive = pair / seeds.size();
    runs[i] = run_one(files[drive], seeds[pair % seeds.size()], names[i % names.size()], request);
    runs[i].baseline_score = truths.at(drive).baseline_score;
    runs[i].optimum_score = truths.at(drive).optimum_score;
    if (progress) {
      const std::lock_guard lock(reporting);
      progress(++done, runs.size());
    }
  });
  return runs;
}

}  // namespace disktune::tuner
