// SPDX-License-Identifier: GPL-2.0-or-later
// What a resume keeps of the interrupted run's search bounds, and what it refuses.
#include "tuner/journal/search_bounds.hpp"

#include "tuner/run_error.hpp"

#include <catch2/catch.hpp>

#include <sstream>

using namespace disktune;

namespace {

boost::json::object recorded(const tuner::SearchBounds& bounds, int noise_repeats) {
  boost::json::object options{{"duration_s", 3.0}};
  tuner::record_search_bounds(options, bounds, noise_repeats);
  return options;
}

}  // namespace

TEST_CASE("a resume keeps the interrupted run's budget, trial count and noise repeats when none is given", "[tuner]") {
  const auto journal = recorded({600.0, 20, 4}, 4);
  std::ostringstream log;
  const auto bounds = tuner::resumed_bounds({}, journal, "j", log);
  CHECK(bounds.time_budget_s == std::optional<double>(600.0));
  CHECK(bounds.max_trials == std::optional<std::size_t>(20));
  CHECK(bounds.noise_repeats == std::optional<int>(4));
  CHECK_THAT(log.str(), Catch::Contains("kept from the interrupted run: --time-budget 600 s (what it measured counts "
                                        "against it), --max-trials 20 (its trials count), --noise-repeats 4"));
}

TEST_CASE("a resume given the journal's bounds again takes them, and a run without bounds stays without", "[tuner]") {
  std::ostringstream log;
  const auto same = tuner::resumed_bounds({600.0, 20, 2}, recorded({600.0, 20, 2}, 2), "j", log);
  CHECK(same.time_budget_s == std::optional<double>(600.0));
  CHECK(same.max_trials == std::optional<std::size_t>(20));
  const auto none = tuner::resumed_bounds({}, recorded({}, 2), "j", log);
  CHECK_FALSE(none.time_budget_s);
  CHECK_FALSE(none.max_trials);
  CHECK(none.noise_repeats == std::optional<int>(2));
  // The default kept is not said: "kept from the interrupted run: --noise-repeats 2" read as
  // if the run had been given it.
  CHECK(log.str().find("--noise-repeats") == std::string::npos);
}

TEST_CASE("a resume given other bounds than the journal's is refused, naming each with both values", "[tuner]") {
  std::ostringstream log;
  try {
    (void)tuner::resumed_bounds({900.0, std::nullopt, 3}, recorded({600.0, 20, 2}, 2), "j", log);
    FAIL("not refused");
  } catch (const tuner::RunError& error) {
    CHECK(error.code() == tuner::kExitUsage);
    CHECK_THAT(error.what(), Catch::Contains("--time-budget 600 s (journal) vs 900 s (command line)"));
    CHECK_THAT(error.what(), Catch::Contains("--noise-repeats 2 (journal) vs 3 (command line)"));
    CHECK_THAT(error.what(), Catch::Contains("--fresh"));
  }
  // A budget given where the journal's run had none is another bound too.
  CHECK_THROWS_AS(tuner::resumed_bounds({60.0, std::nullopt, std::nullopt}, recorded({}, 2), "j", log),
                  tuner::RunError);
}

TEST_CASE("a journal from before the bounds were kept resumes with the command line's", "[tuner]") {
  std::ostringstream log;
  const auto bounds = tuner::resumed_bounds({60.0, 5, 3}, boost::json::object{{"duration_s", 3.0}}, "j", log);
  CHECK(bounds.time_budget_s == std::optional<double>(60.0));
  CHECK(bounds.max_trials == std::optional<std::size_t>(5));
  CHECK(bounds.noise_repeats == std::optional<int>(3));
  CHECK(log.str().empty());
}
