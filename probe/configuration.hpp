// SPDX-License-Identifier: GPL-2.0-or-later
// apply_configuration: bring a device to a target configuration despite settings the kernel couples.
#pragma once

#include "probe/device.hpp"

#include <functional>
#include <system_error>

namespace disktune::probe {

/// Error kind of a configuration whose every write was accepted but which does not read back
/// as the target (a coupling that never settles, a write the driver keeps silently, a drive
/// whose read-back lies). Distinct from the errno kinds of a write: unsupported
/// (Error::is_unsupported) and EIO (rejected by the device).
enum class ConfigurationErrc { not_read_back = 1 };
const std::error_category& configuration_category();
std::error_code make_error_code(ConfigurationErrc errc);
/// True for a did-not-read-back error of apply_configuration.
bool is_not_read_back(const Error& error);

/// At most this many passes (write what differs, read back everything) for `count` settings:
/// a chain of couplings can move each setting once, plus one pass to write and one to see it.
std::size_t max_configuration_passes(std::size_t count);

/// Set `device` to `target` and read EVERY setting back. Settings of the device that
/// `target` does not name (its snapshot()) are held at the values they had when the call
/// began (but a scheduler tunable only under its own scheduler: probe::applicable_only): a write that moves one of them (the kernel couples settings: a new scheduler
/// resets nr_requests, max_sectors_kb raises read_ahead_kb on some kernels) is undone.
/// Each pass goes through the settings in apply order (all_settings()), reads each when its
/// turn comes and writes it if it differs (in pass 1 also each setting `target` names whose
/// read-back the device does not trust, Device::read_back_trusted), then reads EVERY setting
/// back; passes repeat until all read back as the target, at most
/// max_configuration_passes(settings) of them. `on_write` is called after every write
/// (a watchdog heartbeat).
/// Errors: a write's own error, naming the setting ("write queue/nr_requests=256", or
/// "ioctl(HDIO_SET_DMA 1) (setting using_dma=1)"),
/// keeping its code (is_unsupported(), EIO = rejected); a read's error; after the last pass,
/// ConfigurationErrc::not_read_back whose op lists every setting that differs
/// ("read_ahead_kb reads back 2560 instead of 128; ... (after 6 passes)").
Result<void> apply_configuration(Device& device, const Settings& target,
                                 const std::function<void()>& on_write = {});

}  // namespace disktune::probe

template <>
struct std::is_error_code_enum<disktune::probe::ConfigurationErrc> : std::true_type {};
