// SPDX-License-Identifier: GPL-2.0-or-later
// Setting descriptors and value encodings (hdparm names, -X mode codes).
#include "probe/settings.hpp"

#include "probe/core/assert.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace disktune::probe {
namespace {

constexpr std::array<SettingInfo, 20> kSettings{{
    {SettingId::multcount, "multcount", "-m", "", "sectors", Risk::risky, false, ""},
    {SettingId::io_support, "io_support", "-c", "", "", Risk::risky, false, ""},
    {SettingId::unmaskirq, "unmaskirq", "-u", "", "", Risk::risky, false, ""},
    {SettingId::using_dma, "using_dma", "-d", "", "", Risk::risky, false, ""},
    {SettingId::xfermode, "xfermode", "-X", "", "", Risk::risky, false, ""},
    {SettingId::readahead, "readahead", "-a", "", "sectors", Risk::safe, false, ""},
    {SettingId::read_ahead_kb, "read_ahead_kb", "", "read_ahead_kb", "KiB", Risk::safe, false, ""},
    {SettingId::scheduler, "scheduler", "", "scheduler", "", Risk::safe, true, ""},
    {SettingId::nr_requests, "nr_requests", "", "nr_requests", "requests", Risk::safe, false, ""},
    {SettingId::max_sectors_kb, "max_sectors_kb", "", "max_sectors_kb", "KiB", Risk::safe, false, ""},
    {SettingId::nomerges, "nomerges", "", "nomerges", "", Risk::safe, false, ""},
    {SettingId::rq_affinity, "rq_affinity", "", "rq_affinity", "", Risk::safe, false, ""},
    {SettingId::fifo_batch, "fifo_batch", "", "iosched/fifo_batch", "requests", Risk::safe, false, "mq-deadline"},
    {SettingId::read_expire, "read_expire", "", "iosched/read_expire", "ms", Risk::safe, false, "mq-deadline"},
    {SettingId::low_latency, "low_latency", "", "iosched/low_latency", "", Risk::safe, false, "bfq"},
    {SettingId::slice_idle, "slice_idle", "", "iosched/slice_idle", "ms", Risk::safe, false, "bfq"},
    {SettingId::read_lat_nsec, "read_lat_nsec", "", "iosched/read_lat_nsec", "ns", Risk::safe, false, "kyber"},
    {SettingId::queue_depth, "queue_depth", "", "queue_depth", "commands", Risk::safe, false, ""},
    {SettingId::apm, "apm", "-B", "", "", Risk::safe, false, ""},
    {SettingId::aam, "aam", "-M", "", "", Risk::safe, false, ""},
}};

constexpr std::array<SettingId, 5> kTunables{SettingId::fifo_batch, SettingId::read_expire, SettingId::low_latency,
                                             SettingId::slice_idle, SettingId::read_lat_nsec};
constexpr std::array<std::int64_t, 5> kTunableDefaults{16, 500, 1, 8, 2000000};

constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kWriteSide{{
    {"iosched/write_expire (mq-deadline)", "the deadline of writes"},
    {"iosched/writes_starved (mq-deadline)", "how many read batches may pass a waiting write"},
    {"iosched/async_depth (mq-deadline)", "the tags of asynchronous requests, which are writes (reads are synchronous)"},
    {"iosched/front_merges (mq-deadline)", "front merges of reads are governed by nomerges, which is tuned"},
    {"iosched/fifo_expire_async (bfq)", "the deadline of asynchronous requests (writes)"},
        {"iosched/write_lat_nsec (kyber)", "the target latency of writes"},
    {"wbt_lat_usec", "writeback throttling throttles writes only"},
}};

// Apply order: using_dma before xfermode (a DMA mode needs DMA on); the scheduler before
// nr_requests (a switch resets nr_requests, and its accepted range depends on the elevator);
// max_sectors_kb before the readahead pair (some kernels raise read_ahead_kb when
// max_sectors_kb is written, 6.18 to twice the value). apply_configuration reads everything
// back and re-writes what still moved, so this order is a shortcut, not the guarantee.
constexpr std::array<SettingId, 20> kOrder{
    SettingId::multcount,      SettingId::io_support, SettingId::unmaskirq,
    SettingId::using_dma,      SettingId::xfermode,   SettingId::apm,
    SettingId::aam,            SettingId::scheduler,
    SettingId::nr_requests,    SettingId::max_sectors_kb, SettingId::readahead,
    SettingId::read_ahead_kb,  SettingId::nomerges,   SettingId::rq_affinity, SettingId::queue_depth,
    SettingId::fifo_batch,     SettingId::read_expire, SettingId::low_latency,
    SettingId::slice_idle,     SettingId::read_lat_nsec};

constexpr std::array<std::string_view, 4> kFamilyNames{"pio", "sdma", "mdma", "udma"};
constexpr std::array<std::int64_t, 4> kFamilyBase{8, 16, 32, 64};

std::optional<std::int64_t> parse_decimal(std::string_view text) {
  std::int64_t number = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, number);
  if (ec != std::errc{} || ptr != end || text.empty()) return std::nullopt;
  return number;
}

Error bad_value(SettingId id, std::string_view text, std::string_view why) {
  return Error{std::make_error_code(std::errc::invalid_argument),
               std::string("value '") + std::string(text) + "' for " +
                   std::string(setting_name(id)) + ": " + std::string(why),
               ""};
}

}  // namespace

std::span<const SettingId> all_settings() { return kOrder; }

std::span<const SettingId> scheduler_tunable_settings() { return kTunables; }

std::span<const std::pair<std::string_view, std::string_view>> write_side_tunables() { return kWriteSide; }

bool is_device_attribute(SettingId id) { return id == SettingId::queue_depth; }

std::string sysfs_block_path(SettingId id) {
  const auto attr = setting_info(id).sysfs_attr;
  DT_ASSERT(!attr.empty());
  return (is_device_attribute(id) ? "device/" : "queue/") + std::string(attr);
}

bool is_scheduler_tunable(SettingId id) { return !setting_info(id).scheduler.empty(); }

SettingValue tunable_default(SettingId id) {
  for (std::size_t i = 0; i < kTunables.size(); ++i)
    if (kTunables[i] == id) return SettingValue(kTunableDefaults[i]);
  DT_ASSERT(false);
  return SettingValue();
}

bool applicable(SettingId id, const Settings& config) {
  if (!is_scheduler_tunable(id)) return true;
  const auto scheduler = config.find(SettingId::scheduler);
  if (scheduler == config.end()) return true;
  return !scheduler->second.is_number() && scheduler->second.text() == setting_info(id).scheduler;
}

Settings applicable_only(Settings config) {
  std::erase_if(config, [&config](const auto& entry) { return !applicable(entry.first, config); });
  return config;
}

Settings with_changes(Settings base, const Settings& changes) {
  for (const auto& [id, value] : changes) base[id] = value;
  return applicable_only(std::move(base));
}

std::vector<std::pair<SettingId, SettingValue>> in_apply_order(const Settings& settings) {
  std::vector<std::pair<SettingId, SettingValue>> ordered;
  for (const auto id : kOrder)
    if (const auto it = settings.find(id); it != settings.end()) ordered.emplace_back(id, it->second);
  return ordered;
}

const SettingInfo& setting_info(SettingId id) {
  const auto index = static_cast<std::size_t>(id);
  DT_ASSERT(index < kSettings.size() && kSettings[index].id == id);
  return kSettings[index];
}

std::string_view setting_name(SettingId id) { return setting_info(id).name; }

std::optional<SettingId> setting_from_name(std::string_view name) {
  for (const auto& info : kSettings)
    if (info.name == name) return info.id;
  return std::nullopt;
}

std::int64_t SettingValue::number() const {
  DT_ASSERT(is_number());
  return std::get<std::int64_t>(value_);
}

const std::string& SettingValue::text() const {
  DT_ASSERT(!is_number());
  return std::get<std::string>(value_);
}

std::ostream& operator<<(std::ostream& out, const SettingValue& value) {
  if (value.is_number()) return out << value.number();
  return out << value.text();
}

std::int64_t xfermode_code(XferFamily family, int mode) {
  DT_ASSERT(mode >= 0 && mode <= 7);
  return kFamilyBase[static_cast<std::size_t>(family)] + mode;
}

std::optional<XferFamily> xfermode_family(std::int64_t code) {
  for (std::size_t i = 0; i < kFamilyBase.size(); ++i)
    if (code >= kFamilyBase[i] && code < kFamilyBase[i] + 8) return static_cast<XferFamily>(i);
  return std::nullopt;
}

int xfermode_number(std::int64_t code) { return static_cast<int>(code & 7); }

bool xfermode_is_dma(std::int64_t code) {
  const auto family = xfermode_family(code);
  return family && *family != XferFamily::pio;
}

std::string format_value(SettingId id, const SettingValue& value) {
  if (!value.is_number()) return value.text();
  if (id == SettingId::xfermode) {
    if (const auto family = xfermode_family(value.number()))
      return std::string(kFamilyNames[static_cast<std::size_t>(*family)]) +
             std::to_string(xfermode_number(value.number()));
  }
  return std::to_string(value.number());
}

Result<SettingValue> parse_value(SettingId id, std::string_view text) {
  if (setting_info(id).textual) {
    if (text.empty()) return bad_value(id, text, "empty name");
    // A kernel elevator name (at most 15 characters in the kernel): the value ends up in sysfs
    // writes, udev rules and shell snippets, so blanks and metacharacters never pass.
    const bool name = text.size() <= 31 && std::all_of(text.begin(), text.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
    if (!name) return bad_value(id, text, "not a scheduler name (letters, digits, '-', '_', '.'; at most 31)");
    return SettingValue(std::string(text));
  }
  if (id == SettingId::xfermode) {
    for (std::size_t i = 0; i < kFamilyNames.size(); ++i) {
      if (text.substr(0, kFamilyNames[i].size()) != kFamilyNames[i]) continue;
      const auto mode = parse_decimal(text.substr(kFamilyNames[i].size()));
      if (!mode || *mode < 0 || *mode > 7) return bad_value(id, text, "mode number must be 0-7");
      return SettingValue(xfermode_code(static_cast<XferFamily>(i), static_cast<int>(*mode)));
    }
    const auto code = parse_decimal(text);
    if (!code || !xfermode_family(*code))
      return bad_value(id, text, "expected pioN, sdmaN, mdmaN, udmaN or an hdparm -X code 8-71");
    return SettingValue(*code);
  }
  const auto number = parse_decimal(text);
  if (!number || *number < 0) return bad_value(id, text, "expected a non-negative integer");
  if (id == SettingId::apm && (*number < 1 || *number > kApmDisabled))
    return bad_value(id, text, "APM levels are 1-254, 255 = off (0 is reserved)");
  if (id == SettingId::aam && *number > 255) return bad_value(id, text, "AAM levels are 0 (off) - 255");
  return SettingValue(*number);
}

std::string settable_value_error(SettingId id, const SettingValue& value) {
  if (!value.is_number()) return {};
  const std::int64_t v = value.number();
  switch (id) {
    case SettingId::multcount:
      return v == 0 || (v <= 128 && (v & (v - 1)) == 0) ? "" : "multcount is 0 or a power of two up to 128 sectors";
    case SettingId::io_support: return v == 0 || v == 1 || v == 3 ? "" : "io_support is 0, 1 or 3 (hdparm -c)";
    case SettingId::unmaskirq:
    case SettingId::using_dma:
    case SettingId::low_latency: return v <= 1 ? "" : std::string(setting_name(id)) + " is 0 or 1";
    case SettingId::nomerges:
    case SettingId::rq_affinity: return v <= 2 ? "" : std::string(setting_name(id)) + " is 0, 1 or 2";
    default: return {};
  }
}

std::string format_settings(const Settings& settings) {
  std::string text;
  for (const auto& [id, value] : settings) {
    if (!text.empty()) text += ' ';
    text += std::string(setting_name(id)) + '=' + format_value(id, value);
  }
  return text;
}

}  // namespace disktune::probe
