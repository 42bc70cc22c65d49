// SPDX-License-Identifier: GPL-2.0-or-later
// Holding the disk for a command: the device opened is the one locked, claimed exclusively when free.
#pragma once

#include "tuner/device_context.hpp"
#include "tuner/host/device_lock.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace disktune::tuner {

/// Make the command hold the disk it checked, for as long as `context` lives:
/// - the device opened (context.device->held()) must be the one `lock` locked: a name
///   re-pointed between the lock and the open (a by-id link moved by udev) is refused;
/// - unless the data is in use by design (request.allow_mounted), the drive is simulated or
///   the device holds no descriptor (a test's fake machine),
///   the whole disk is claimed exclusively (open O_EXCL of the held device, kept in
///   context.claim), as mount, mkfs and md do: a mount of it or of one of its partitions, a
///   swapon, an md assembly attempted meanwhile fails with EBUSY. The kernel drops the claim
///   when the last descriptor closes, whatever ends the process (a trial child that inherited
///   it keeps it until it ends: a reader stuck in the device keeps the disk held too).
/// Throws RunError exit 2: "refusing to COMMAND DEVICE: ..." when the name moved, or when the
/// claim is busy (the disk became in use after refuse_device_in_use), with the uses found.
/// Source: block/bdev.c bd_prepare_to_claim (a partition's claim fails while the whole disk is
/// claimed by another holder); open(2) O_EXCL on block devices.
/// Refuse (RunError exit 2, "refusing to COMMAND SPEC: device path '...' is not safe to write
/// into a script or rule (name the disk by /dev/NAME or a /dev/disk/by-id link)") a device
/// name that the answer's snippets (boot.local, udev rules, hdparm.conf) could not hold
/// (results::snippet_target's rules: a space, a quote, a relative path): before anything is
/// measured, not after the run. Simulated specs pass.
void refuse_unwritable_name(const std::string& spec, std::string_view command);

void hold_device(DeviceContext& context, const DeviceLock& lock, const DeviceRequest& request, std::string_view command);

}  // namespace disktune::tuner
