// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxQueue::accepted_nr_requests_by_scheduler: the nr_requests ladder under every elevator.
#include "probe/linux_queue.hpp"

#include <unistd.h>

#include <filesystem>

namespace disktune::probe {
namespace {

}  // namespace

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
  for (const auto& [attr, value] : tunables)
    if (auto wrote = sysfs.write(attr, value); !wrote) return wrote.error();
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

Result<std::map<std::string, std::vector<std::int64_t>>> LinuxQueue::accepted_nr_requests_by_scheduler() {
  std::map<std::string, std::vector<std::int64_t>> ladders;
  auto list = read_scheduler();
  if (!list) return list.error();
  auto here = accepted_nr_requests();
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
    auto ladder = accepted_nr_requests();
    if (!ladder) {
      // Under this elevator nr_requests cannot be probed (its default is below what a write
      // can produce): it offers nr_requests only at that default.
      if (ladder.error().code != std::errc::operation_not_permitted) {
        failure = ladder.error();
        break;
      }
      ladder = std::vector<std::int64_t>{};
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
