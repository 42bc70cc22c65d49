// SPDX-License-Identifier: GPL-2.0-or-later
// coordinate-descent: passes over the groups from the incumbent, then the within-noise moves combined.
#include "strategies/coordinate_descent.hpp"

#include "strategies/coarse_screening.hpp"
#include "strategies/forecast.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

namespace disktune::strategies {
namespace {

// Which choices of a group a pass tries: every one, or (the check of a tied group) its coarse ones.
enum class Depth { every, coarse };

// True when `trial` differs only in group g from a measured configuration the hopeless stop did
// not end: g's choice is what made it hopeless.
bool hopeless_by(const SearchSpace& space, const Evaluator& evaluator, const TrialResult& trial, std::size_t g) {
  if (!stopped_hopeless(trial)) return false;
  for (std::size_t c = 0; c < space.groups()[g].choices.size(); ++c) {
    const auto other = space.with_choice(trial.settings, g, c);
    if (other == trial.settings) continue;
    if (const auto* measured = evaluator.measured(other); measured && measured->status == TrialStatus::ok &&
                                                          !stopped_hopeless(*measured))
      return true;
  }
  return false;
}

// True when group g's choice c made a trial hopeless (stopped_hopeless, hopeless_by) around an
// earlier incumbent: it read far below that one (under three quarters, twice). A move of another
// group gains a few per cent, not the factor that would make it a contender (on
// the throttled bed max_sectors_kb 4-256 took 7 trials of up to 11 s again after a readahead move).
bool hopeless_before(const SearchSpace& space, const Evaluator& evaluator, std::size_t g, std::size_t c) {
  return std::any_of(evaluator.trials().begin(), evaluator.trials().end(), [&](const TrialResult& t) {
    return space.choice_of(t.settings, g) == c && hopeless_by(space, evaluator, t, g);
  });
}

// Where a pass's walk along one group stands: the fastest so far, and whether the search ended.
struct Walk {
  const TrialResult* top;
  bool ended = false;
};

// Evaluates group g's choice c around `incumbent` (unless it is the incumbent or quarantined)
// into `walk`. Returns the trial when one finished ok.
const TrialResult* step(const SearchSpace& space, Evaluator& evaluator, std::size_t g, std::size_t c,
                        const TrialResult* incumbent, Walk& walk) {
  const auto config = space.with_choice(incumbent->settings, g, c);
  if (config == incumbent->settings || evaluator.quarantined(config)) return nullptr;
  const Evaluation trial = evaluator.evaluate(config);
  if (trial.ended()) walk.ended = true;
  if (!trial || trial->status != TrialStatus::ok) return nullptr;
  if (trial->median > walk.top->median) walk.top = trial.get();
  return trial.get();
}

// Kept walking a ladder in one direction until this many values in a row were clearly slower
// than the incumbent: along a ladder an effect rises to one optimum and falls (bracketed_slower),
// and one slower value may be noise.
constexpr int kSlowerInRow = 2;

// Group g's values from the incumbent's outward, each way until kSlowerInRow in a row are
// clearly slower (or were hopeless before, or lie between slower ones): a bad start's
// max_sectors_kb 8-256 below the 512 already slower were each tried again.
void walk_ladder(const SearchSpace& space, Evaluator& evaluator, std::size_t g, const std::vector<std::size_t>& order,
                 const TrialResult* incumbent, Walk& walk) {
  const auto own = static_cast<long>(std::find(order.begin(), order.end(), *space.choice_of(incumbent->settings, g)) -
                                     order.begin());
  for (const long dir : {1L, -1L}) {
    int slower = 0;
    for (long k = own + dir; k >= 0 && k < static_cast<long>(order.size()) && slower < kSlowerInRow; k += dir) {
      const std::size_t c = order[static_cast<std::size_t>(k)];
      const bool measured = evaluator.measured(space.with_choice(incumbent->settings, g, c)) != nullptr;
      if (hopeless_before(space, evaluator, g, c) ||
          (!measured && bracketed_slower(space, evaluator, g, c, *incumbent))) {
        ++slower;
        continue;
      }
      const TrialResult* trial = step(space, evaluator, g, c, incumbent, walk);
      if (walk.ended) return;
      if (trial) slower = stopped_hopeless(*trial) || evaluator.clearly_faster(*incumbent, *trial) ? slower + 1 : 0;
    }
  }
}

// The fastest choice of group g around `incumbent` by median (the incumbent when none is
// faster): its coarse choices, or every choice (a numeric ladder walked out from the
// incumbent's value, walk_ladder; of another group, those not hopeless before).
const TrialResult* fastest_move(const SearchSpace& space, Evaluator& evaluator, std::size_t g,
                                const TrialResult* incumbent, Depth depth) {
  Walk walk{incumbent};
  const auto order = ladder_of(space.groups()[g]);
  if (depth == Depth::every && !order.empty() && space.choice_of(incumbent->settings, g)) {
    walk_ladder(space, evaluator, g, order, incumbent, walk);
    return walk.top;
  }
  std::vector<std::size_t> choices = coarse_choices(space, g);
  if (depth == Depth::every) {
    choices.resize(space.groups()[g].choices.size());
    std::iota(choices.begin(), choices.end(), std::size_t{0});
    std::erase_if(choices, [&](std::size_t c) { return hopeless_before(space, evaluator, g, c); });
  }
  for (const std::size_t c : choices)
    if (step(space, evaluator, g, c, incumbent, walk); walk.ended) break;
  return walk.top;
}

// One pass over `groups`, moving to a group's fastest choice when it is significantly faster
// than the incumbent. Returns true when it moved; else `faster` gets, laid over it, each
// group's fastest choice (the within-noise moves).
bool pass(const SearchSpace& space, Evaluator& evaluator, const std::vector<std::size_t>& groups,
          const TrialResult*& incumbent, probe::Settings& faster, Depth depth = Depth::every) {
  bool moved = false;
  for (const std::size_t g : groups) {
    if (!evaluator.budget_left()) break;
    const TrialResult* top = fastest_move(space, evaluator, g, incumbent, depth);
    if (top == incumbent) continue;
    if (evaluator.clearly_faster(*top, *incumbent)) {
      incumbent = top;
      moved = true;
    } else if (const auto choice = space.choice_of(top->settings, g); choice && !moved) {
      faster = space.with_choice(faster, g, *choice);
    }
  }
  return moved;
}

// `config` with each group not in `acting` set to its fastest single change in screening,
// when that was faster than the baseline (a gain within the noise, never re-measured per pass).
probe::Settings with_screening_gains(const SearchSpace& space, const Evaluator& evaluator,
                                     const std::vector<std::size_t>& acting, probe::Settings config) {
  for (std::size_t g = 0; g < space.groups().size(); ++g) {
    if (std::find(acting.begin(), acting.end(), g) != acting.end()) continue;
    if (const auto pick = fastest_single_change(space, evaluator, g)) {
      auto candidate = space.with_choice(config, g, *pick);
      if (space.contains(candidate)) config = std::move(candidate);
    }
  }
  return config;
}

// The groups not in `acting`.
std::vector<std::size_t> others(const SearchSpace& space, const std::vector<std::size_t>& acting) {
  std::vector<std::size_t> rest;
  for (std::size_t g = 0; g < space.groups().size(); ++g)
    if (std::find(acting.begin(), acting.end(), g) == acting.end()) rest.push_back(g);
  return rest;
}

// Adds to `acting` the groups whose choice differs between `before` and `after`.
void add_moved(const SearchSpace& space, const probe::Settings& before, const probe::Settings& after,
               std::vector<std::size_t>& acting) {
  for (const std::size_t g : others(space, acting))
    if (space.choice_of(before, g) != space.choice_of(after, g)) acting.push_back(g);
  std::sort(acting.begin(), acting.end());
}

}  // namespace

std::string_view CoordinateDescent::name() const { return "coordinate-descent"; }
std::string_view CoordinateDescent::description() const {
  return "screen coarsely (every setting once before any twice), then deeply where a setting acts; from the best "
         "so far change one acting setting at a time, repeated until no move helps; then try the small gains "
         "together";
}

void CoordinateDescent::run(const SearchSpace& space, Evaluator& evaluator) {
  screen_coarse_first(space, evaluator);
  if (evaluator.stop()) return;
  // A knob whose values all tied with the baseline in screening is not tried around every new
  // incumbent (most knobs tie the first time, and every move would re-measure them), only
  // at its coarse values once where the passes converge away from the baseline: a knob may act
  // only there (the simulated drives' nr_requests under another scheduler; without that check
  // 2 % fewer runs of rand-read-iops reached the optimum). Where it acts, it joins the passes.
  auto acting = acting_groups(space, evaluator);
  const TrialResult* incumbent = &evaluator.best();
  bool rest_checked = false;
  while (evaluator.budget_left()) {
    probe::Settings faster = incumbent->settings;
    if (pass(space, evaluator, acting, incumbent, faster)) {
      rest_checked = false;
      continue;
    }
    if (incumbent->settings == space.baseline()) {
      faster = with_screening_gains(space, evaluator, acting, faster);  // the screening judged them here
    } else if (!rest_checked) {
      rest_checked = true;
      const TrialResult* before = incumbent;
      if (pass(space, evaluator, others(space, acting), incumbent, faster, Depth::coarse)) {
        add_moved(space, before->settings, incumbent->settings, acting);
        continue;
      }
    }
    // No single move was significant: gains each within the noise may add up to one that is.
    if (faster == incumbent->settings || evaluator.quarantined(faster)) return;
    const Evaluation combined = evaluator.evaluate(faster);
    if (!combined || !evaluator.clearly_faster(*combined, *incumbent)) return;
    incumbent = combined.get();
  }
}

TrialForecast CoordinateDescent::forecast(const SearchSpace& space, const Evaluator& evaluator) const {
  return coordinate_descent_forecast(space, evaluator);
}

}  // namespace disktune::strategies
