// SPDX-License-Identifier: GPL-2.0-or-later
// Objectives: names, units, the score mapping and the --objective / --metric parser.
#include "bench/objective.hpp"

#include "bench/latency_pool.hpp"
#include "probe/core/text.hpp"
#include "probe/core/assert.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace disktune::bench {
namespace {

probe::Error bad_objective(std::string_view input, const std::string& reason) {
  return probe::Error{std::make_error_code(std::errc::invalid_argument),
                      "--objective " + std::string(input) + ": " + reason, ""};
}

struct Builtin {
  std::string_view name;
  Engine engine;
  Metric metric;
  Direction direction;
};

constexpr std::array kBuiltins{
    Builtin{"seq-read", Engine::hdparm_reads, Metric::bw, Direction::higher},
    Builtin{"seq-read-direct", Engine::fio, Metric::bw, Direction::higher},
    Builtin{"rand-read-iops", Engine::fio, Metric::iops, Direction::higher},
    Builtin{"rand-read-latency", Engine::fio, Metric::p99, Direction::lower},
};

Direction direction_of(Metric metric) {
  return metric == Metric::p99 || metric == Metric::p999 ? Direction::lower : Direction::higher;
}

std::string builtin_list() {
  std::string text;
  for (const auto name : builtin_objective_names()) text += std::string(text.empty() ? "" : ", ") + std::string(name);
  return text + ", fio:FILE";
}

// Whether an objective list's next name starts at `rest` (the text after a comma): a
// built-in name ending there or at a comma, or another fio:FILE.
bool names_an_objective(std::string_view rest) {
  if (rest.starts_with("fio:")) return true;
  const auto name = rest.substr(0, rest.find(','));
  return std::any_of(kBuiltins.begin(), kBuiltins.end(), [&](const Builtin& b) { return b.name == name; });
}

}  // namespace

std::vector<std::string_view> split_objectives(std::string_view list) {
  std::vector<std::string_view> names;
  std::size_t start = 0;
  for (;;) {
    auto comma = list.find(',', start);
    // In a fio:FILE name a comma is the path's unless an objective's name follows it.
    if (list.substr(start).starts_with("fio:"))
      while (comma != std::string_view::npos && !names_an_objective(list.substr(comma + 1)))
        comma = list.find(',', comma + 1);
    names.push_back(list.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return names;
    start = comma + 1;
  }
}

std::string_view to_string(Direction direction) { return direction == Direction::higher ? "higher" : "lower"; }

std::string_view to_string(Metric metric) {
  switch (metric) {
    case Metric::bw: return "bw";
    case Metric::iops: return "iops";
    case Metric::p99: return "p99";
    case Metric::p999: return "p999";
  }
  return "bw";
}

std::optional<Metric> metric_from_name(std::string_view name) {
  for (const Metric m : {Metric::bw, Metric::iops, Metric::p99, Metric::p999})
    if (to_string(m) == name) return m;
  return std::nullopt;
}

std::optional<std::uint64_t> percentile_completions(const Objective& objective) {
  constexpr std::uint64_t kBeyond = 120;  // completions beyond the percentile: ±2 % per sample
  if (objective.engine != Engine::fio || !objective.job_file.empty()) return std::nullopt;
  if (objective.metric == Metric::p99) return kBeyond * 100;
  if (objective.metric == Metric::p999) return kBeyond * 1000;
  return std::nullopt;
}

WarmupSize builtin_warmup(const Objective& objective, probe::Seconds duration) {
  DT_ASSERT(objective.engine == Engine::fio && objective.job_file.empty() && duration.count() > 0.0);
  WarmupSize warmup{probe::Seconds(std::min(duration.count(), std::max(0.1, duration.count() / 3.0))), std::nullopt};
  if (percentile_completions(objective))
    warmup.completions = completions_to_bound(percentile_fraction(objective.metric)) / 10;
  return warmup;
}

double percentile_fraction(Metric metric) {
  DT_ASSERT(metric == Metric::p99 || metric == Metric::p999);
  return metric == Metric::p99 ? 0.99 : 0.999;
}

std::string_view unit_of(const Objective& objective) {
  switch (objective.metric) {
    case Metric::bw: return "MB/s";
    case Metric::iops: return "IOPS";
    case Metric::p99:
    case Metric::p999: return "us";
  }
  return "MB/s";
}

double score_of(const Objective& objective, double figure) {
  if (objective.direction == Direction::higher) return figure;
  DT_ASSERT(figure > 0.0);
  return 1e6 / figure;
}

double figure_of(const Objective& objective, double score) {
  if (objective.direction == Direction::higher || score == 0.0) return score;
  return 1e6 / score;
}

std::string figure_number(const Objective& objective, double score) {
  const double figure = figure_of(objective, score);
  const char* format = objective.metric == Metric::iops ? "%.0f" : objective.direction == Direction::lower ? "%.1f" : "%.2f";
  return probe::printf_number(format, figure);
}

std::string format_figure(const Objective& objective, double score) {
  return figure_number(objective, score) + " " + std::string(unit_of(objective));
}

const std::vector<std::string_view>& builtin_objective_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const auto& b : kBuiltins) all.push_back(b.name);
    return all;
  }();
  return names;
}

probe::Result<Objective> parse_objective(std::string_view name, std::string_view metric) {
  const auto given = metric_from_name(metric);
  if (!metric.empty() && !given)
    return bad_objective(name, "unknown --metric " + std::string(metric) + " (one of bw, iops, p99, p999)");
  if (name.starts_with("fio:")) {
    Objective o{std::string(name), Engine::fio, given.value_or(Metric::bw), Direction::higher,
                std::string(name.substr(4)), given.has_value(), ""};
    if (o.job_file.empty()) return bad_objective(name, "fio: needs a job file (fio:FILE)");
    o.direction = direction_of(o.metric);
    return o;
  }
  const auto* b = std::find_if(kBuiltins.begin(), kBuiltins.end(), [&](const Builtin& x) { return x.name == name; });
  if (b == kBuiltins.end()) return bad_objective(name, "unknown objective (one of " + builtin_list() + ")");
  if (given && *given != b->metric)
    return bad_objective(name, "--metric " + std::string(metric) + " applies to fio:FILE objectives only (" +
                                   std::string(name) + " measures " + std::string(to_string(b->metric)) + ")");
  return Objective{std::string(name), b->engine, b->metric, b->direction, "", false, ""};
}

probe::Result<std::vector<Objective>> parse_objectives(std::string_view list, std::string_view metric) {
  const auto names = split_objectives(list);
  // Counted before any name is parsed: "a,b,c" is too many, whatever a, b and c are.
  if (names.size() > 2)
    return bad_objective(list, "at most two objectives are allowed (A optimised, B guarded), not " +
                                   std::to_string(names.size()));
  std::vector<Objective> objectives;
  for (const auto name : names) {
    if (name.empty()) return bad_objective(list, "empty objective name (give A or A,B)");
    // --metric names the fio:FILE objective's figure; built-ins keep theirs.
    auto objective = parse_objective(name, name.starts_with("fio:") ? metric : std::string_view{});
    if (!objective) return objective.error();
    for (const auto& o : objectives)
      if (o.name == objective->name) return bad_objective(list, "objective " + o.name + " given twice");
    objectives.push_back(std::move(*objective));
  }
  const bool any_fio_file = std::any_of(objectives.begin(), objectives.end(), [](const Objective& o) { return !o.job_file.empty(); });
  if (!metric.empty() && !any_fio_file)
    return bad_objective(list, "--metric " + std::string(metric) + " applies to fio:FILE objectives only");
  return objectives;
}

}  // namespace disktune::bench
