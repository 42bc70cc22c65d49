// SPDX-License-Identifier: GPL-2.0-or-later
// build_space: legal values per setting, bounded by identify data and the driver's answers;
// the ATA ladders are in ata_values.cpp, the grouping of coupled settings here.
#include "strategies/search_space.hpp"

#include "probe/in_use.hpp"
#include "probe/power_levels.hpp"
#include "strategies/ata_values.hpp"
#include "strategies/prune_log.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace disktune::strategies {
namespace {

using probe::SettingId;
using probe::SettingValue;

SettingValue number(std::int64_t n) { return SettingValue(n); }

// Per-setting legal values (before grouping); nullopt with a reason when not searchable.
struct Candidate {
  SettingId id;
  std::vector<SettingValue> values;
};

std::vector<SettingValue> with_baseline(std::vector<SettingValue> values, const probe::Settings& baseline,
                                        SettingId id) {
  if (const auto it = baseline.find(id); it != baseline.end() &&
                                        std::find(values.begin(), values.end(), it->second) == values.end())
    values.push_back(it->second);
  std::sort(values.begin(), values.end());
  return values;
}

// Legal values of one supported setting; empty + exclusion when they cannot be known.
std::optional<std::vector<SettingValue>> legal_values(const probe::Capability& cap,
                                                      const std::optional<probe::IdentifyInfo>& id,
                                                      const SpaceOptions& options, PruneLog& log,
                                                      std::string& why_not) {
  const bool needs_identify = probe::setting_info(cap.id).risk == probe::Risk::risky;
  if (needs_identify && !id) {
    why_not = "no identify data to bound its legal values";
    return std::nullopt;
  }
  switch (cap.id) {
    case SettingId::multcount: return multcount_values(*id, log);
    case SettingId::io_support: return io_support_values(log);
    case SettingId::unmaskirq: return std::vector{number(0), number(1)};
    case SettingId::using_dma: return using_dma_values(*id, log);
    case SettingId::xfermode: return xfermode_values(*id, log);
    case SettingId::apm:
      log.add(std::string(probe::kApmSpinDownReason), probe::kApmSpinDownLevels);
      return probe::power_level_ladder(cap.id);
    case SettingId::aam: return probe::power_level_ladder(cap.id);
    case SettingId::readahead: {
      std::vector<SettingValue> ladder;
      for (const auto sectors : options.readahead_sectors) ladder.push_back(number(sectors));
      return ladder;
    }
    default:
      if (cap.values.empty()) {
        why_not = "the device lists no values";
        return std::nullopt;
      }
      return cap.values;
  }
}

// Keep only the values the driver says it accepts, when it says (e.g. libata -c).
std::vector<SettingValue> accepted_by_driver(const probe::Capability& cap, std::vector<SettingValue> values,
                                             PruneLog& log) {
  if (cap.values.empty() || probe::setting_info(cap.id).risk == probe::Risk::safe) return values;
  std::vector<SettingValue> kept;
  for (auto& v : values) {
    if (std::find(cap.values.begin(), cap.values.end(), v) != cap.values.end())
      kept.push_back(v);
    else
      log.add(std::string(probe::setting_name(cap.id)) + " value refused by the driver");
  }
  return kept;
}

std::string support_reason(const probe::Capability& cap) {
  const char* kind = cap.support == probe::Support::read_only ? "read-only" : "unsupported";
  return cap.reason.empty() ? kind : std::string(kind) + ": " + cap.reason;
}

struct Refusal {
  std::string reason;  ///< the excluded entry's: "refused on a disk in use: <the hazard>"
  Pruned pruned;       ///< "refused on a disk in use: multcount (-m) values", counted
};

// A knob refused on a disk in use, and how many of its values that leaves out (those
// legal_values would offer; 1 when they cannot be known), or nullopt.
std::optional<Refusal> in_use_refusal(const probe::Capability& cap, const std::optional<probe::IdentifyInfo>& id,
                                     const SpaceOptions& options) {
  if (!options.data_in_use) return std::nullopt;
  const auto hazard = probe::in_use_hazard(cap.id);
  if (!hazard) return std::nullopt;
  PruneLog scratch;  // the refused knob's own bounds would only clutter the report
  std::string why_not;
  const auto values = legal_values(cap, id, options, scratch, why_not);
  const auto& info = probe::setting_info(cap.id);
  const std::string prefix(probe::kInUsePrefix);
  return Refusal{prefix + std::string(*hazard),
                 {prefix + std::string(info.name) + " (" + std::string(info.hdparm_flag) + ") values",
                  values ? values->size() : 1}};
}

bool selected(const SpaceOptions& options, SettingId id) {
  return !options.only || std::find(options.only->begin(), options.only->end(), id) != options.only->end();
}

bool listed(const std::vector<SettingValue>& values, const SettingValue& value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// The value of `ladder` nearest to `held` (the smaller one on a tie). `ladder` not empty.
SettingValue nearest(const std::vector<SettingValue>& ladder, const SettingValue& held) {
  const auto distance = [&held](const SettingValue& v) {
    return v.number() > held.number() ? v.number() - held.number() : held.number() - v.number();
  };
  return *std::min_element(ladder.begin(), ladder.end(),
                           [&](const auto& a, const auto& b) { return distance(a) < distance(b); });
}

std::string pairing_note(const std::string& scheduler, const SettingValue& used, const std::string& why) {
  return "scheduler " + scheduler + " paired with nr_requests " +
         probe::format_value(SettingId::nr_requests, used) + ": " + why;
}

// nr_requests' accepted range depends on the scheduler (and a switch resets it): with the
// per-scheduler ladders the device probed, the scheduler is searched jointly with nr_requests
// as pairs the device accepts. nr_requests searched too: a pair per value searched (the
// current scheduler's ladder) that the scheduler's ladder lists. The scheduler alone: each
// scheduler with the nr_requests held at its baseline value where its ladder lists it. A
// scheduler that accepts none of those values is paired with its ladder's value nearest the
// baseline's (pruned() says which), never dropped or left to a trial the device refuses
// (ata_piix: nr_requests 2 under mq-deadline, only 1 under none). A scheduler without a
// probed ladder pairs with every value.
Group scheduler_group(const std::vector<SettingValue>& schedulers, const std::vector<SettingValue>* nr_values,
                      const std::map<std::string, std::vector<SettingValue>>& ladders,
                      const probe::Settings& baseline, PruneLog& log) {
  const auto held = baseline.find(SettingId::nr_requests);
  Group group{{SettingId::scheduler}, {}};
  if (nr_values || held != baseline.end()) group.settings.push_back(SettingId::nr_requests);
  for (const auto& scheduler : schedulers) {
    const auto ladder = ladders.find(scheduler.text());
    const auto accepted = [&](const SettingValue& n) { return ladder == ladders.end() || listed(ladder->second, n); };
    const auto pair = [&](const SettingValue& n) {
      group.choices.push_back({{SettingId::scheduler, scheduler}, {SettingId::nr_requests, n}});
    };
    if (held == baseline.end() && !nr_values) {
      group.choices.push_back({{SettingId::scheduler, scheduler}});
      continue;
    }
    const std::vector<SettingValue> tried = nr_values ? *nr_values : std::vector<SettingValue>{held->second};
    std::size_t paired = 0;
    for (const auto& n : tried)
      if (accepted(n)) pair(n), ++paired;
    if (nr_values) log.add("nr_requests value refused under that scheduler (probed per scheduler)", tried.size() - paired);
    if (paired > 0) continue;
    if (ladder->second.empty()) {
      log.add("scheduler under which no nr_requests value could be written (probed per scheduler)");
      continue;
    }
    const auto from = held != baseline.end() ? held->second : tried.front();
    const auto used = nearest(ladder->second, from);
    pair(used);
    log.add(pairing_note(scheduler.text(), used,
                         nr_values ? "it accepts none of the nr_requests values searched"
                                   : "its range excludes the held nr_requests " +
                                         probe::format_value(SettingId::nr_requests, held->second)));
  }
  return group;
}

std::vector<Group> group_candidates(const std::vector<Candidate>& candidates,
                                    const std::map<std::string, std::vector<SettingValue>>& nr_ladders,
                                    const probe::Settings& baseline, PruneLog& log) {
  std::vector<Group> groups;
  const std::vector<SettingValue>* dma = nullptr;
  const std::vector<SettingValue>* xfer = nullptr;
  const std::vector<SettingValue>* schedulers = nullptr;
  const std::vector<SettingValue>* nr = nullptr;
  for (const auto& c : candidates) {
    if (c.id == SettingId::using_dma) dma = &c.values;
    if (c.id == SettingId::xfermode) xfer = &c.values;
    if (c.id == SettingId::scheduler) schedulers = &c.values;
    if (c.id == SettingId::nr_requests) nr = &c.values;
  }
  const bool by_scheduler = schedulers && !nr_ladders.empty();
  for (const auto& c : candidates) {
    const bool coupled = dma && xfer && (c.id == SettingId::using_dma || c.id == SettingId::xfermode);
    if (coupled) {
      if (c.id == SettingId::using_dma) groups.push_back(transfer_group(*dma, *xfer, log));
      continue;
    }
    if (by_scheduler && (c.id == SettingId::scheduler || c.id == SettingId::nr_requests)) {
      if (c.id == SettingId::scheduler) groups.push_back(scheduler_group(*schedulers, nr, nr_ladders, baseline, log));
      continue;
    }
    Group group{{c.id}, {}};
    for (const auto& v : c.values) group.choices.push_back({{c.id, v}});
    groups.push_back(std::move(group));
  }
  return groups;
}

// The settings as found are always a legal configuration: the system runs them now. On the
// seed drive that is using_dma=0 with UDMA2 selected on the drive (the host then does PIO),
// a pair the search itself would never propose.
void include_baseline_choice(Group& group, const probe::Settings& baseline) {
  probe::Settings as_found;
  for (const auto id : group.settings)
    if (const auto it = baseline.find(id); it != baseline.end()) as_found[id] = it->second;
  if (as_found.size() != group.settings.size()) return;
  if (std::find(group.choices.begin(), group.choices.end(), as_found) == group.choices.end())
    group.choices.push_back(std::move(as_found));
}

// A tunable exists only under its scheduler: dropped (excluded) when no configuration holds
// that scheduler; otherwise its values under every other scheduler searched are pruned.
void keep_reachable_tunables(std::vector<Candidate>& candidates, const probe::Settings& baseline,
                             std::vector<Excluded>& excluded, PruneLog& log) {
  std::vector<SettingValue> schedulers;
  const auto searched = std::find_if(candidates.begin(), candidates.end(),
                                     [](const auto& c) { return c.id == SettingId::scheduler; });
  if (searched != candidates.end()) schedulers = searched->values;
  else if (const auto held = baseline.find(SettingId::scheduler); held != baseline.end()) schedulers = {held->second};
  std::erase_if(candidates, [&](const Candidate& c) {
    if (!probe::is_scheduler_tunable(c.id)) return false;
    const std::string owner(probe::setting_info(c.id).scheduler);
    const auto others = static_cast<std::size_t>(std::count_if(
        schedulers.begin(), schedulers.end(), [&](const auto& s) { return s.text() != owner; }));
    if (others == schedulers.size() && !schedulers.empty()) {
      excluded.push_back({c.id, "exists only under the " + owner + " scheduler, which is neither active nor searched"});
      return true;
    }
    log.add(std::string(probe::setting_name(c.id)) + " only under " + owner +
                " (queue/iosched/ holds the active scheduler's tunables only)",
            c.values.size() * others);
    return false;
  });
}

}  // namespace

SearchSpace build_space(const std::optional<probe::IdentifyInfo>& identify,
                        const std::vector<probe::Capability>& capabilities,
                        const probe::Settings& baseline, const SpaceOptions& options) {
  PruneLog log;
  std::vector<Excluded> excluded;
  std::vector<Candidate> candidates;
  for (const auto id : probe::all_settings()) {
    const auto cap = std::find_if(capabilities.begin(), capabilities.end(),
                                  [id](const auto& c) { return c.id == id; });
    if (cap == capabilities.end()) {
      excluded.push_back({id, "not offered by this device"});
      continue;
    }
    if (cap->support != probe::Support::supported) {
      excluded.push_back({id, support_reason(*cap)});
      continue;
    }
    // Another scheduler's tunable has no current value: a switch to its scheduler sets it.
    const bool foreign_tunable = probe::is_scheduler_tunable(id) && !probe::applicable(id, baseline);
    if (!baseline.count(id) && !foreign_tunable) {
      excluded.push_back({id, "current value could not be read"});
      continue;
    }
    if (const auto refusal = in_use_refusal(*cap, identify, options)) {
      log.add(refusal->pruned.reason, refusal->pruned.count);
      excluded.push_back({id, refusal->reason});
      continue;
    }
    std::string why_not;
    auto values = legal_values(*cap, identify, options, log, why_not);
    if (!values) {
      excluded.push_back({id, why_not});
      continue;
    }
    auto legal = accepted_by_driver(*cap, std::move(*values), log);
    // The coupled pair keeps its raw values: the baseline may be an illegal pair (DMA off
    // with a DMA mode selected, as on the seed drive) and is measured, not searched.
    if (id != SettingId::using_dma && id != SettingId::xfermode) legal = with_baseline(std::move(legal), baseline, id);
    if (!selected(options, id)) {
      log.add("not selected (--only, --safe-only)", legal.size());
      excluded.push_back({id, "not selected (--only, --safe-only)"});
      continue;
    }
    candidates.push_back({id, std::move(legal)});
  }
  keep_reachable_tunables(candidates, baseline, excluded, log);
  const auto nr_cap = std::find_if(capabilities.begin(), capabilities.end(),
                                   [](const auto& c) { return c.id == SettingId::nr_requests; });
  auto groups = group_candidates(candidates,
                                 nr_cap == capabilities.end() ? std::map<std::string, std::vector<SettingValue>>{}
                                                              : nr_cap->values_by_scheduler,
                                 baseline, log);
  for (auto& group : groups) include_baseline_choice(group, baseline);
  std::erase_if(groups, [](const Group& g) { return g.choices.empty(); });
  return SearchSpace(baseline, std::move(groups), log.take(), std::move(excluded));
}

}  // namespace disktune::strategies
