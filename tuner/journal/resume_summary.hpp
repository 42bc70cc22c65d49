// SPDX-License-Identifier: GPL-2.0-or-later
// What a resumed tune journal already holds, in the words of the line that announces the resume.
#pragma once

#include "results/journal.hpp"

#include <string>

namespace disktune::tuner {

/// What `records` (a tune journal's, results::TuneRecords) hold, for "disktune: resuming J:
/// ...": "the baseline, 3 trials and part of the confirmation round measured; the confirmation
/// round in flight when it stopped", "nothing measured yet; the baseline in flight when it
/// stopped" (its trials begun since the last baseline record), "the baseline and 3 trials
/// measured; 1 trial in flight when it stopped", "the baseline measured" when nothing was.
/// Trials count the completed search trials (a quick and a full one of the same settings
/// count twice); in flight counts attempts begun without a result (trials, rounds, the
/// baseline). Errors: none.
std::string resume_summary(const results::TuneRecords& records);

}  // namespace disktune::tuner
