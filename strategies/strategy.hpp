// SPDX-License-Identifier: GPL-2.0-or-later
// Strategy: searches a SearchSpace through an Evaluator (Kernel Tuner's strategy shape).
#pragma once

#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"

#include <cstddef>
#include <optional>
#include <string_view>

namespace disktune::strategies {

/// Measurement seconds a search's trials left take, for each of a TrialForecast's counts [s].
struct ForecastSeconds {
  double expected = 0.0;  ///< the trials left of `total`
  double fewest = 0.0;    ///< the trials left of `fewest`
  double most = 0.0;      ///< the trials left of `most`
};

/// How many search trials a run takes (the baseline not counted), for progress and its ETA.
struct TrialForecast {
  std::size_t total = 0;   ///< trials of the whole search, those done included (>= trials so far)
  bool estimated = true;   ///< false when the count is known in advance (exhaustive)
  /// The fewest trials the whole search may end with, those done included (<= total): what it
  /// runs for sure (coordinate descent may stop after any pass that moves nothing). nullopt:
  /// as total.
  std::optional<std::size_t> fewest;
  /// The most trials the whole search may take, those done included (>= total): where every
  /// gain it predicts holds when measured. nullopt: as total.
  std::optional<std::size_t> most;
  /// The measurement seconds the trials left take (strategies::measurement_seconds summed over
  /// them, as expected for total, fewest and most), where the strategy predicts each trial;
  /// nullopt: the count at the mean time per trial so far.
  std::optional<ForecastSeconds> seconds;
};

/// A search strategy over a SearchSpace (Kernel Tuner's strategy shape: a strategy is handed
/// the space and a cost function, here the Evaluator, and nothing else).
///
/// Contract for implementations:
/// - A strategy never sees a device, a clock or a journal: it asks Evaluator::evaluate for a
///   full configuration (one that space.contains()) and gets a TrialResult back, or nullptr
///   when the budget is spent or the configuration holds a quarantined value (docs/architecture.md:
///   a value that hung, crashed or failed alone is never applied again). On nullptr it
///   checks Evaluator::budget_left() and returns when that is false.
/// - It starts with screen_single_changes (below), so that a fault always has one suspect.
/// - It is deterministic for a given space, evaluator results and seed (random search uses a
///   fixed seed, strategies/random_search.hpp), so a resumed run asks for the same
///   configurations and the journal's results are reused, not re-measured.
/// - It returns when its search is done or the budget is spent; the winner is chosen
///   afterwards from the evaluator's trials (strategies/winner_rule.hpp), never by the strategy.
/// Errors: none of its own; a stop (signal, journal failure, wedged device) reaches it as
/// the evaluator's spent budget.
class Strategy {
 public:
  virtual ~Strategy() = default;
  /// Registry name, as --strategy takes it ("exhaustive", "one-at-a-time", "coordinate-descent",
  /// "random", "racing"; strategies/registry.hpp lists them).
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// One line for --help: what it searches and how many trials it needs.
  [[nodiscard]] virtual std::string_view description() const = 0;
  /// Search `space` by asking `evaluator`, until done, the evaluator's budget is spent or it
  /// reports a stop (an Evaluation that ended(): return then; Evaluator::stop() says why).
  /// Never throws a stop. Precondition: evaluator was built over this same space.
  virtual void run(const SearchSpace& space, Evaluator& evaluator) = 0;
  /// The trials this strategy's run over `space` takes, given what `evaluator` has recorded
  /// so far (strategies/forecast.hpp): exact where the count is known in advance, else an
  /// estimate refined as the search goes. Default: the screening (screening_trials) and the
  /// trials since, plus one. Never less than the trials recorded. No side effects.
  [[nodiscard]] virtual TrialForecast forecast(const SearchSpace& space, const Evaluator& evaluator) const;
};

/// Screening, the first phase of every strategy: each group's every choice alone against the
/// baseline (one group changed, all others at the baseline's value), the groups holding a
/// risky setting (probe::Risk::risky: multcount, io_support, unmaskirq, using_dma, xfermode)
/// first, and within a coupled group the choices that change fewest settings first (DMA on
/// at the current mode before any mode with it). So a hang or a fault always has one suspect
/// (docs/architecture.md, "Hangs, crashes and reboots"); the evaluator quarantines a choice whose
/// single-change trial fails, and it is never combined. Stops early when the budget is spent.
void screen_single_changes(const SearchSpace& space, Evaluator& evaluator);

/// True when `group` holds a risky setting (probe::Risk::risky).
bool group_is_risky(const Group& group);

/// The first part of screen_single_changes: every choice of every risky group alone, in that
/// order. Returns false when the search ended (budget spent or stopped) before it finished.
bool screen_risky_groups(const SearchSpace& space, Evaluator& evaluator);

}  // namespace disktune::strategies
