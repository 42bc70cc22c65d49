// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxQueue: read_ahead_kb, scheduler, nr_requests, max_sectors_kb and readahead (BLKRAGET).
#include "probe/linux/linux_queue.hpp"

#include "probe/core/assert.hpp"

#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

namespace disktune::probe {
namespace {

constexpr std::string_view kReadaheadReason =
    "same value as queue/read_ahead_kb (BLKRAGET sectors = read_ahead_kb * 2); tuned as "
    "read_ahead_kb";

std::string_view attr_of(SettingId id) { return setting_info(id).sysfs_attr; }

// The SCSI device directory beside queue/ (queue/.. is the block device's directory).
std::string device_dir(const SysfsQueue& queue) {
  return queue.dir().substr(0, queue.dir().rfind('/')) + "/device";
}

std::vector<SettingValue> to_values(const std::vector<std::int64_t>& numbers) {
  std::vector<SettingValue> values;
  values.reserve(numbers.size());
  for (const auto number : numbers) values.emplace_back(number);
  return values;
}

Capability with(SettingId id, Support support, std::string reason = {}) {
  return Capability{id, support, {}, std::move(reason)};
}

// Puts the original queue/nr_requests back when probing ends, also on an exception.
class NrRequestsRestorer {
 public:
  NrRequestsRestorer(const SysfsQueue& sysfs, std::int64_t original)
      : sysfs_(sysfs), original_(original) {}
  NrRequestsRestorer(const NrRequestsRestorer&) = delete;
  NrRequestsRestorer& operator=(const NrRequestsRestorer&) = delete;
  ~NrRequestsRestorer() {
    if (!done_) (void)restore();
  }
  Result<void> restore() {
    done_ = true;
    if (auto wrote = sysfs_.write("nr_requests", std::to_string(original_)); !wrote)
      return wrote.error();
    auto now = sysfs_.read_number("nr_requests");
    if (!now) return now.error();
    if (*now != original_)
      return Error{std::make_error_code(std::errc::io_error),
                   "restore queue/nr_requests=" + std::to_string(original_) + " (reads back " +
                       std::to_string(*now) + ")",
                   sysfs_.path("nr_requests")};
    return {};
  }

 private:
  const SysfsQueue& sysfs_;
  std::int64_t original_;
  bool done_ = false;
};

}  // namespace

std::vector<std::int64_t> power_ladder(std::int64_t low, std::int64_t high, std::int64_t current) {
  DT_ASSERT(low >= 1);
  std::vector<std::int64_t> ladder;
  std::int64_t step = 1;
  while (step < low) step *= 2;
  for (; step <= high; step *= 2) ladder.push_back(step);
  ladder.push_back(current);
  std::sort(ladder.begin(), ladder.end());
  ladder.erase(std::unique(ladder.begin(), ladder.end()), ladder.end());
  return ladder;
}

std::vector<std::int64_t> queue_depth_ladder(std::int64_t current_depth) {
  return power_ladder(1, current_depth, current_depth);
}

const SysfsQueue& LinuxQueue::dir_of(SettingId id) const { return is_device_attribute(id) ? device_ : sysfs_; }

std::vector<std::int64_t> max_sectors_ladder(std::int64_t page_kb, std::int64_t max_hw_kb, std::int64_t current_kb) {
  auto ladder = power_ladder(std::max<std::int64_t>(page_kb, 1), max_hw_kb, current_kb);
  if (ladder.back() < max_hw_kb) ladder.push_back(max_hw_kb);  // power_ladder ends at or below it
  return ladder;
}

std::vector<std::int64_t> read_ahead_ladder(std::int64_t current_kb) {
  auto ladder = power_ladder(16, 8192, current_kb);
  if (ladder.front() != 0) ladder.insert(ladder.begin(), 0);
  return ladder;
}

std::vector<std::int64_t> tunable_ladder(SettingId id, std::optional<std::int64_t> current) {
  std::vector<std::int64_t> ladder;
  switch (id) {
    case SettingId::fifo_batch: ladder = {1, 4, 16, 64}; break;
    case SettingId::read_expire: ladder = {100, 200, 500, 1000}; break;
    case SettingId::low_latency: ladder = {0, 1}; break;
    case SettingId::slice_idle: ladder = {0, 4, 8, 16}; break;
    case SettingId::read_lat_nsec: ladder = {500000, 1000000, 2000000, 4000000}; break;
    default: DT_ASSERT(false);
  }
  if (current && std::find(ladder.begin(), ladder.end(), *current) == ladder.end()) ladder.push_back(*current);
  std::sort(ladder.begin(), ladder.end());
  return ladder;
}

LinuxQueue::LinuxQueue(SysfsQueue sysfs, int fd, std::string dev_path)
    : sysfs_(std::move(sysfs)), device_(device_dir(sysfs_)), fd_(fd), dev_path_(std::move(dev_path)) {
  remember_tunables();
}

void LinuxQueue::remember_tunables() {
  const auto list = read_scheduler();
  if (!list || tunables_.count(list->active)) return;
  if (auto tunables = read_tunables(sysfs_)) tunables_.emplace(list->active, std::move(*tunables));
}

Result<void> LinuxQueue::switch_scheduler(const std::string& name) {
  remember_tunables();
  if (auto wrote = sysfs_.write("scheduler", name); !wrote) return wrote;
  const auto known = tunables_.find(name);
  if (known == tunables_.end()) return {};
  return write_tunables(sysfs_, known->second);
}

bool LinuxQueue::handles(SettingId id) {
  return id == SettingId::readahead || !setting_info(id).sysfs_attr.empty();
}

Result<std::int64_t> LinuxQueue::blkraget_sectors() const {
  long sectors = 0;
  if (::ioctl(fd_, BLKRAGET, &sectors) != 0)
    return errno_error(errno, "ioctl(BLKRAGET)", dev_path_);
  return static_cast<std::int64_t>(sectors);
}

Capability LinuxQueue::support(SettingId id) const {
  DT_ASSERT(handles(id));
  if (id == SettingId::readahead) {
    auto sectors = blkraget_sectors();
    if (!sectors) return with(id, Support::unsupported, sectors.error().message());
    return with(id, Support::read_only, std::string(kReadaheadReason));
  }
  if (id == SettingId::read_ahead_kb && !sysfs_.has(attr_of(id))) {
    // No sysfs queue/: BLKRAGET/BLKRASET carry the same value.
    auto sectors = blkraget_sectors();
    if (!sectors) return with(id, Support::unsupported, sectors.error().message());
    return with(id, Support::supported);
  }
  if (id == SettingId::scheduler) return scheduler_support();
  if (is_scheduler_tunable(id)) return tunable_support(id);
  return attribute_support(id);
}

Capability LinuxQueue::tunable_support(SettingId id) const {
  auto list = read_scheduler();
  if (!list) return with(id, Support::unsupported, list.error().message());
  const std::string owner(setting_info(id).scheduler);
  if (list->active != owner)
    return with(id, Support::unsupported,
                "exists only under the " + owner + " scheduler (active: " + list->active + ")");
  return attribute_support(id);
}

// A tunable of an inactive scheduler: offered when a configuration can switch to its owner.
Capability LinuxQueue::tunable_capability(SettingId id) {
  auto capability = tunable_support(id);
  const std::string owner(setting_info(id).scheduler);
  auto list = read_scheduler();
  if (!list) return capability;
  if (list->active == owner) {
    if (capability.support == Support::unsupported) return capability;
    auto current = read(id);
    if (!current) return with(id, Support::unsupported, current.error().message());
    capability.values = capability.support == Support::read_only
                            ? std::vector<SettingValue>{*current}
                            : to_values(tunable_ladder(id, current->number()));
    return capability;
  }
  if (std::find(list->names.begin(), list->names.end(), owner) == list->names.end())
    return with(id, Support::unsupported, "queue/scheduler on " + dev_path_ + " does not offer " + owner);
  if (scheduler_support().support != Support::supported)
    return with(id, Support::unsupported, capability.reason + "; the scheduler cannot be switched");
  capability = with(id, Support::supported);
  capability.values = to_values(tunable_ladder(id, std::nullopt));
  return capability;
}

Result<SchedulerList> LinuxQueue::read_scheduler() const {
  auto line = sysfs_.read("scheduler");
  if (!line) return line.error();
  auto list = parse_scheduler_line(*line);
  if (!list) return Error{list.error().code, list.error().op, sysfs_.path("scheduler")};
  return list;
}

Capability LinuxQueue::attribute_support(SettingId id) const {
  const auto& dir = dir_of(id);
  auto current = dir.read_number(attr_of(id));
  if (!current) return with(id, Support::unsupported, current.error().message());
  if (!dir.writable(attr_of(id)))
    return with(id, Support::read_only,
                errno_error(EACCES, "access(W_OK)", dir.path(attr_of(id))).message());
  return with(id, Support::supported);
}

Capability LinuxQueue::scheduler_support() const {
  const auto id = SettingId::scheduler;
  auto list = read_scheduler();
  if (!list) return with(id, Support::unsupported, list.error().message());
  if (!list->switchable || list->names.size() < 2)
    return with(id, Support::read_only,
                "queue/scheduler lists only '" + list->active + "' on " + dev_path_);
  if (!sysfs_.writable("scheduler"))
    return with(id, Support::read_only,
                errno_error(EACCES, "access(W_OK)", sysfs_.path("scheduler")).message());
  return with(id, Support::supported);
}

Capability LinuxQueue::capability(SettingId id) {
  if (is_scheduler_tunable(id)) return tunable_capability(id);
  auto capability = support(id);
  if (capability.support == Support::unsupported || id == SettingId::readahead) return capability;
  if (id == SettingId::scheduler) {
    if (auto list = read_scheduler())
      for (const auto& name : list->names) capability.values.emplace_back(name);
    return capability;
  }
  auto current = read(id);
  if (!current) return with(id, Support::unsupported, current.error().message());
  if (capability.support == Support::read_only) {
    capability.values = {*current};
    return capability;
  }
  auto numbers = number_values(id, current->number());
  if (numbers) {
    capability.values = to_values(*numbers);
  } else {
    capability.support = Support::read_only;
    capability.reason = "probing accepted values failed: " + numbers.error().message();
    capability.values = {*current};
  }
  // The ladder just found holds under the current scheduler only; the others' ranges are
  // needed even when nr_requests itself is not tuned (held at a value other schedulers
  // may refuse: ata_piix's 2 under none), unless the probe failed outright.
  const bool probed = numbers || numbers.error().code == std::errc::operation_not_permitted;
  if (id == SettingId::nr_requests && probed)
    if (auto ladders = accepted_nr_requests_by_scheduler())
      for (const auto& [name, ladder] : *ladders) capability.values_by_scheduler[name] = to_values(ladder);
  return capability;
}

constexpr std::int64_t kMinWritableNrRequests = 4;

Result<std::vector<std::int64_t>> LinuxQueue::number_values(SettingId id, std::int64_t current) {
  switch (id) {
    case SettingId::read_ahead_kb:
      return read_ahead_ladder(current);
    case SettingId::nr_requests:
      return accepted_nr_requests();
    case SettingId::queue_depth:
      return queue_depth_ladder(current);
    case SettingId::nomerges:
    case SettingId::rq_affinity:
      // block/blk-sysfs.c: both read back 0, 1 or 2 as written; larger writes fold into 1
      // (nomerges) or 2 (rq_affinity), so only the three states are values.
      return std::vector<std::int64_t>{0, 1, 2};
    case SettingId::max_sectors_kb: {
      // The kernel refuses max_sectors_kb below one page or above max_hw_sectors_kb.
      const std::int64_t page_kb = ::sysconf(_SC_PAGESIZE) / 1024;
      auto max_hw = sysfs_.read_number("max_hw_sectors_kb");
      if (!max_hw) return max_hw.error();
      return max_sectors_ladder(page_kb, *max_hw, current);
    }
    default:
      DT_ASSERT(false);
      return std::vector<std::int64_t>{};
  }
}

Result<std::vector<std::int64_t>> LinuxQueue::accepted_nr_requests() {
  auto original = sysfs_.read_number("nr_requests");
  if (!original) return original.error();
  // The block layer raises any write below 4 to 4 (measured on ata_piix, default 2): such a
  // value could not be put back after a change, so it is not probed and not tuned.
  if (*original < kMinWritableNrRequests)
    return Error{std::make_error_code(std::errc::operation_not_permitted),
                 "nr_requests is " + std::to_string(*original) + ", below the " +
                     std::to_string(kMinWritableNrRequests) +
                     " that writes are raised to, so a change could not be undone",
                 sysfs_.path("nr_requests")};
  NrRequestsRestorer restorer(sysfs_, *original);
  std::vector<std::int64_t> accepted;
  std::optional<Error> failure;
  for (const auto candidate : power_ladder(4, 2048, *original)) {
    auto wrote = sysfs_.write("nr_requests", std::to_string(candidate));
    if (wrote) {
      accepted.push_back(candidate);
    } else if (!wrote.error().is_unsupported()) {
      failure = wrote.error();
      break;
    }
  }
  if (auto restored = restorer.restore(); !restored) return restored.error();
  if (failure) return *failure;
  return accepted;
}

Result<SettingValue> LinuxQueue::read(SettingId id) const {
  DT_ASSERT(handles(id));
  if (id == SettingId::readahead || (id == SettingId::read_ahead_kb && !sysfs_.has(attr_of(id)))) {
    auto sectors = blkraget_sectors();
    if (!sectors) return sectors.error();
    return SettingValue(id == SettingId::readahead ? *sectors : *sectors / 2);
  }
  if (id == SettingId::scheduler) {
    auto list = read_scheduler();
    if (!list) return list.error();
    return SettingValue(list->active);
  }
  auto number = dir_of(id).read_number(attr_of(id));
  if (!number) return number.error();
  return SettingValue(*number);
}

Result<void> LinuxQueue::apply(SettingId id, const SettingValue& value) {
  DT_ASSERT(handles(id));
  DT_ASSERT(value.is_number() != setting_info(id).textual);
  if (id == SettingId::readahead)
    return Error{std::make_error_code(std::errc::operation_not_supported),
                 "apply readahead: " + std::string(kReadaheadReason), dev_path_};
  if (id == SettingId::read_ahead_kb && !sysfs_.has(attr_of(id))) {
    if (::ioctl(fd_, BLKRASET, static_cast<unsigned long>(value.number() * 2)) != 0)
      return errno_error(errno, "ioctl(BLKRASET " + std::to_string(value.number() * 2) + ")",
                         dev_path_);
    return {};
  }
  if (id == SettingId::scheduler) return switch_scheduler(value.text());
  return dir_of(id).write(attr_of(id), format_value(id, value));
}

}  // namespace disktune::probe
