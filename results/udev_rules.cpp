// SPDX-License-Identifier: GPL-2.0-or-later
// The udev rule: match the drive by ID_SERIAL (or kernel name), set queue ATTRs, RUN hdparm.
#include "results/udev_rules.hpp"

#include "results/hdparm_flags.hpp"
#include "results/snippet.hpp"

namespace disktune::results {
namespace {

bool udev_safe_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         std::string_view("#+-.:=@_").find(c) != std::string_view::npos;
}

// udev_util_replace_whitespace followed by udev_util_replace_chars, as ata_id applies them.
std::string udev_string(std::string_view text) {
  std::string out;
  bool pending_space = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += '_';
    pending_space = false;
    out += udev_safe_char(c) ? c : '_';
  }
  return out;
}

std::string match_clause(const Report& report, const SnippetTarget& target) {
  const auto serial = udev_id_serial(report.device.model, report.device.serial);
  if (!serial.empty()) return "ENV{ID_SERIAL}==\"" + serial + "\"";
  return "KERNEL==\"" + target.kernel_name + "\"";
}

std::vector<std::string> actions(const probe::Settings& changes) {
  std::vector<std::string> parts;
  for (const auto& [id, value] : probe::in_apply_order(queue_changes(changes))) {
    if (!value.is_number()) check_scheduler_name(value.text());
    parts.push_back("ATTR{" + probe::sysfs_block_path(id) + "}=\"" +
                    probe::format_value(id, value) + "\"");
  }
  std::string hdparm;
  for (const auto& flag : hdparm_flag_list(changes)) hdparm += " -q " + flag;
  if (!hdparm.empty()) parts.push_back("RUN+=\"/usr/sbin/hdparm" + hdparm + " /dev/%k\"");
  return parts;
}

}  // namespace

std::string udev_id_serial(std::string_view model, std::string_view serial) {
  const auto model_part = udev_string(model);
  const auto serial_part = udev_string(serial);
  if (model_part.empty() || serial_part.empty()) return "";
  return model_part + '_' + serial_part;
}

std::string UdevRulesEmitter::render(const Report& report) const {
  auto [target, changes, text, complete] = start_snippet(report, "udev rule");
  if (complete) return text;
  const auto parts = actions(changes);
  text += "# Install as /etc/udev/rules.d/69-disktune.rules, then run\n"
          "# udevadm control --reload && udevadm trigger --subsystem-match=block\n";
  text += "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", " +
          match_clause(report, target);
  for (const auto& part : parts) text += ", \\\n  " + part;
  return text + '\n';
}

}  // namespace disktune::results
