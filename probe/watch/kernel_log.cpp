// SPDX-License-Identifier: GPL-2.0-or-later
// Reading /dev/kmsg records and matching ATA and I/O error patterns.
#include "probe/watch/kernel_log.hpp"

#include "probe/watch/kmsg_reader.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cctype>

namespace disktune::probe {
namespace {

constexpr std::array<std::string_view, 15> kErrorPatterns{
    "exception Emask", "failed command",   "BadCRC",          "ICRC ABRT",    "DMA timeout",
    "dma_timer_expiry", "dma_intr: status=0x51", "lost interrupt", "DMA disabled", "I/O error",
    "CRC error",       "hard resetting link", "limited to UDMA/", "SError:",    "Remounting filesystem read-only"};

// "ata1.00: ..." or "ata2: ...".
bool is_ata_port_message(std::string_view message) {
  if (message.substr(0, 3) != "ata" || message.size() < 5) return false;
  std::size_t i = 3;
  while (i < message.size() && (std::isdigit(static_cast<unsigned char>(message[i])) || message[i] == '.')) ++i;
  return i > 3 && i < message.size() && message[i] == ':';
}

}  // namespace

bool is_error_line(std::string_view message) {
  for (const auto pattern : kErrorPatterns)
    if (message.find(pattern) != std::string_view::npos) return true;
  return false;
}

bool concerns_device(std::string_view message, std::string_view kernel_name) {
  if (!kernel_name.empty()) {
    for (auto pos = message.find(kernel_name); pos != std::string_view::npos; pos = message.find(kernel_name, pos + 1)) {
      const auto end = pos + kernel_name.size();
      const bool word_end = end == message.size() || !std::isalnum(static_cast<unsigned char>(message[end]));
      if (word_end) return true;
    }
  }
  const bool ata_disk = kernel_name.substr(0, 2) == "sd" || kernel_name.substr(0, 2) == "hd";
  return ata_disk && is_ata_port_message(message);
}

KernelLogWatch::KernelLogWatch(std::string kernel_name) : kernel_name_(std::move(kernel_name)) {
  fd_ = ::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ >= 0) ::lseek(fd_, 0, SEEK_END);
}

KernelLogWatch::~KernelLogWatch() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<std::string> KernelLogWatch::new_errors() {
  std::vector<std::string> errors;
  if (fd_ < 0) return errors;
  read_kmsg_records(fd_, kMaxKmsgRecords, [&](std::string_view text) {
    auto record = parse_kmsg_record(text);
    if (record && is_error_line(record->message) && concerns_device(record->message, kernel_name_))
      errors.push_back(std::move(record->message));
  });
  return errors;
}

}  // namespace disktune::probe
