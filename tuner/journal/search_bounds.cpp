// SPDX-License-Identifier: GPL-2.0-or-later
// The search bounds a resume keeps (search_bounds.hpp).
#include "tuner/journal/search_bounds.hpp"

#include "probe/core/text.hpp"
#include "tuner/run_error.hpp"
#include "tuner/trial/trial_settings.hpp"

#include <boost/json/value.hpp>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

// One bound as the journal or the command line has it: recorded (present in the journal),
// its value (nullopt: none), and how a person reads it.
struct Bound {
  bool recorded = false;
  std::optional<double> value;
};

Bound recorded_bound(const json::object& options, const char* key) {
  const auto* value = options.if_contains(key);
  if (!value) return {};
  if (value->is_null()) return {true, std::nullopt};
  return {true, value->to_number<double>()};
}

std::string bound_text(std::optional<double> value, const char* unit) {
  return value ? probe::printf_number("%g", *value) + unit : "none";
}

// What one bound becomes on a resume: kept (said in `kept`, unless it is `unsaid`, the value
// the run takes anyway: "kept --noise-repeats 2" read as if the user had asked for it), the
// command line's, or a difference named in `differences`. `given_explicitly`: the command line gave it.
std::optional<double> resolve(const char* name, const char* unit, const char* counts, const Bound& journal,
                              std::optional<double> given, bool given_explicitly, std::string& kept,
                              std::string& differences, std::optional<double> unsaid = std::nullopt) {
  if (!journal.recorded) return given;
  if (!given_explicitly) {
    if (journal.value && journal.value != unsaid)
      kept += (kept.empty() ? "" : ", ") + std::string(name) + " " + bound_text(journal.value, unit) + counts;
    return journal.value;
  }
  if (given != journal.value)
    differences += (differences.empty() ? "" : "; ") + std::string(name) + " " + bound_text(journal.value, unit) +
                   " (journal) vs " + bound_text(given, unit) + " (command line)";
  return given;
}

std::optional<std::size_t> as_count(std::optional<double> value) {
  if (!value) return std::nullopt;
  return static_cast<std::size_t>(*value);
}

}  // namespace

void record_search_bounds(json::object& options, const SearchBounds& bounds, int noise_repeats) {
  options["time_budget_s"] = bounds.time_budget_s ? json::value(*bounds.time_budget_s) : json::value(nullptr);
  options["max_trials"] = bounds.max_trials ? json::value(static_cast<std::uint64_t>(*bounds.max_trials)) : json::value(nullptr);
  options["noise_repeats"] = noise_repeats;
}

SearchBounds resumed_bounds(const SearchBounds& given, const json::object& recorded, const std::string& path,
                            std::ostream& log) {
  std::string kept, differences;
  SearchBounds bounds;
  bounds.time_budget_s =
      resolve("--time-budget", " s", " (what it measured counts against it)", recorded_bound(recorded, "time_budget_s"),
              given.time_budget_s, given.time_budget_s.has_value(), kept, differences);
  const auto max_trials = given.max_trials ? std::optional<double>(static_cast<double>(*given.max_trials)) : std::nullopt;
  bounds.max_trials = as_count(resolve("--max-trials", "", " (its trials count)", recorded_bound(recorded, "max_trials"),
                                       max_trials, given.max_trials.has_value(), kept, differences));
  const auto repeats = given.noise_repeats ? std::optional<double>(*given.noise_repeats) : std::nullopt;
  const auto noise = resolve("--noise-repeats", "", "", recorded_bound(recorded, "noise_repeats"), repeats,
                             given.noise_repeats.has_value(), kept, differences, TrialSettings{}.noise_repeats);
  if (noise) bounds.noise_repeats = static_cast<int>(*noise);
  if (!differences.empty())
    throw RunError(kExitUsage, "journal " + path + " was recorded with other search bounds: " + differences +
                                   "; a resume keeps the interrupted run's (its budget counts what it measured "
                                   "already): run without them to resume, or with --fresh to set it aside and start over");
  if (!kept.empty()) log << "  kept from the interrupted run: " << kept << '\n';
  return bounds;
}

}  // namespace disktune::tuner
