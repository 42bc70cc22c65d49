// SPDX-License-Identifier: GPL-2.0-or-later
// KernelLogWatch: kernel log lines that appeared during a trial and name ATA or I/O errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe {

/// True when a kernel log message names an ATA or I/O error (docs/architecture.md "Stability", docs/ata-reference.md
/// §4.2): "exception Emask", "failed command", "BadCRC", "ICRC ABRT", "DMA timeout",
/// "dma_timer_expiry", "dma_intr: status=0x51", "lost interrupt", "DMA disabled", "I/O error",
/// "CRC error", "hard resetting link", "limited to UDMA/", "SError:", "Remounting filesystem read-only".
bool is_error_line(std::string_view message);

/// True when an error message concerns `kernel_name` ("sda", "loop3"): it names the device,
/// or it is an ATA port/link message ("ata1.00: ...", "ata2: ...") and the device is an ATA
/// disk (name starting with "sd" or "hd"), since libata messages name ports, not disks.
bool concerns_device(std::string_view message, std::string_view kernel_name);

/// Watches /dev/kmsg from the moment it is created. Without /dev/kmsg (not root, no such
/// device) it watches nothing and available() is false: the trial then has no kernel-log
/// evidence either way, which the report says.
class KernelLogWatch {
 public:
  /// Open /dev/kmsg (O_RDONLY|O_NONBLOCK) and skip to its end (SEEK_END).
  explicit KernelLogWatch(std::string kernel_name);
  KernelLogWatch(const KernelLogWatch&) = delete;
  KernelLogWatch& operator=(const KernelLogWatch&) = delete;
  ~KernelLogWatch();

  [[nodiscard]] bool available() const { return fd_ >= 0; }
  /// The error messages about this device logged since construction or the last call
  /// (message text only, without the kmsg prefix).
  std::vector<std::string> new_errors();

 private:
  std::string kernel_name_;
  int fd_ = -1;
};

}  // namespace disktune::probe
