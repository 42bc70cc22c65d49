// SPDX-License-Identifier: GPL-2.0-or-later
// The udev rule: match the drive by its stable identity, set queue ATTRs, RUN hdparm.
#include "results/udev_rules.hpp"

#include "results/hdparm_flags.hpp"
#include "results/snippet.hpp"

#include <cctype>
#include <stdexcept>

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

// A value inside a udev match: udev treats * ? [ ] and | as patterns and " ends the string,
// so a value with any of them would match other devices; refused instead of escaped.
std::string udev_match_value(std::string_view what, const std::string& value) {
  for (const char c : value)
    if (std::string_view("*?[]|\"\\").find(c) != std::string_view::npos || static_cast<unsigned char>(c) < 0x20)
      throw std::invalid_argument("udev rule: the " + std::string(what) + " '" + value +
                                  "' holds a character udev reads as a pattern or the end of a string");
  return value;
}

bool is_wwn_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-'; }

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string udev_id_wwn(std::string_view wwid) {
  for (const char c : wwid)
    if (!is_wwn_char(c)) return "";
  if (wwid.starts_with("naa.") && wwid.size() >= 4 + 16) return "0x" + lower(wwid.substr(4, 16));
  if (wwid.starts_with("eui.") || wwid.starts_with("nvme.")) return std::string(wwid);
  return "";
}

std::string udev_match_clause(const DeviceInfo& device) {
  if (!device.backing_file.empty())
    return "KERNEL==\"loop[0-9]*\", ATTR{loop/backing_file}==\"" + udev_match_value("backing file", device.backing_file) + "\"";
  if (const auto serial = udev_id_serial(device.model, device.serial); !serial.empty())
    return "ENV{ID_BUS}==\"ata\", ENV{ID_SERIAL}==\"" + serial + "\"";
  if (device.wwid.empty()) return "";
  const auto wwid = udev_match_value("wwid", device.wwid);
  const auto kernel = device.path.substr(device.path.rfind('/') + 1);
  // 60-persistent-storage copies an NVMe namespace's wwid whole into ID_WWN (and sets no
  // ID_BUS for NVMe in systemd 252): the kernel-name class is the bus guard.
  if (kernel.starts_with("nvme") && udev_id_wwn(wwid) == wwid) return "KERNEL==\"nvme*\", ENV{ID_WWN}==\"" + wwid + "\"";
  // scsi_id's ID_WWN holds only the first 64 bits of an NAA-6 name: the exact wwid is matched.
  if (kernel.starts_with("sd")) return "KERNEL==\"sd*\", ATTRS{wwid}==\"" + wwid + "\"";
  return "ATTRS{wwid}==\"" + wwid + "\"";
}

namespace {

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
  const auto rule = udev_rule(report.device, changes);
  if (rule.empty())
    return text + "# No rule: " + target.kernel_name + " has no serial, WWN or backing file to match it by, and a\n"
                  "# kernel name can name another disk after a reboot. Set it by hand, or match it in a rule of\n"
                  "# your own by a property that is stable on this machine (udevadm info " + target.kernel_name + ").\n";
  text += "# Install with 'disktune install REPORT' (it writes /etc/udev/rules.d/69-disktune-<drive>.rules)\n"
          "# or by hand as a 69-*.rules there (after 60-persistent-storage, which sets\n"
          "# ID_BUS and ID_SERIAL), then run\n"
          "# udevadm control --reload && udevadm trigger --action=change --subsystem-match=block\n";
  return text + rewritten_comment(report, changes) + rule;
}

std::string udev_rule(const DeviceInfo& device, const probe::Settings& changes) {
  const auto match = udev_match_clause(device);
  if (match.empty()) return "";
  std::string text = "ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", " + match;
  for (const auto& part : actions(changes)) text += ", \\\n  " + part;
  return text + '\n';
}

}  // namespace disktune::results
