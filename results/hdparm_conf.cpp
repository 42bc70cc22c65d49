// SPDX-License-Identifier: GPL-2.0-or-later
// The /etc/hdparm.conf block: key = value lines inside "DEVICE {" ... "}".
#include "results/hdparm_conf.hpp"

#include "results/hdparm_flags.hpp"
#include "results/snippet.hpp"

#include "probe/core/assert.hpp"
#include "probe/core/text.hpp"

#include <sstream>

namespace disktune::results {
namespace {

using probe::SettingId;

// Key map of Debian's hdparm-functions (docs/ata-reference.md §6.2).
std::string_view conf_key(SettingId id) {
  switch (id) {
    case SettingId::xfermode: return "transfer_mode";
    case SettingId::using_dma: return "dma";
    case SettingId::unmaskirq: return "interrupt_unmask";
    case SettingId::multcount: return "mult_sect_io";
    case SettingId::io_support: return "io32_support";
    case SettingId::readahead: return "read_ahead_sect";
    case SettingId::apm: return "apm";
    case SettingId::aam: return "acoustic_management";
    default: break;
  }
  DT_ASSERT(false && "setting has no hdparm.conf key");
  return "";
}

std::string conf_value(SettingId id, const probe::SettingValue& value) {
  if (id == SettingId::using_dma || id == SettingId::unmaskirq)
    return value.number() != 0 ? "on" : "off";
  return std::to_string(value.number());
}

std::string conf_block(const SnippetTarget& target, const probe::Settings& changes) {
  std::string text = target.hdparm_device + " {\n";
  for (const auto id : hdparm_flag_order())
    if (const auto it = changes.find(id); it != changes.end())
      text += '\t' + std::string(conf_key(id)) + " = " + conf_value(id, it->second) + '\n';
  return text + "}\n";
}

// `intro` (comment lines) followed by one "#   name = value" line per setting.
std::string settings_comment(std::string_view intro, const probe::Settings& settings) {
  if (settings.empty()) return "";
  std::string text(intro);
  for (const auto& [id, value] : probe::in_apply_order(settings))
    text += "#   " + std::string(probe::setting_name(id)) + " = " +
            probe::one_line(probe::format_value(id, value)) + '\n';
  return text;
}

std::string queue_comment(const probe::Settings& queue) {
  return settings_comment(
      "# Queue settings cannot be expressed in /etc/hdparm.conf; use the udev rules or the\n"
      "# boot.local snippet for:\n",
      queue);
}

// 85-hdparm.rules runs /lib/udev/hdparm only for KERNEL=="[sh]d[a-z]", and its reader cuts
// a resolved by-id name at the first digit: a block for any other kernel name is never applied.
bool debian_applies_to(std::string_view kernel_name) {
  return kernel_name.size() == 3 && (kernel_name[0] == 's' || kernel_name[0] == 'h') &&
         kernel_name[1] == 'd' && kernel_name[2] >= 'a' && kernel_name[2] <= 'z';
}

std::string not_applied_comment(const SnippetTarget& target, const probe::Settings& changes) {
  probe::Settings ata = changes;
  std::erase_if(ata, [](const auto& entry) { return !probe::setting_info(entry.first).sysfs_attr.empty(); });
  return settings_comment(
      "# Debian's hdparm applies /etc/hdparm.conf only to /dev/sd[a-z] and /dev/hd[a-z]\n"
      "# (85-hdparm.rules; its reader cuts a by-id name's target at the first digit): a block\n"
      "# for " + target.kernel_name + " would never be applied, so none is written. Use the udev rules for:\n",
      ata);
}

constexpr std::string_view kTitle = "/etc/hdparm.conf block";

// What follows the header: the block (stanza true), or comments saying why there is none.
struct Body {
  std::string text;
  bool stanza = false;
};

Body body_of(const Report& report, const SnippetTarget& target, const probe::Settings& changes) {
  const auto queue = queue_comment(queue_changes(changes));
  if (hdparm_flag_list(changes).empty()) return {"# No ATA setting changed: nothing for /etc/hdparm.conf.\n" + queue};
  if (!report.device.simulated && !debian_applies_to(target.kernel_name))
    return {not_applied_comment(target, changes) + queue};
  std::string text;
  if (target.stable_path.empty() && !report.device.simulated)
    text += "# No /dev/disk/by-id name is known: " + target.hdparm_device + " may name another drive after a reboot.\n";
  return {text + conf_block(target, changes) + queue, true};
}

}  // namespace

std::string HdparmConfEmitter::render(const Report& report) const {
  auto [target, changes, text, complete] = start_snippet(report, kTitle);
  if (complete) return text;
  const auto body = body_of(report, target, changes);
  if (body.stanza) text += "# Append to /etc/hdparm.conf (Debian/Ubuntu): applied at boot and by udev on hot-plug.\n";
  return text + body.text;
}

std::string hdparm_conf_stanza(const Report& report) {
  const auto start = start_snippet(report, kTitle);
  if (start.complete) return "";
  auto body = body_of(report, start.target, start.changes);
  return body.stanza ? std::move(body.text) : std::string{};
}

std::string hdparm_conf_missing_reason(const Report& report) {
  const auto start = start_snippet(report, kTitle);
  if (start.complete) {
    // The snippet's own comment lines after its header say why nothing is recommended.
    std::string why;
    std::istringstream lines(start.text.substr(snippet_header(report, kTitle).size()));
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("# ")) line.erase(0, 2);
      if (!line.empty()) why += (why.empty() ? "" : " ") + line;
    }
    return why;
  }
  if (hdparm_flag_list(start.changes).empty())
    return "its answer changes no ATA setting or readahead (only queue settings, which hdparm.conf cannot hold)";
  if (!report.device.simulated && !debian_applies_to(start.target.kernel_name))
    return "Debian's hdparm applies /etc/hdparm.conf only to /dev/sd[a-z] and /dev/hd[a-z] (85-hdparm.rules), not to " +
           start.target.kernel_name;
  return "";
}

}  // namespace disktune::results
