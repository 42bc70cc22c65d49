// SPDX-License-Identifier: GPL-2.0-or-later
// probe::Device: the one interface through which disktune touches a drive (real or simulated).
#pragma once

#include "probe/block_io.hpp"
#include "probe/core/error.hpp"
#include "probe/held_name.hpp"
#include "probe/identify/identify.hpp"
#include "probe/settings.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace disktune::probe {

/// How this device and driver handle one setting (docs/architecture.md "Settings catalogue").
enum class Support {
  supported,    ///< can be read and changed
  unsupported,  ///< the driver refuses it (ENOTTY, EINVAL, EOPNOTSUPP, sense "invalid field")
  read_only,    ///< can be read, not changed (e.g. libata HDIO_SET_32BIT with one value)
};

/// One setting's capability on this device.
struct Capability {
  SettingId id;
  Support support = Support::unsupported;
  /// Values the driver offers or accepts where the device itself lists them (scheduler names
  /// from queue/scheduler, the nr_requests / read_ahead_kb ladders it accepts). Empty when
  /// the legal values come from identify data alone (the ATA knobs).
  std::vector<SettingValue> values;
  /// Why it is unsupported or read-only: the refusing call and its error
  /// ("ioctl(HDIO_SET_DMA) on /dev/sda: Inappropriate ioctl for device"). Empty if supported.
  std::string reason;
  /// nr_requests only: the values accepted under each scheduler (by name), where the device
  /// could probe them (also when nr_requests itself is read-only: a scheduler trial must
  /// pair it with a value the new scheduler accepts); `values` are those under the current
  /// one. Empty when not probed.
  std::map<std::string, std::vector<SettingValue>> values_by_scheduler = {};
};

/// The active I/O scheduler's own tunables (queue/iosched/*, every writable file, in
/// directory order): a scheduler switch resets them to the elevator's defaults. Empty
/// `scheduler`: nothing recorded (no queue, or a journal written before they were kept).
struct SchedulerTunables {
  std::string scheduler;                                    ///< "mq-deadline"
  std::vector<std::pair<std::string, std::string>> values;  ///< {"iosched/read_expire", "500"}, text as read
  bool operator==(const SchedulerTunables&) const = default;
};

/// True for a scheduler tunable's name as the kernel lists them: "iosched/" and one plain
/// file name of letters, digits and '_' (block/elevator.c's attributes, e.g. read_expire,
/// fifo_batch, slice_idle). Anything else (a "..", a '/', an empty name) is no tunable: names
/// read from a journal or a probe record must pass this before they are written.
bool is_tunable_name(std::string_view name);
/// The spec of the built-in simulated drive; "sim:FILE" names a drive from an identify capture.
inline constexpr std::string_view kSimSpec = "sim:";

/// True for a device spec naming a simulated drive: "sim:" or "sim:FILE" (probe/sim/sim_device.hpp).
inline bool is_sim_spec(std::string_view spec) { return spec.substr(0, kSimSpec.size()) == kSimSpec; }

/// True for a scheduler name as queue/scheduler lists them (letters, digits, '-', '_').
bool is_scheduler_name(std::string_view name);

/// A drive disktune can identify, read, change and measure. Implemented by LinuxDevice
/// (HDIO ioctls, SG_IO, sysfs) and SimDevice (the simulated legacy-IDE drive).
/// Shape follows smartmontools' ata_device and ninja's DiskInterface: one interface a test can fake.
class Device {
 public:
  virtual ~Device() = default;

  /// The path or spec the device was opened as ("/dev/loop0", "sim:"): for messages and
  /// reports. Never open or stat it to reach the device: use held().
  [[nodiscard]] virtual const std::string& path() const = 0;
  /// The device this object opened and holds, as every engine and probe must name it
  /// (probe/held_name.hpp). Default: an empty path, fd -1 (a device holding no descriptor:
  /// the simulated drive, a test's fake), shown = path().
  [[nodiscard]] virtual HeldName held() const;
  /// True for sim: devices. Everything produced from a simulated device says so.
  [[nodiscard]] virtual bool simulated() const = 0;

  /// IDENTIFY DEVICE data. Errors: errc::not_supported when the device answers no identify
  /// (loop, virtio, NVMe): that device gets block-layer tuning only. Other errors as they come.
  virtual Result<IdentifyInfo> identify() = 0;
  /// Support of every setting in all_settings() on this device and driver.
  virtual std::vector<Capability> capabilities() = 0;
  /// Current value of a setting. Errors: unsupported (is_unsupported()) or device errors.
  virtual Result<SettingValue> read(SettingId id) = 0;
  /// Change one setting. Errors: unsupported (is_unsupported()), EIO = rejected by the
  /// device, EPERM, ... each with the call and path.
  virtual Result<void> apply(SettingId id, const SettingValue& value) = 0;
  /// Current values of every supported setting.
  virtual Result<Settings> snapshot() = 0;
  /// Set the device to `settings` (apply_configuration, probe/configuration.hpp): written in
  /// apply order, every setting read back, whatever moved re-written, bounded; then the kept
  /// tunables of the scheduler now active (keep_tunables), read back.
  /// Errors: as apply_configuration (the setting, and its kind: unsupported, EIO, did not
  /// read back).
  virtual Result<void> restore(const Settings& settings);
  /// The active scheduler's tunables now. Default: none (nothing to keep).
  /// Errors: a read's error.
  virtual Result<SchedulerTunables> scheduler_tunables();
  /// Keep `tunables` as the ones their scheduler must have: a switch back to it writes them,
  /// and restore() (whenever that scheduler is active after it) writes those that differ and
  /// reads every one back. For original tunables recorded in a journal, which this process
  /// did not see. Default: ignored (a device without tunables).
  virtual void keep_tunables(const SchedulerTunables& tunables);
  /// False for a setting whose read-back can lie (an ATA knob read from IDENTIFY data, which
  /// QEMU keeps at 16 after SET MULTIPLE 0): apply_configuration always writes it when asked,
  /// even if it already reads back as wanted. True by default.
  [[nodiscard]] virtual bool read_back_trusted(SettingId id) const;
  /// Read-only data access for measurements.
  virtual Result<std::unique_ptr<BlockIo>> open_io(IoMode mode) = 0;
};

/// Options for opening a device (tuner::make_device); only the simulated drive reads them.
struct DeviceOptions {
  std::uint64_t seed = 1;                 ///< sim: noise seed
  std::optional<std::string> sim_profile; ///< sim: JSON behaviour profile path
};

}  // namespace disktune::probe
