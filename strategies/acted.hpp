// SPDX-License-Identifier: GPL-2.0-or-later
// Which settings made a difference beyond the noise: the one rule the table, the JSON and the HTML report.
#pragma once

#include "probe/settings.hpp"
#include "strategies/evaluator.hpp"
#include "strategies/search_space.hpp"

#include <vector>

namespace disktune::strategies {

/// The settings that acted in `evaluator`'s search (docs/statistics.md, "What acted"): a
/// setting acted when two ok measurements (the baseline and the search's trials) that differ
/// only in settings of its group are apart beyond the noise (Evaluator::apart: one
/// significantly_faster than the other, a one-sample trial with its value's noise band), and
/// it is one of the settings they differ in (of a coupled group, not the partner no trial
/// changed). The same rule for every objective and every sampling stop. In group order, then
/// the group's setting order. Measures nothing.
std::vector<probe::SettingId> acted_settings(const SearchSpace& space, const Evaluator& evaluator);

}  // namespace disktune::strategies
