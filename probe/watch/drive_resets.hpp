// SPDX-License-Identifier: GPL-2.0-or-later
// Kernel log records that show a resume from sleep, or a reset of one disk's port.
#pragma once

#include "probe/watch/kmsg_reader.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe {

/// The names a disk's own messages carry in the kernel log, from sysfs: the libata port
/// ("ata3", the "ataN" component of /sys/block/NAME/device resolved) and the SCSI address
/// ("2:0:0:0", that path's last component when it is H:C:T:L). Empty when the disk has none
/// (a loop device, virtio, NVMe: no port messages are matched for it).
struct DevicePorts {
  std::string ata_port;
  std::string scsi_address;
};

/// device_ports of the block device `kernel_name` ("sdb") under `sys_block` (for tests).
DevicePorts device_ports(const std::string& kernel_name, const std::string& sys_block = "/sys/block");

/// One kernel log record that is evidence.
struct KernelLogEvent {
  std::uint64_t usec = 0;  ///< its printk timestamp [µs since boot]
  std::string message;
  std::string port;        ///< for a reset: the port it names, "ata3" or "sd 2:0:0:0"; "" otherwise
};

/// True when a message is logged as the machine comes back from sleep: "PM: suspend exit"
/// (kernel/power/suspend.c pm_suspend, after suspend-to-RAM and s2idle), "PM: hibernation:
/// hibernation exit" (kernel/power/hibernate.c hibernate(), in the kernel the image restored;
/// "PM: hibernation exit" before the "hibernation: " prefix), "ACPI: PM: Low-level resume
/// complete" (drivers/acpi/sleep.c; "ACPI: Low-level resume complete" in older kernels).
bool is_resume_message(std::string_view message);

/// True when a message says the port of `ports` was reset or the drive on it revalidated:
/// libata's "ataN: hard resetting link" / "soft resetting link", "ataN.DD: configured for
/// MODE", "ataN.DD: revalidation failed" for the exact port (ata3 is not ata31); the SCSI
/// midlayer's "sd H:C:T:L: ... reset ..." ("Power-on or device reset occurred") for the
/// exact address. False for empty ports.
bool is_reset_message(std::string_view message, const DevicePorts& ports);

/// The first record of `records` (in log order) that is_resume_message.
std::optional<KernelLogEvent> first_resume(const std::vector<KmsgRecord>& records);
/// The first record of `records` that is_reset_message for `ports`, with the port it names.
std::optional<KernelLogEvent> first_reset(const std::vector<KmsgRecord>& records, const DevicePorts& ports);

}  // namespace disktune::probe
