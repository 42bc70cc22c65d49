// SPDX-License-Identifier: GPL-2.0-or-later
// hdparm flag order and change sets shared by the boot.local, hdparm.conf, udev and table emitters.
#include "results/hdparm_flags.hpp"

#include "probe/core/assert.hpp"

#include <array>

namespace disktune::results {
namespace {

using probe::SettingId;

constexpr std::array<SettingId, 8> kFlagOrder{SettingId::xfermode,  SettingId::using_dma,
                                              SettingId::unmaskirq, SettingId::multcount,
                                              SettingId::io_support, SettingId::apm,
                                              SettingId::aam,       SettingId::readahead};

std::string join(const std::vector<std::string>& parts) {
  std::string text;
  for (const auto& part : parts) {
    if (!text.empty()) text += ' ';
    text += part;
  }
  return text;
}

}  // namespace

std::span<const SettingId> hdparm_flag_order() { return kFlagOrder; }

std::string hdparm_flag(SettingId id, const probe::SettingValue& value) {
  const auto& info = probe::setting_info(id);
  DT_ASSERT(!info.hdparm_flag.empty());
  return std::string(info.hdparm_flag) + std::to_string(value.number());
}

std::vector<std::string> hdparm_flag_list(const probe::Settings& changes) {
  std::vector<std::string> flags;
  for (const auto id : kFlagOrder)
    if (const auto it = changes.find(id); it != changes.end())
      flags.push_back(hdparm_flag(id, it->second));
  return flags;
}

std::string changes_as_hdparm_flags(const probe::Settings& changes) {
  return join(hdparm_flag_list(changes));
}

probe::Settings queue_changes(const probe::Settings& changes) {
  probe::Settings queue;
  for (const auto& [id, value] : changes)
    if (!probe::setting_info(id).sysfs_attr.empty()) queue.emplace(id, value);
  return queue;
}

std::string describe_changes(const probe::Settings& changes) {
  auto parts = hdparm_flag_list(changes);
  for (const auto& [id, value] : queue_changes(changes))
    parts.push_back(std::string(probe::setting_name(id)) + '=' + probe::format_value(id, value));
  return join(parts);
}

probe::Settings changed_settings(const probe::Settings& settings, const probe::Settings& baseline) {
  probe::Settings changes;
  for (const auto& [id, value] : settings)
    if (const auto it = baseline.find(id); it == baseline.end() || it->second != value)
      changes.emplace(id, value);
  return changes;
}

}  // namespace disktune::results
