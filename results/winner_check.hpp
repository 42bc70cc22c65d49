// SPDX-License-Identifier: GPL-2.0-or-later
// winner_changes_error: whether a report's winner.changes can be what its tune chose.
#pragma once

#include <boost/json/object.hpp>

#include <string>

namespace disktune::results {

/// Why the winner.changes of `report` (a JSON report, docs/report.md) cannot be what the tune
/// that wrote it chose; "" when they can, or when there is no winner (null) or it keeps the
/// baseline. A tune changes only settings its space searched, to one of the values listed for
/// it (space.dimensions[].values: the values legal on that drive, so multcount 99 or
/// scheduler "bogus" put in by hand is none), and never to the value the baseline already had
/// (strategies::changes_from leaves those out); nor to a value no drive takes
/// (probe::settable_value_error: a space edited along with the winner). Every reader that turns a report into
/// commands (apply, install, the HTML page's snippets) checks this first, so a hand-edited
/// winner is refused instead of being written into boot scripts and udev rules.
/// The text names the field and the reason, e.g. "winner.changes.multcount 99 is not one of the
/// values the tune searched (0, 1, 2, 4, 8, 16)". Errors: none (the reason is the result).
std::string winner_changes_error(const boost::json::object& report);

}  // namespace disktune::results
