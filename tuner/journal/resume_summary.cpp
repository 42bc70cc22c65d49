// SPDX-License-Identifier: GPL-2.0-or-later
// The resume line's account of a tune journal: what was measured, what was in flight.
#include "tuner/journal/resume_summary.hpp"

#include <vector>

namespace disktune::tuner {
namespace {

// "1 trial", "3 trials"; "" for none.
std::string counted(std::size_t n, const std::string& what) {
  if (n == 0) return "";
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// "a", "a and b", "a, b and c" of the non-empty parts.
std::string listed(const std::vector<std::string>& parts) {
  std::vector<std::string> some;
  for (const auto& part : parts)
    if (!part.empty()) some.push_back(part);
  std::string text;
  for (std::size_t i = 0; i < some.size(); ++i)
    text += (i == 0 ? "" : i + 1 == some.size() ? " and " : ", ") + some[i];
  return text;
}

// What was measured: the baseline (kept before anything else is), trials and the round's calls
// (a journal's round records are the round's parts: its first and second call, extra passes).
std::string measured(const results::TuneRecords& records) {
  if (!records.baseline) return "nothing measured yet";
  return listed({"the baseline", counted(records.results.size(), "trial"),
                 records.rounds.empty() ? "" : "part of the confirmation round"}) +
         " measured";
}

}  // namespace

std::string resume_summary(const results::TuneRecords& records) {
  const std::string in_flight =
      listed({records.baseline_in_flight ? "the baseline" : "", counted(records.pending.size(), "trial"),
              records.pending_rounds.empty() ? "" : "the confirmation round"});
  return measured(records) + (in_flight.empty() ? "" : "; " + in_flight + " in flight when it stopped");
}

}  // namespace disktune::tuner
