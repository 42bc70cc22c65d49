// SPDX-License-Identifier: GPL-2.0-or-later
// The TuneD fragment: a disk unit keyed by udev identity, a sysfs unit for the rest.
#include "results/tuned_profile.hpp"

#include "results/hdparm_flags.hpp"
#include "results/snippet.hpp"
#include "results/udev_rules.hpp"

#include <cctype>
#include <utility>
#include <vector>

namespace disktune::results {
namespace {

using probe::SettingId;
using Options = std::vector<std::pair<std::string, std::string>>;

// The fragment's settings by the TuneD unit that sets them.
struct TunedSplit {
  Options disk;              // disk plugin options, in TuneD's command order
  Options sysfs;             // sysfs paths relative to /sys/block/KERNEL/, in apply order
  probe::Settings ata_only;  // ATA settings TuneD has no option for
};

// Python re: escape everything but the characters that never mean anything in a pattern.
std::string regex_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view("_-:=@").find(c) == std::string_view::npos)
      out += '\\';
    out += c;
  }
  return out;
}

// The udev properties naming the drive ("ID_WWN=0x...", "ID_SERIAL=..."); none for a loop
// device or a drive without identify data.
std::vector<std::string> identity_properties(const DeviceInfo& device) {
  std::vector<std::string> properties;
  if (const auto wwn = udev_id_wwn(device.wwid); !wwn.empty()) properties.push_back("ID_WWN=" + wwn);
  if (const auto serial = udev_id_serial(device.model, device.serial); !serial.empty())
    properties.push_back("ID_SERIAL=" + serial);
  return properties;
}

std::string udev_regex(const std::vector<std::string>& properties) {
  std::string alternatives;
  for (const auto& property : properties) alternatives += (alternatives.empty() ? "" : "|") + regex_escape(property);
  return "^(" + alternatives + ")$";
}

// The disk plugin's option for a queue setting (elevator, readahead), or empty.
std::pair<std::string, std::string> disk_option(SettingId id, const probe::SettingValue& value) {
  switch (id) {
    case SettingId::scheduler: check_scheduler_name(value.text()); return {"elevator", value.text()};
    case SettingId::read_ahead_kb: return {"readahead", std::to_string(value.number())};
    case SettingId::readahead: return {"readahead", std::to_string(value.number()) + " s"};
    default: return {};
  }
}

// readahead in 512-byte sectors is read_ahead_kb / 2 KiB in sysfs (both end in ra_pages).
std::pair<std::string, std::string> sysfs_option(SettingId id, const probe::SettingValue& value) {
  if (id == SettingId::readahead) return {"queue/read_ahead_kb", std::to_string(value.number() / 2)};
  if (!value.is_number()) check_scheduler_name(value.text());
  return {probe::sysfs_block_path(id), probe::format_value(id, value)};
}

void set_option(Options& options, std::pair<std::string, std::string> option) {
  for (auto& [name, value] : options)
    if (name == option.first) {
      value = std::move(option.second);
      return;
    }
  options.push_back(std::move(option));
}

bool is_queue_setting(SettingId id) {
  return id == SettingId::readahead || !probe::setting_info(id).sysfs_attr.empty();
}

// A prefix of the queue settings in apply order goes to the disk unit (TuneD applies it
// before the sysfs unit); from the first one it cannot set on, all go to the sysfs unit.
TunedSplit split_changes(const probe::Settings& changes) {
  TunedSplit split;
  if (const auto it = changes.find(SettingId::apm); it != changes.end())
    set_option(split.disk, {"apm", std::to_string(it->second.number())});
  for (const auto& [id, value] : probe::in_apply_order(changes)) {
    if (!is_queue_setting(id)) {
      if (id != SettingId::apm) split.ata_only.emplace(id, value);
      continue;
    }
    auto option = disk_option(id, value);
    if (split.sysfs.empty() && !option.first.empty())
      set_option(split.disk, std::move(option));
    else
      set_option(split.sysfs, sysfs_option(id, value));
  }
  return split;
}

std::string unit_key(const Report& report, const SnippetTarget& target) {
  const auto serial = udev_id_serial(report.device.model, report.device.serial);
  return serial.empty() ? target.kernel_name : serial;
}

std::string options_text(const Options& options, std::string_view prefix) {
  std::string text;
  for (const auto& [name, value] : options) text += std::string(prefix) + name + '=' + value + '\n';
  return text;
}

std::string disk_unit(const Report& report, const SnippetTarget& target, const Options& options) {
  std::string text = "[disktune-disk-" + unit_key(report, target) + "]\ntype=disk\n";
  const auto properties = identity_properties(report.device);
  if (properties.empty())
    text = "# No udev property identifies this drive (no ID_WWN or ID_SERIAL; a loop device's\n"
           "# backing file is none): TuneD can match it only by kernel name, which may name\n"
           "# another drive after a reboot.\n" +
           text + "devices=" + target.kernel_name + '\n';
  else
    text += "devices_udev_regex=" + udev_regex(properties) + '\n';
  return text + "priority=-1\ndynamic=0\n" + options_text(options, "");
}

std::string sysfs_unit(const Report& report, const SnippetTarget& target, const Options& options) {
  return "# TuneD's sysfs plugin matches paths by glob only, never by udev identity: these lines\n"
         "# name the kernel name " + target.kernel_name +
         ", which may be another drive after a reboot; the udev rule\n"
         "# keys them by identity instead.\n[disktune-sysfs-" + unit_key(report, target) +
         "]\ntype=sysfs\npriority=-1\n" + options_text(options, "/sys/block/" + target.kernel_name + '/');
}

std::string ata_comment(const probe::Settings& ata_only) {
  const auto flags = changes_as_hdparm_flags(ata_only);
  if (flags.empty()) return "";
  return "# TuneD has no option for these ATA settings: apply them with the udev rule or\n"
         "# /etc/hdparm.conf: hdparm " + flags + '\n';
}

constexpr std::string_view kTitle = "TuneD profile fragment";

// The ATA comment and the units; "" when TuneD can apply none of `changes`.
std::string units_of(const Report& report, const SnippetTarget& target, const probe::Settings& changes) {
  const auto split = split_changes(changes);
  if (split.disk.empty() && split.sysfs.empty()) return "";
  std::string text = ata_comment(split.ata_only);
  if (!split.disk.empty()) text += disk_unit(report, target, split.disk);
  if (!split.sysfs.empty()) text += sysfs_unit(report, target, split.sysfs);
  return text;
}

}  // namespace

std::string TunedProfileEmitter::render(const Report& report) const {
  auto [target, changes, text, complete] = start_snippet(report, kTitle);
  if (complete) return text;
  text += "# Append to /etc/tuned/NAME/tuned.conf after its [main] section (include= the profile\n"
          "# it extends), then: tuned-adm profile NAME\n";
  const auto units = units_of(report, target, changes);
  return text + (units.empty() ? ata_comment(split_changes(changes).ata_only) + "# No setting TuneD can apply changed.\n"
                               : rewritten_comment(report, changes) + units);
}

std::string tuned_profile_units(const Report& report) {
  const auto start = start_snippet(report, kTitle);
  return start.complete ? std::string{} : units_of(report, start.target, start.changes);
}

}  // namespace disktune::results
