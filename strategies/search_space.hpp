// SPDX-License-Identifier: GPL-2.0-or-later
// SearchSpace: the legal setting combinations for one device, and what was pruned and why.
#pragma once

#include "probe/device.hpp"
#include "probe/identify/identify.hpp"
#include "probe/settings.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace disktune::strategies {

/// Settings that are legal only jointly form one group. Every group but one holds a single
/// setting; using_dma and xfermode form one group, because a DMA xfermode is legal only with
/// using_dma=1 and a PIO xfermode only with using_dma=0 (docs/architecture.md "Settings catalogue").
/// A scheduler tunable's group (one setting) applies only to configurations holding its
/// scheduler: under another it is dropped (see with_choice).
struct Group {
  std::vector<probe::SettingId> settings;  ///< the settings this group assigns, apply order
  std::vector<probe::Settings> choices;    ///< every legal joint assignment of them
};

/// Values (or joint assignments) left out of the space, counted under one stated reason.
struct Pruned {
  std::string reason;
  std::size_t count = 0;
};

/// A setting that is not searched at all, and why (driver refusal, read-only, --only).
struct Excluded {
  probe::SettingId id;
  std::string reason;
};

/// The legal space: the cartesian product of the groups' choices, each laid over the
/// baseline (settings outside every group keep their baseline value).
class SearchSpace {
 public:
  SearchSpace(probe::Settings baseline, std::vector<Group> groups, std::vector<Pruned> pruned,
              std::vector<Excluded> excluded);

  [[nodiscard]] const probe::Settings& baseline() const { return baseline_; }
  [[nodiscard]] const std::vector<Group>& groups() const { return groups_; }
  [[nodiscard]] const std::vector<Pruned>& pruned() const { return pruned_; }
  [[nodiscard]] const std::vector<Excluded>& excluded() const { return excluded_; }

  /// Number of legal full configurations (product of the groups' choice counts;
  /// saturates at SIZE_MAX). 1 when there are no groups (only the baseline).
  [[nodiscard]] std::size_t legal_count() const;
  /// The configuration for one choice index per group (indices.size() == groups().size()).
  [[nodiscard]] probe::Settings configuration(const std::vector<std::size_t>& indices) const;
  /// `base` with group `group`'s choice `choice` laid over it; then without the tunables of
  /// schedulers other than the one it holds (probe::applicable_only), and with each searched
  /// tunable of its scheduler that it lacks set to the baseline's value, else the kernel's
  /// default where searched, else its first choice (a switch to that scheduler brings it).
  [[nodiscard]] probe::Settings with_choice(const probe::Settings& base, std::size_t group,
                                            std::size_t choice) const;
  /// True when every group's settings in `config` form one of its choices and no other
  /// setting differs from the baseline; groups of another scheduler's tunables must be
  /// absent instead (they do not exist under the scheduler `config` holds).
  [[nodiscard]] bool contains(const probe::Settings& config) const;
  /// Distinct legal values of one setting, ascending (empty if it is not searched).
  [[nodiscard]] std::vector<probe::SettingValue> values(probe::SettingId id) const;
  /// Index of the choice of group `group` that `config` holds, or nullopt.
  [[nodiscard]] std::optional<std::size_t> choice_of(const probe::Settings& config,
                                                     std::size_t group) const;

 private:
  [[nodiscard]] probe::SettingValue arrival_value(const Group& group) const;

  probe::Settings baseline_;
  std::vector<Group> groups_;
  std::vector<Pruned> pruned_;
  std::vector<Excluded> excluded_;
};

/// What to search.
struct SpaceOptions {
  /// Restrict the search to these settings (--only); nullopt = every supported setting.
  std::optional<std::vector<probe::SettingId>> only;
  /// Readahead ladder for the -a knob, in 512-byte sectors (hdparm accepts 0..2048).
  std::vector<std::int64_t> readahead_sectors{0, 8, 32, 128, 512, 2048};
  /// The disk's data is in use (--allow-mounted): the knobs with a probe::in_use_hazard are
  /// not searched (excluded, their values pruned, under "refused on a disk in use: <why>").
  bool data_in_use = false;
};

/// Build the legal space for a device from its identify data (nullopt when the device has
/// none), its capabilities and the baseline settings. Bounds (docs/ata-reference.md §4.1):
/// multcount 0 and powers of two <= MaxMultSect (word 47); io_support 0/1/3; unmaskirq 0/1;
/// using_dma 1 only with word 49 bit 8; xfermode from the supported PIO (51, 64), MDMA (63)
/// and UDMA (88 via 53 bit 2) modes, UDMA above 2 only when word 93 reports an 80-wire cable;
/// readahead from the ladder; queue settings from the values the device lists. Settings that
/// are unsupported or read-only are excluded with the driver's reason; on a disk in use
/// (options.data_in_use) the supported knobs with a probe::in_use_hazard are excluded with
/// it, whether --only named them or not (the caller refuses that). Every value left out
/// is counted in pruned() under its reason. The baseline is always in the space (each group
/// also offers its settings as found), so every screening step is a legal configuration.
SearchSpace build_space(const std::optional<probe::IdentifyInfo>& identify,
                        const std::vector<probe::Capability>& capabilities,
                        const probe::Settings& baseline, const SpaceOptions& options);

}  // namespace disktune::strategies
