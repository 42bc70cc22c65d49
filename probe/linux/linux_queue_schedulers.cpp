// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxQueue::accepted_nr_requests_by_scheduler: the nr_requests ladder under every elevator.
#include "probe/linux/linux_queue.hpp"

#include <unistd.h>

#include <filesystem>

namespace disktune::probe {
// The active elevator's tunables (queue/iosched/*, every writable file), which a switch of
// the scheduler resets to the elevator's defaults.
Result<std::vector<std::pair<std::string, std::string>>> read_tunables(const SysfsQueue& sysfs) {
  std::vector<std::pair<std::string, std::string>> tunables;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sysfs.path("iosched"), ec)) {
    const auto attr = "iosched/" + entry.path().filename().string();
    if (!entry.is_regular_file() || !sysfs.writable(attr)) continue;
    auto value = sysfs.read(attr);
    if (!value) return value.error();
    tunables.emplace_back(attr, *value);
  }
  return tunables;  // no iosched/ (scheduler none): nothing to keep
}

Result<void> write_tunables(const SysfsQueue& sysfs, const std::vector<std::pair<std::string, std::string>>& tunables) {
  for (const auto& [attr, value] : tunables) {
    if (!is_tunable_name(attr))
      return Error{std::make_error_code(std::errc::invalid_argument),
                   "write queue/" + attr + ": not a scheduler tunable's name", sysfs.dir()};
    if (auto wrote = sysfs.write(attr, value); !wrote) return wrote.error();
  }
  return {};
}

Result<SchedulerTunables> LinuxQueue::active_tunables() const {
  auto list = read_scheduler();
  if (!list) return list.error();
  auto values = read_tunables(sysfs_);
  if (!values) return values.error();
  return SchedulerTunables{list->active, std::move(*values)};
}

void LinuxQueue::keep_tunables(const SchedulerTunables& tunables) {
  if (!tunables.scheduler.empty()) tunables_[tunables.scheduler] = tunables.values;
}

Result<void> LinuxQueue::restore_kept_tunables() {
  auto list = read_scheduler();
  if (!list) return list.error();
  const auto kept = tunables_.find(list->active);
  if (kept == tunables_.end()) return {};
  for (const auto& [attr, value] : kept->second)
    if (auto now = sysfs_.read(attr); !now || *now != value)
      if (auto wrote = sysfs_.write(attr, value); !wrote) return wrote.error();
  for (const auto& [attr, value] : kept->second) {
    auto now = sysfs_.read(attr);
    if (!now) return now.error();
    if (*now != value)
      return Error{std::make_error_code(std::errc::io_error),
                   "restore queue/" + attr + "=" + value + " (reads back " + *now + ")", sysfs_.path(attr)};
  }
  return {};
}

namespace {

// Puts the scheduler, its tunables and nr_requests back as found, also on an exception.
class QueueStateRestorer {
 public:
  QueueStateRestorer(const SysfsQueue& sysfs, std::string scheduler,
                     std::vector<std::pair<std::string, std::string>> tunables, std::int64_t nr_requests)
      : sysfs_(sysfs), scheduler_(std::move(scheduler)), tunables_(std::move(tunables)), nr_requests_(nr_requests) {}
  QueueStateRestorer(const QueueStateRestorer&) = delete;
  QueueStateRestorer& operator=(const QueueStateRestorer&) = delete;
  ~QueueStateRestorer() {
    if (!done_) (void)restore();
  }
  Result<void> restore() {
    done_ = true;
    if (auto wrote = sysfs_.write("scheduler", scheduler_); !wrote) return wrote.error();
    if (auto wrote = write_tunables(sysfs_, tunables_); !wrote) return wrote.error();
    // The switch resets nr_requests, often to the original itself: a value below 4 (ata_piix's
    // 2) only a switch can set, as a write raises it to 4.
    if (auto now = sysfs_.read_number("nr_requests"); now && *now == nr_requests_) return {};
    if (auto wrote = sysfs_.write("nr_requests", std::to_string(nr_requests_)); !wrote) return wrote.error();
    return {};
  }

 private:
  const SysfsQueue& sysfs_;
  std::string scheduler_;
  std::vector<std::pair<std::string, std::string>> tunables_;
  std::int64_t nr_requests_;
  bool done_ = false;
};

}  // namespace

Result<std::vector<std::int64_t>> LinuxQueue::ladder_or_default() {
  auto ladder = accepted_nr_requests();
  if (ladder || ladder.error().code != std::errc::operation_not_permitted) return ladder;
  // Its default is below what a write can produce (ata_piix: 2 under an elevator, 1 under
  // none): the scheduler offers nr_requests at that default only, which a switch sets.
  auto now = sysfs_.read_number("nr_requests");
  if (!now) return now.error();
  return std::vector<std::int64_t>{*now};
}

Result<std::map<std::string, std::vector<std::int64_t>>> LinuxQueue::accepted_nr_requests_by_scheduler() {
  std::map<std::string, std::vector<std::int64_t>> ladders;
  auto list = read_scheduler();
  if (!list) return list.error();
  auto here = ladder_or_default();
  if (!here) return here.error();
  ladders[list->active] = *here;
  if (!list->switchable || list->names.size() < 2 || !sysfs_.writable("scheduler")) return ladders;
  auto original = sysfs_.read_number("nr_requests");
  if (!original) return original.error();
  auto tunables = read_tunables(sysfs_);
  if (!tunables) return tunables.error();
  QueueStateRestorer restorer(sysfs_, list->active, std::move(*tunables), *original);
  std::optional<Error> failure;
  for (const auto& name : list->names) {
    if (name == list->active) continue;
    if (auto switched = sysfs_.write("scheduler", name); !switched) {
      if (switched.error().is_unsupported()) continue;  // listed but refused: not offered
      failure = switched.error();
      break;
    }
    auto ladder = ladder_or_default();
    if (!ladder) {
      failure = ladder.error();
      break;
    }
    ladders[name] = *ladder;
  }
  if (auto restored = restorer.restore(); !restored) return restored.error();
  if (failure) return *failure;
  auto now = read(SettingId::scheduler);
  if (!now) return now.error();
  const auto nr_now = sysfs_.read_number("nr_requests");
  if (now->text() != list->active || !nr_now || *nr_now != *original)
    return Error{std::make_error_code(std::errc::io_error),
                 "restore queue/scheduler=" + list->active + " and nr_requests=" + std::to_string(*original) +
                     " after probing every scheduler",
                 sysfs_.dir()};
  return ladders;
}

}  // namespace disktune::probe
