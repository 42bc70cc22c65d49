// SPDX-License-Identifier: GPL-2.0-or-later
// Setting descriptors: hdparm's names, flags, sysfs attributes, risk, and value encodings.
#pragma once

#include "probe/core/error.hpp"

#include <compare>
#include <cstdint>
#include <map>
#include <ostream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace disktune::probe {

/// Every knob disktune knows. Names (see setting_name) are hdparm's where hdparm has one,
/// sysfs attribute names otherwise. Source: docs/architecture.md "Settings catalogue", docs/ata-reference.md §3.3, §6.4.
enum class SettingId {
  multcount,       ///< -m: sectors per READ/WRITE MULTIPLE interrupt (0 = off); IDENTIFY word 47 bounds it
  io_support,      ///< -c: 0 = 16-bit, 1 = 32-bit, 3 = 32-bit with VLB sync (HDIO_SET_32BIT)
  unmaskirq,       ///< -u: 0/1 (HDIO_SET_UNMASKINTR)
  using_dma,       ///< -d: 0/1 (HDIO_SET_DMA)
  xfermode,        ///< -X: SET FEATURES 0x03 mode code (8+n PIO, 32+n MDMA, 64+n UDMA; docs/ata-reference.md §3.4)
  readahead,       ///< -a: block-layer readahead in 512-byte sectors (BLKRASET)
  read_ahead_kb,   ///< /sys/block/X/queue/read_ahead_kb, KiB
  scheduler,       ///< /sys/block/X/queue/scheduler, an I/O scheduler name
  nr_requests,     ///< /sys/block/X/queue/nr_requests, requests per queue
  max_sectors_kb,  ///< /sys/block/X/queue/max_sectors_kb, KiB per request
  nomerges,        ///< /sys/block/X/queue/nomerges: 0 = merge, 1 = simple one-hit merges only, 2 = none
  rq_affinity,     ///< /sys/block/X/queue/rq_affinity: 0 = complete anywhere, 1 = submitter's group, 2 = submitting CPU
  fifo_batch,      ///< queue/iosched/fifo_batch (mq-deadline only): requests per dispatch batch
  read_expire,     ///< queue/iosched/read_expire (mq-deadline only): read deadline, ms
  low_latency,     ///< queue/iosched/low_latency (bfq only): 0/1, interactive-latency heuristics
  slice_idle,      ///< queue/iosched/slice_idle (bfq only): idle wait for a queue's next request, ms
  read_lat_nsec,   ///< queue/iosched/read_lat_nsec (kyber only): target read latency, ns
  queue_depth,     ///< /sys/block/X/device/queue_depth (SCSI/SATA, NCQ): commands in flight, 1..maximum
  apm,             ///< -B: Advanced Power Management level 1-254 (1-127 permit spin-down), 255 = disabled;
                   ///< IDENTIFY word 83/86 bit 3, level in word 91 bits 7:0; SET FEATURES 05h / 85h
  aam,             ///< -M: Automatic Acoustic Management level 128 (quiet) - 254 (fast), 0 = disabled;
                   ///< IDENTIFY word 83/86 bit 9, level in word 94 bits 7:0; SET FEATURES 42h / C2h
};

/// The APM value that means "disabled" (hdparm -B 255, SET FEATURES 85h).
inline constexpr std::int64_t kApmDisabled = 255;
/// The lowest APM level that does not permit spin-down (1-127 do: ATA8-ACS 7.48.6).
inline constexpr std::int64_t kApmNoSpinDown = 128;
/// The AAM value that means "disabled" (hdparm -M 0, SET FEATURES C2h).
inline constexpr std::int64_t kAamDisabled = 0;

/// All settings, in the order they are applied and emitted: using_dma before xfermode (as
/// hdparm does), scheduler before nr_requests (switching the elevator resets nr_requests and
/// sets its accepted range), max_sectors_kb before readahead and read_ahead_kb (a write of
/// max_sectors_kb raises read_ahead_kb on some kernels); nomerges and rq_affinity after them
/// (independent queue flags); apm and aam after the ATA transfer knobs (independent
/// drive features); the scheduler tunables last (they exist only once their
/// scheduler is active). Not the SettingId order.
std::span<const SettingId> all_settings();

/// Risk class: safe = cannot lose data; risky = the hdparm manual warns of hangs or corruption.
enum class Risk { safe, risky };

/// Static description of one setting.
struct SettingInfo {
  SettingId id;
  std::string_view name;         ///< "multcount", "io_support", ..., as in the JSON report
  std::string_view hdparm_flag;  ///< "-m", "-c", ...; empty for sysfs-only settings
  std::string_view sysfs_attr;   ///< "read_ahead_kb" under queue/; empty for ioctl settings
  std::string_view unit;         ///< "sectors", "KiB", "" (enumerated)
  Risk risk;
  bool textual;                  ///< value is a name (scheduler), not a number
  /// A scheduler tunable's elevator ("mq-deadline"): the setting exists only while that
  /// scheduler is active (its iosched/ directory). Empty for every other setting.
  std::string_view scheduler;
};

/// The descriptor of `id`. Never fails.
const SettingInfo& setting_info(SettingId id);
/// hdparm's name of `id` ("multcount", "xfermode", ...).
std::string_view setting_name(SettingId id);
/// Inverse of setting_name; nullopt for an unknown name.
std::optional<SettingId> setting_from_name(std::string_view name);

/// The read-side tunables disktune searches (fifo_batch, read_expire, low_latency, slice_idle,
/// read_lat_nsec), in apply order. The write-side ones (write_expire, writes_starved,
/// write_lat_nsec, wbt_lat_usec, ...) act only on writes, which disktune never issues: not
/// settings, never written (see write_side_tunables).
std::span<const SettingId> scheduler_tunable_settings();
/// The write-side tunables left alone, each "iosched/NAME (scheduler)" or "wbt_lat_usec", with
/// why: for `plan`. Source: Documentation/block/deadline-iosched.rst, bfq-iosched.rst,
/// kyber-iosched.rst, Documentation/ABI/stable/sysfs-block (wbt_lat_usec).
std::span<const std::pair<std::string_view, std::string_view>> write_side_tunables();
/// The file of a sysfs setting relative to /sys/block/X: "queue/<attr>", or
/// "device/<attr>" for queue_depth (the SCSI device's attribute). Aborts for an ioctl setting.
std::string sysfs_block_path(SettingId id);
/// True for a setting under /sys/block/X/device/ (queue_depth), not queue/.
bool is_device_attribute(SettingId id);
/// True when `id` is a scheduler tunable (setting_info(id).scheduler not empty).
bool is_scheduler_tunable(SettingId id);
/// A setting's value: a number (every hdparm knob, sysfs numbers) or a name (scheduler).
/// Never a bare int in interfaces, so a value cannot be passed as a count or a size. Ordered and comparable for use as map keys.
class SettingValue {
 public:
  SettingValue() = default;
  explicit SettingValue(std::int64_t number) : value_(number) {}
  explicit SettingValue(std::string name) : value_(std::move(name)) {}

  [[nodiscard]] bool is_number() const { return std::holds_alternative<std::int64_t>(value_); }
  /// The number. DT_ASSERT-style abort if the value is a name.
  [[nodiscard]] std::int64_t number() const;
  /// The name. Aborts if the value is a number.
  [[nodiscard]] const std::string& text() const;

  auto operator<=>(const SettingValue&) const = default;
  bool operator==(const SettingValue&) const = default;

 private:
  std::variant<std::int64_t, std::string> value_{std::int64_t{0}};
};

/// Prints the number or the name (no setting-specific formatting; see format_value).
std::ostream& operator<<(std::ostream& out, const SettingValue& value);

/// A full or partial assignment of settings, ordered by SettingId (the display order; the
/// apply order is all_settings(), see in_apply_order).
using Settings = std::map<SettingId, SettingValue>;

/// The kernel's default of a scheduler tunable, as a switch to its scheduler sets it
/// (block/mq-deadline.c: fifo_batch 16, read_expire HZ/2 = 500 ms; block/bfq-iosched.c:
/// low_latency 1, slice_idle 8 ms; block/kyber-iosched.c: read_lat_nsec 2000000). Aborts
/// for a setting that is no tunable.
SettingValue tunable_default(SettingId id);
/// True when `id` can exist in `config`: every setting but a tunable, and a tunable when
/// `config` holds no scheduler or holds its scheduler.
bool applicable(SettingId id, const Settings& config);
/// `config` without the tunables of a scheduler other than the one it holds (which do not
/// exist under it and cannot be written).
Settings applicable_only(Settings config);

/// The configuration `changes` make of `base`: every entry of `changes` laid over `base`,
/// without the tunables of a scheduler the result does not hold (a switch away from
/// mq-deadline removes queue/iosched/fifo_batch; see applicable_only). Every "what the
/// device should read after these changes" goes through here, so no caller can expect a
/// tunable that no longer exists.
Settings with_changes(Settings base, const Settings& changes);

/// The entries of `settings` in apply order (all_settings()): how to write or emit them.
std::vector<std::pair<SettingId, SettingValue>> in_apply_order(const Settings& settings);

/// Human/JSON form of a value: xfermode as "pio4" / "mdma2" / "udma2" (hdparm's names),
/// other numbers in decimal, names as they are.
std::string format_value(SettingId id, const SettingValue& value);

/// Parse the text form of a value for `id` (inverse of format_value; xfermode also accepts
/// hdparm's decimal codes such as "66"). Errors: errc::invalid_argument naming the setting
/// and the text.
Result<SettingValue> parse_value(SettingId id, std::string_view text);

/// Why disktune would never set `id` to `value` on any drive; "" when some drive could take it.
/// Values a drive or the kernel may *report* can lie outside this (a journal's found values
/// are restored as read): it judges a target only, such as a report's winner. multcount 0 or
/// a power of two up to 128 (SET MULTIPLE MODE's legal counts, docs/ata-reference.md's vendor manuals;
/// docs/architecture.md settings catalogue);
/// io_support 0, 1 or 3 (hdparm -c: 2 is no mode); unmaskirq, using_dma and low_latency 0 or 1;
/// nomerges and rq_affinity 0-2 (Documentation/ABI/stable/sysfs-block). Other settings:
/// parse_value's checks only. Errors: none (the reason is the result).
std::string settable_value_error(SettingId id, const SettingValue& value);

/// "multcount=16 io_support=3 ..." in apply order; used in logs, tables and cache keys.
std::string format_settings(const Settings& settings);

/// Transfer-mode families, as encoded by SET FEATURES subcommand 0x03 (docs/ata-reference.md §3.4).
enum class XferFamily { pio, sdma, mdma, udma };

/// hdparm -X code of a mode: pio n = 8+n, sdma n = 16+n, mdma n = 32+n, udma n = 64+n.
std::int64_t xfermode_code(XferFamily family, int mode);
/// Family of a -X code; nullopt for codes outside 8..71 or in the gaps.
std::optional<XferFamily> xfermode_family(std::int64_t code);
/// Mode number within the family (code & 7).
int xfermode_number(std::int64_t code);
/// True for SDMA, MDMA and UDMA codes (they need using_dma=1).
bool xfermode_is_dma(std::int64_t code);

}  // namespace disktune::probe
