// SPDX-License-Identifier: GPL-2.0-or-later
// Coarse-first screening (coordinate-descent's): every knob tried once before any is tried twice.
#pragma once

#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace disktune::strategies {

/// The group's choice indices in ascending order of its setting's value when it is a numeric
/// ladder (one setting, every choice a number); else empty. Measures nothing.
std::vector<std::size_t> ladder_of(const Group& group);

/// The choices of group `g` that coarse screening tries, in the order it tries them (the
/// baseline's own choice never among them). For each of the group's settings in turn: of a
/// numeric ladder of more than five values, its largest value, its smallest, then the values
/// halfway (by rank) between the baseline's and each end (an effect that grows or saturates
/// along the ladder shows at its ends, and the midpoints bracket an optimum inside it); of
/// any other setting (a scheduler, nomerges, rq_affinity, a short ladder), every value. Each
/// value is tried in the choice that keeps the group's other settings nearest the baseline
/// (a scheduler switch with nr_requests 256 where that is legal, else the nearest value), so
/// a scheduler group with its nr_requests pairs (30 choices here) costs six coarse trials.
std::vector<std::size_t> coarse_choices(const SearchSpace& space, std::size_t g);

/// The choice of group `g` whose single-change trial in `evaluator` (the choice laid over the
/// baseline) finished ok with the highest median above the baseline's; nullopt when none beat
/// the baseline's median or none was measured. Measures nothing.
std::optional<std::size_t> fastest_single_change(const SearchSpace& space, const Evaluator& evaluator, std::size_t g);

/// True when group `g`'s single-change trials in `evaluator` (its choices laid over the
/// baseline) and the baseline show an effect beyond the noise: one of them is
/// Evaluator::clearly_faster than another (so a knob that only slows the device acts too:
/// its other values may speed it up). A trial stopped as clearly slower after one sample
/// (the hopeless stop: no interval) counts only when the other's lower bound is more than
/// twice its figure, the factor that stop resolves. Measures nothing.
bool group_acts(const SearchSpace& space, const Evaluator& evaluator, std::size_t g);

/// True when group `g` is a numeric ladder (one numeric setting), `c` is not the incumbent's
/// own choice, and among g's choices laid over `incumbent` one between c and the incumbent's
/// and one beyond c were measured clearly slower than `incumbent` (Evaluator::clearly_faster,
/// or stopped_hopeless). Along a ladder a knob's effect rises to one optimum and falls
/// (readahead, request size, queue depth: docs/architecture.md's domain facts), so a value between two
/// slower ones, the incumbent outside them, cannot beat it (max_sectors_kb 8-64
/// between 4 and 128, both under a tenth of 1024's rate, took four hopeless trials of up to
/// 13 s on the throttled bed). Measures nothing.
bool bracketed_slower(const SearchSpace& space, const Evaluator& evaluator, std::size_t g, std::size_t c,
                      const TrialResult& incumbent);

/// The groups that act (group_acts), in group order. Measures nothing.
std::vector<std::size_t> acting_groups(const SearchSpace& space, const Evaluator& evaluator);

/// Screening for a search whose budget may not cover every single change:
///  1. risky groups (probe::Risk::risky) first, every choice alone, as screen_single_changes
///     does: a hang or a fault has one suspect;
///  2. the other groups in rounds: round r tries every group's r-th coarse choice
///     (coarse_choices), the groups ordered by how often their knob decides a disk's speed
///     (read_ahead_kb, readahead, max_sectors_kb, nr_requests, scheduler, queue_depth, then
///     the space's order), so a budget of one trial per knob screens every knob;
///  3. the remaining choices of the groups that act (group_acts), the group with the largest
///     spread between its fastest and slowest single change first, each group's choices
///     nearest (by rank) to its fastest measured one first, none bracketed_slower around
///     Evaluator::best(); once a single change beats the
///     baseline (Evaluator::best), only its own group's (the others are tried around it by
///     coordinate descent's passes, not around the baseline it left behind).
/// Groups that did not act keep their remaining choices unmeasured. Every trial is a single
/// change from the baseline. Stops when the budget is spent or the search is stopped.
void screen_coarse_first(const SearchSpace& space, Evaluator& evaluator);

/// The trials of screen_coarse_first's phases 1 and 2 (every risky group's choices and every
/// other group's coarse choices), before quarantine or the budget cut them: what it takes
/// before any group is known to act (the whole screening, every group acting, takes
/// screening_trials(space): strategies/forecast.hpp).
std::size_t coarse_screening_trials(const SearchSpace& space);

}  // namespace disktune::strategies
