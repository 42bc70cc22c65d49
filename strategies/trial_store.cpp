// SPDX-License-Identifier: GPL-2.0-or-later
// The verdict on unfinished attempts, and the memory-backed TrialStore.
#include "strategies/trial_store.hpp"

namespace disktune::strategies {

std::string death_verdict(const std::string& last_boot_id, int attempts, const std::string& boot_id,
                          const std::string& what) {
  if (last_boot_id != boot_id) return "the machine restarted during " + what + " (boot id changed)";
  if (attempts >= 2) return "the process died in " + what + " twice";
  return "";
}

BaselineInFlight judged_in(BaselineInFlight in_flight, const std::string& boot_id) {
  if (in_flight.last_boot_id != boot_id) ++in_flight.restarts;
  in_flight.last_boot_id = boot_id;
  return in_flight;
}

std::string baseline_death_verdict(const BaselineInFlight& in_flight) {
  if (in_flight.restarts < 2) return "";
  return "the machine restarted twice while the settings as found were measured (last in " + in_flight.what +
         "): measuring them takes this machine down, so no trial is run (--fresh starts over)";
}

std::string baseline_trial_name(TrialKind kind, int index) {
  switch (kind) {
    case TrialKind::baseline: return "the baseline's first trial";
    case TrialKind::baseline_repeat: return "noise repeat " + std::to_string(index);
    case TrialKind::baseline_check: return "the resume's checksum read";
    case TrialKind::search:
    case TrialKind::confirmation_unit: break;
  }
  return "a baseline trial";
}

MemoryTrialStore::MemoryTrialStore(std::string boot_id, TrialHistory history)
    : boot_id_(std::move(boot_id)), history_(std::move(history)) {}

std::optional<Stop> MemoryTrialStore::write() {
  if (!writes_left_) return std::nullopt;
  if (*writes_left_ == 0) return Stop{StopReason::store_failed, "memory store: write: no space left", std::nullopt};
  --*writes_left_;
  return std::nullopt;
}

std::optional<Stop> MemoryTrialStore::begin(const probe::Settings& config, bool quick) {
  if (auto failed = write()) return failed;
  intents_.emplace_back(config, quick);
  Attempts& attempts = pending_[{config, quick}];
  ++attempts.count;
  attempts.last_boot_id = boot_id_;
  return std::nullopt;
}

std::optional<Stop> MemoryTrialStore::record(const TrialResult& trial) {
  if (auto failed = write()) return failed;
  results_.push_back(trial);
  pending_.erase({trial.settings, trial.quick});
  return std::nullopt;
}

std::optional<Stop> MemoryTrialStore::begin_baseline(TrialKind kind, int index) {
  if (auto failed = write()) return failed;
  baseline_intents_.emplace_back(kind, index);
  if (!baseline_pending_) baseline_pending_ = BaselineInFlight{0, 0, boot_id_, ""};
  if (index == 0) {
    if (baseline_pending_->attempts > 0 && baseline_pending_->last_boot_id != boot_id_) ++baseline_pending_->restarts;
    ++baseline_pending_->attempts;
  }
  baseline_pending_->last_boot_id = boot_id_;
  baseline_pending_->what = baseline_trial_name(kind, index);
  return std::nullopt;
}

std::optional<Stop> MemoryTrialStore::begin_unit(const std::vector<probe::Settings>&, int round, int pass,
                                                 std::size_t unit) {
  if (auto failed = write()) return failed;
  unit_intents_.emplace_back(round, pass, unit);
  return std::nullopt;
}

std::optional<Stop> MemoryTrialStore::record_baseline(const Baseline& baseline) {
  if (auto failed = write()) return failed;
  saved_baseline_ = baseline;
  baseline_pending_.reset();
  return std::nullopt;
}

Rounded MemoryTrialStore::confirm_round(const std::vector<probe::Settings>& contenders, int,
                                        const RoundMeasure& measure) {
  auto measured = measure(contenders);
  if (auto* stop = std::get_if<Stop>(&measured)) return std::move(*stop);
  return Round{std::move(std::get<std::vector<TrialResult>>(measured)), ""};
}

MemoryTrialStore MemoryTrialStore::reopen(const std::string& boot_id) const {
  MemoryTrialStore reopened(boot_id);
  reopened.intents_ = intents_;
  reopened.results_ = results_;
  reopened.pending_ = pending_;
  reopened.saved_baseline_ = saved_baseline_;
  reopened.baseline_pending_ = baseline_pending_;
  if (baseline_pending_) reopened.history_.baseline_in_flight = judged_in(*baseline_pending_, boot_id);
  for (const auto& trial : results_) reopened.history_.results[{trial.settings, trial.quick}] = trial;
  for (const auto& [key, attempts] : pending_) {
    const std::string why = death_verdict(attempts.last_boot_id, attempts.count, boot_id, "this trial");
    if (why.empty()) continue;
    TrialResult crashed;
    crashed.settings = key.first;
    crashed.quick = key.second;
    crashed.status = TrialStatus::crashed;
    crashed.detail = why + ": quarantined";
    reopened.history_.crashed[key] = std::move(crashed);
  }
  return reopened;
}

}  // namespace disktune::strategies
