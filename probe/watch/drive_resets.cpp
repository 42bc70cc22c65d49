// SPDX-License-Identifier: GPL-2.0-or-later
// Matching resume and port reset messages; a disk's port names from sysfs.
#include "probe/watch/drive_resets.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>

namespace disktune::probe {
namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool is_ata_port_name(const std::string& name) {
  return name.size() > 3 && starts_with(name, "ata") &&
         std::all_of(name.begin() + 3, name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "2:0:0:0": four numbers separated by ':'.
bool is_scsi_address(const std::string& name) {
  return std::count(name.begin(), name.end(), ':') == 3 && std::isdigit(static_cast<unsigned char>(name.front())) &&
         std::all_of(name.begin(), name.end(), [](char c) { return c == ':' || std::isdigit(static_cast<unsigned char>(c)); });
}

// "ata3: ..." or "ata3.00: ...": a message of exactly port `port`.
bool is_message_of_port(std::string_view message, std::string_view port) {
  if (!starts_with(message, port)) return false;
  auto rest = message.substr(port.size());
  if (starts_with(rest, ".")) {
    rest.remove_prefix(1);
    while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
  }
  return starts_with(rest, ":");
}

bool is_ata_reset(std::string_view message, const std::string& port) {
  if (port.empty() || !is_message_of_port(message, port)) return false;
  constexpr std::array<std::string_view, 3> kPatterns{"resetting link", "configured for ", "revalidation failed"};
  return std::any_of(kPatterns.begin(), kPatterns.end(), [&](std::string_view p) { return contains(message, p); });
}

bool is_scsi_reset(std::string_view message, const std::string& address) {
  return !address.empty() && starts_with(message, "sd " + address + ": ") && contains(message, "reset");
}

}  // namespace

DevicePorts device_ports(const std::string& kernel_name, const std::string& sys_block) {
  std::error_code ec;
  const auto device = std::filesystem::canonical(std::filesystem::path(sys_block) / kernel_name / "device", ec);
  if (ec) return {};
  DevicePorts ports;
  for (const auto& part : device)
    if (is_ata_port_name(part.string())) ports.ata_port = part.string();
  if (is_scsi_address(device.filename().string())) ports.scsi_address = device.filename().string();
  return ports;
}

bool is_resume_message(std::string_view message) {
  return starts_with(message, "PM: suspend exit") || starts_with(message, "PM: hibernation: hibernation exit") ||
         starts_with(message, "PM: hibernation exit") || starts_with(message, "ACPI: PM: Low-level resume complete") ||
         starts_with(message, "ACPI: Low-level resume complete");
}

bool is_reset_message(std::string_view message, const DevicePorts& ports) {
  return is_ata_reset(message, ports.ata_port) || is_scsi_reset(message, ports.scsi_address);
}

std::optional<KernelLogEvent> first_resume(const std::vector<KmsgRecord>& records) {
  for (const auto& record : records)
    if (is_resume_message(record.message)) return KernelLogEvent{record.usec, record.message, ""};
  return std::nullopt;
}

std::optional<KernelLogEvent> first_reset(const std::vector<KmsgRecord>& records, const DevicePorts& ports) {
  for (const auto& record : records) {
    if (is_ata_reset(record.message, ports.ata_port)) return KernelLogEvent{record.usec, record.message, ports.ata_port};
    if (is_scsi_reset(record.message, ports.scsi_address))
      return KernelLogEvent{record.usec, record.message, "sd " + ports.scsi_address};
  }
  return std::nullopt;
}

}  // namespace disktune::probe
