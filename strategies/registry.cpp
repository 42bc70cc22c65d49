// SPDX-License-Identifier: GPL-2.0-or-later
// Strategy registry.
#include "strategies/registry.hpp"

#include "strategies/coordinate_descent.hpp"
#include "strategies/exhaustive.hpp"
#include "strategies/one_at_a_time.hpp"
#include "strategies/racing.hpp"
#include "strategies/random_search.hpp"

#include <functional>
#include <utility>

namespace disktune::strategies {
namespace {

using Factory = std::function<std::unique_ptr<Strategy>()>;

const std::vector<std::pair<std::string, Factory>>& registry() {
  static const std::vector<std::pair<std::string, Factory>> entries{
      {"one-at-a-time", [] { return std::make_unique<OneAtATime>(); }},
      {"exhaustive", [] { return std::make_unique<Exhaustive>(); }},
      {"racing", [] { return std::make_unique<Racing>(); }},
      {"coordinate-descent", [] { return std::make_unique<CoordinateDescent>(); }},
      {"random", [] { return std::make_unique<RandomSearch>(); }},
  };
  return entries;
}

}  // namespace

std::vector<std::string> strategy_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

// coordinate-descent: the best success rate for the fewest trials in `disktune evaluate`
// (docs/evaluation.md).
std::string default_strategy_name() { return "coordinate-descent"; }

probe::Result<std::unique_ptr<Strategy>> make_strategy(const std::string& name) {
  for (const auto& [known, factory] : registry())
    if (known == name) return factory();
  std::string valid;
  for (const auto& known : strategy_names()) valid += (valid.empty() ? "" : ", ") + known;
  return probe::Error{std::make_error_code(std::errc::invalid_argument),
                      "unknown strategy '" + name + "' (valid: " + valid + ")", ""};
}

}  // namespace disktune::strategies
