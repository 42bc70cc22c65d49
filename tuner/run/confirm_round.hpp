// SPDX-License-Identifier: GPL-2.0-or-later
// The confirmation round of a tune: its rounds within the budget, its calls, announced as they run.
#pragma once

#include "tuner/run/decision.hpp"
#include "tuner/run/pipeline.hpp"

#include <cstddef>
#include <ostream>
#include <variant>

namespace disktune::tuner {

/// Confirmation rounds never go below this, whatever --time-budget leaves.
inline constexpr int kMinConfirmRounds = 3;

/// Finalists a confirmation round measures at most, besides the baseline.
inline constexpr std::size_t kMaxFinalists = 3;

/// How much longer a finalist's sample may run than the baseline's [ratio]: samples end at a
/// steady rate or a count of reads (the simulated drives' finalists by up to 18 %).
inline constexpr double kContenderSampleSlack = 1.25;

/// Measurement seconds of one sample, from the baseline's trial (its warm-up counted as a
/// sample): measured_s over its samples; 0 when it has none.
double seconds_per_sample(const strategies::TrialResult& baseline);

/// The measurement seconds a confirmation unit (a warm-up and a kept sample) is expected to
/// take, from the baseline's trial: its warm-up's time (measured_s less its kept samples'
/// sample_seconds) and the mean of its kept samples' (a sample ends early at a steady rate: the
/// EMULATED ssd's took 1.5 s of a 3 s --duration and its warm-up 0.2 s); twice
/// seconds_per_sample when the samples' times are not recorded. An estimate for the time left
/// and the round's announcement; what --time-budget keeps for the round is confirmation_cost_s.
double unit_seconds(const strategies::TrialResult& baseline);

/// What a confirmation round of `rounds` rounds may cost [s]: every contender (at most the
/// baseline and 3 finalists) takes a warm-up and a kept sample of `sample_s` each, a
/// contender's sample up to a quarter longer than the baseline's.
double confirmation_cost_s(int rounds, double sample_s);

/// The rounds of the confirmation round: TrialSettings::confirm_rounds, or with --time-budget
/// as many as what is left holds (at least kMinConfirmRounds).
int confirm_rounds_for(const PipelineInput& input, const PipelineResult& result);

/// The rounds runner call `index` of a round of `rounds` rounds measures: a round of more
/// than kMinConfirmRounds is measured in two calls (strategies::confirm's in_two_calls),
/// kMinConfirmRounds first, the rest second; each extra pass after them a whole round.
int rounds_in_call(int index, int rounds);

/// The finalists' confirmation round of `rounds` rounds through `evaluator` (the store keeps
/// each call as one unit), announced on `log` as it runs (each unit a line, labelled as in
/// the first call: the baseline, finalist i/N), and the winner it decides (tuner::decide), or
/// the Stop a call ran into, passed on as Evaluator::confirm gives it: restore_failed (a
/// contender's settings did not come back), unreadable (the restored drive no longer reads),
/// wedged (a child stuck in the kernel), signal (SIGINT, SIGTERM or SIGHUP during the round:
/// no result is kept, a resume measures it again) or store_failed (the journal could not be
/// written).
std::variant<Decision, strategies::Stop> decide_winner(const PipelineInput& input, const PipelineResult& result,
                                                       strategies::Evaluator& evaluator, int rounds, std::ostream& log);

}  // namespace disktune::tuner
