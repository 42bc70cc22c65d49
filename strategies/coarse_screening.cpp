// SPDX-License-Identifier: GPL-2.0-or-later
// Coarse-first screening: risky groups alone, then rounds of coarse choices, then depth where a knob acts.
#include "strategies/coarse_screening.hpp"

#include "strategies/strategy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <numeric>

namespace disktune::strategies {
namespace {

// A numeric ladder with more alternatives than this: only its ends and midpoints are coarse.
constexpr std::size_t kCoarseLadder = 4;

}  // namespace

std::vector<std::size_t> ladder_of(const Group& group) {
  if (group.settings.size() != 1) return {};
  const auto id = group.settings.front();
  for (const auto& choice : group.choices)
    if (!choice.count(id) || !choice.at(id).is_number()) return {};
  std::vector<std::size_t> order(group.choices.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return group.choices[a].at(id).number() < group.choices[b].at(id).number();
  });
  return order;
}

namespace {

// Position of `choice` in `order`.
std::size_t rank_of(const std::vector<std::size_t>& order, std::size_t choice) {
  return static_cast<std::size_t>(std::find(order.begin(), order.end(), choice) - order.begin());
}

// The single-change configuration of group g's choice c: its choice laid over the baseline.
probe::Settings single_change(const SearchSpace& space, std::size_t g, std::size_t c) {
  return space.with_choice(space.baseline(), g, c);
}

// The baseline and group g's measured single changes that finished ok.
std::vector<const TrialResult*> measured_ok(const SearchSpace& space, const Evaluator& evaluator, std::size_t g) {
  std::vector<const TrialResult*> trials{&evaluator.baseline()};
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    const auto config = single_change(space, g, c);
    if (config == space.baseline()) continue;
    if (const auto* trial = evaluator.measured(config); trial && trial->status == TrialStatus::ok) trials.push_back(trial);
  }
  if (evaluator.baseline().status != TrialStatus::ok) trials.erase(trials.begin());
  return trials;
}

// Fastest over slowest median of group g's measured single changes and the baseline.
double spread_of(const SearchSpace& space, const Evaluator& evaluator, std::size_t g) {
  const auto trials = measured_ok(space, evaluator, g);
  if (trials.size() < 2) return 1.0;
  const auto [low, high] = std::minmax_element(trials.begin(), trials.end(),
                                               [](const auto* a, const auto* b) { return a->median < b->median; });
  return (*low)->median > 0.0 ? (*high)->median / (*low)->median : 1.0;
}

// How often a knob decides a disk's speed (docs/architecture.md's domain facts): lower ranks first.
int promise_rank(const Group& group) {
  static constexpr std::array kOrder{probe::SettingId::read_ahead_kb, probe::SettingId::readahead,
                                     probe::SettingId::max_sectors_kb, probe::SettingId::nr_requests,
                                     probe::SettingId::scheduler, probe::SettingId::queue_depth};
  const auto it = std::find(kOrder.begin(), kOrder.end(), group.settings.front());
  return static_cast<int>(it - kOrder.begin());
}

// The safe groups, most promising first (stable: the space's order among equals).
std::vector<std::size_t> safe_groups_by_promise(const SearchSpace& space) {
  std::vector<std::size_t> groups;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (!group_is_risky(space.groups()[g])) groups.push_back(g);
  std::stable_sort(groups.begin(), groups.end(), [&](std::size_t a, std::size_t b) {
    return promise_rank(space.groups()[a]) < promise_rank(space.groups()[b]);
  });
  return groups;
}

// The distinct values of `id` among the group's choices: ascending when all are numbers,
// else in the order the choices hold them.
std::vector<probe::SettingValue> values_in(const Group& group, probe::SettingId id) {
  std::vector<probe::SettingValue> values;
  bool numbers = true;
  for (const auto& choice : group.choices) {
    const auto it = choice.find(id);
    if (it == choice.end() || std::find(values.begin(), values.end(), it->second) != values.end()) continue;
    values.push_back(it->second);
    numbers = numbers && it->second.is_number();
  }
  if (numbers)
    std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.number() < b.number(); });
  return values;
}

// The values of one setting coarse screening tries, in order: of a numeric ladder longer than
// kCoarseLadder + 1, its largest, its smallest, then halfway (by rank) from `base` to each
// end; of any other, every value. Never `base` itself.
std::vector<probe::SettingValue> coarse_values(const std::vector<probe::SettingValue>& values,
                                               const std::optional<probe::SettingValue>& base) {
  std::vector<probe::SettingValue> picks;
  const auto add = [&](const probe::SettingValue& v) {
    if (v != base && std::find(picks.begin(), picks.end(), v) == picks.end()) picks.push_back(v);
  };
  const bool ladder = !values.empty() && values.front().is_number() && values.size() > kCoarseLadder + 1;
  if (!ladder) {
    for (const auto& v : values) add(v);
    return picks;
  }
  const std::size_t top = values.size() - 1;
  const auto at = base ? std::find(values.begin(), values.end(), *base) : values.end();
  const std::size_t b = at == values.end() ? top / 2 : static_cast<std::size_t>(at - values.begin());
  for (const std::size_t rank : {top, std::size_t{0}, (b + top + 1) / 2, b / 2}) add(values[rank]);
  return picks;
}

// The group's choice holding id = value that stays nearest `base` in the group's other
// settings: the fewest of them changed, then the smallest numeric distance (nr_requests 256
// beside a scheduler switch where that is legal, else the nearest value).
std::optional<std::size_t> nearest_choice(const Group& group, probe::SettingId id, const probe::SettingValue& value,
                                          const probe::Settings& base) {
  std::optional<std::size_t> best;
  double best_distance = 0.0;
  for (std::size_t c = 0; c < group.choices.size(); ++c) {
    const auto& choice = group.choices[c];
    if (!choice.count(id) || choice.at(id) != value) continue;
    double distance = 0.0;
    for (const auto& [other, v] : choice) {
      const auto b = base.find(other);
      if (other == id || b == base.end() || b->second == v) continue;
      distance += 1e12;  // a changed setting outweighs any numeric distance
      if (v.is_number() && b->second.is_number())
        distance += std::abs(std::log2(static_cast<double>(std::max<std::int64_t>(v.number(), 1))) -
                             std::log2(static_cast<double>(std::max<std::int64_t>(b->second.number(), 1))));
    }
    if (!best || distance < best_distance) best = c, best_distance = distance;
  }
  return best;
}

// Evaluates group g's choice c alone unless it is the baseline. False when the search ended.
bool try_single(const SearchSpace& space, Evaluator& evaluator, std::size_t g, std::size_t c) {
  const auto config = single_change(space, g, c);
  if (config == space.baseline()) return true;
  return evaluator.budget_left() && !evaluator.evaluate(config).ended();
}

// Round r: every group's r-th coarse choice. False when the search ended.
bool coarse_rounds(const SearchSpace& space, Evaluator& evaluator, const std::vector<std::size_t>& groups) {
  std::vector<std::vector<std::size_t>> coarse;
  std::size_t rounds = 0;
  for (const std::size_t g : groups) {
    coarse.push_back(coarse_choices(space, g));
    rounds = std::max(rounds, coarse.back().size());
  }
  for (std::size_t round = 0; round < rounds; ++round)
    for (std::size_t i = 0; i < groups.size(); ++i)
      if (round < coarse[i].size() && !try_single(space, evaluator, groups[i], coarse[i][round])) return false;
  return true;
}

// Group g's choices not yet tried, nearest (by rank) to its fastest measured choice first.
std::vector<std::size_t> deep_choices(const SearchSpace& space, const Evaluator& evaluator, std::size_t g) {
  const auto& group = space.groups()[g];
  auto order = ladder_of(group);
  if (order.empty()) {
    order.resize(group.choices.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
  }
  const std::size_t best =
      fastest_single_change(space, evaluator, g).value_or(space.choice_of(space.baseline(), g).value_or(0));
  std::vector<std::size_t> left;
  for (const std::size_t c : order)
    if (!evaluator.measured(single_change(space, g, c))) left.push_back(c);
  const auto best_rank = static_cast<long>(rank_of(order, best));
  std::stable_sort(left.begin(), left.end(), [&](std::size_t a, std::size_t b) {
    return std::labs(static_cast<long>(rank_of(order, a)) - best_rank) <
           std::labs(static_cast<long>(rank_of(order, b)) - best_rank);
  });
  return left;
}

// A trial the hopeless stop ended (stopped_hopeless) was measured only to show it far below
// the incumbent, so against another trial it counts by a factor of two, not as exact: compared
// as exact, one sample's noise (5 % apart among 12.1-12.9 MB/s trials of the throttled bed's
// bad start) made the tied scheduler and nr_requests "act", and their 30 choices were tried
// around the new incumbent.
constexpr double kHopelessResolution = 2.0;

bool clearly_apart(const Evaluator& evaluator, const TrialResult& fast, const TrialResult& slow) {
  if (stopped_hopeless(fast)) return false;  // only known to be slow
  if (stopped_hopeless(slow)) return lower_bound(fast) > kHopelessResolution * slow.median;
  return evaluator.clearly_faster(fast, slow);
}

// The group a screening's best single change is in; nullopt while the baseline is the best.
std::optional<std::size_t> best_group(const SearchSpace& space, const Evaluator& evaluator) {
  const auto& best = evaluator.best().settings;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (space.choice_of(best, g) != space.choice_of(space.baseline(), g)) return g;
  return std::nullopt;
}

}  // namespace

std::vector<std::size_t> coarse_choices(const SearchSpace& space, std::size_t g) {
  const auto& group = space.groups()[g];
  const auto baseline = space.choice_of(space.baseline(), g);
  std::vector<std::size_t> picks;
  for (const auto id : group.settings) {
    const auto base = space.baseline().find(id);
    const auto base_value = base == space.baseline().end() ? std::nullopt : std::optional(base->second);
    for (const auto& value : coarse_values(values_in(group, id), base_value)) {
      const auto c = nearest_choice(group, id, value, space.baseline());
      if (c && c != baseline && std::find(picks.begin(), picks.end(), *c) == picks.end()) picks.push_back(*c);
    }
  }
  return picks;
}

std::optional<std::size_t> fastest_single_change(const SearchSpace& space, const Evaluator& evaluator, std::size_t g) {
  std::optional<std::size_t> best;
  double best_median = evaluator.baseline().median;
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    const auto config = single_change(space, g, c);
    if (config == space.baseline()) continue;
    if (const auto* t = evaluator.measured(config); t && t->status == TrialStatus::ok && t->median > best_median)
      best = c, best_median = t->median;
  }
  return best;
}

bool group_acts(const SearchSpace& space, const Evaluator& evaluator, std::size_t g) {
  const auto trials = measured_ok(space, evaluator, g);
  for (const auto* a : trials)
    for (const auto* b : trials)
      if (a != b && clearly_apart(evaluator, *a, *b)) return true;
  return false;
}

bool bracketed_slower(const SearchSpace& space, const Evaluator& evaluator, std::size_t g, std::size_t c,
                      const TrialResult& incumbent) {
  const auto order = ladder_of(space.groups()[g]);
  const auto own = space.choice_of(incumbent.settings, g);
  if (order.empty() || !own || *own == c) return false;
  auto slower_at = [&](std::size_t rank) {
    const auto* t = evaluator.measured(space.with_choice(incumbent.settings, g, order[rank]));
    return t && t->status == TrialStatus::ok && (stopped_hopeless(*t) || evaluator.clearly_faster(incumbent, *t));
  };
  const std::size_t r = rank_of(order, c), mine = rank_of(order, *own);
  bool near = false, far = false;  // a slower point between c and the incumbent; one beyond c
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == r || !slower_at(k)) continue;
    const bool toward = mine > r ? (k > r && k < mine) : (k < r && k > mine);
    const bool beyond = mine > r ? k < r : k > r;
    near = near || toward;
    far = far || beyond;
  }
  return near && far;
}

std::vector<std::size_t> acting_groups(const SearchSpace& space, const Evaluator& evaluator) {
  std::vector<std::size_t> groups;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (group_acts(space, evaluator, g)) groups.push_back(g);
  return groups;
}

void screen_coarse_first(const SearchSpace& space, Evaluator& evaluator) {
  if (!screen_risky_groups(space, evaluator)) return;
  if (!coarse_rounds(space, evaluator, safe_groups_by_promise(space))) return;
  auto deep = acting_groups(space, evaluator);
  std::erase_if(deep, [&](std::size_t g) { return group_is_risky(space.groups()[g]); });
  std::stable_sort(deep.begin(), deep.end(), [&](std::size_t a, std::size_t b) {
    return spread_of(space, evaluator, a) > spread_of(space, evaluator, b);
  });
  for (const std::size_t g : deep) {
    // Once a single change beats the baseline, another group's choices around the baseline
    // no longer tell where the optimum is: coordinate descent tries them around that change.
    if (const auto lead = best_group(space, evaluator); lead && *lead != g) continue;
    for (const std::size_t c : deep_choices(space, evaluator, g))
      if (!bracketed_slower(space, evaluator, g, c, evaluator.best()) && !try_single(space, evaluator, g, c)) return;
  }
}

std::size_t coarse_screening_trials(const SearchSpace& space) {
  std::size_t count = 0;
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    const bool risky = group_is_risky(space.groups()[g]);
    const auto choices = coarse_choices(space, g);
    for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
      const bool coarse = std::find(choices.begin(), choices.end(), c) != choices.end();
      if ((risky || coarse) && single_change(space, g, c) != space.baseline()) ++count;
    }
  }
  return count;
}

}  // namespace disktune::strategies
