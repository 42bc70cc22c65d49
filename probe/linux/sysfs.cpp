// SPDX-License-Identifier: GPL-2.0-or-later
// sysfs attribute files and the queue/scheduler parser.
#include "probe/linux/sysfs.hpp"

#include "probe/core/unique_fd.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <charconv>

namespace disktune::probe {
namespace {

Error bad_scheduler_line(std::string_view line) {
  return Error{std::make_error_code(std::errc::invalid_argument),
               "parse queue/scheduler '" + std::string(line) + "'", ""};
}

std::vector<std::string_view> split_blanks(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  while (pos < line.size()) {
    const auto start = line.find_first_not_of(" \t\n", pos);
    if (start == std::string_view::npos) break;
    auto end = line.find_first_of(" \t\n", start);
    if (end == std::string_view::npos) end = line.size();
    words.push_back(line.substr(start, end - start));
    pos = end;
  }
  return words;
}

}  // namespace

Result<SchedulerList> parse_scheduler_line(std::string_view line) {
  const auto words = split_blanks(line);
  if (words.empty()) return bad_scheduler_line(line);
  SchedulerList list;
  int bracketed = 0;
  for (auto word : words) {
    const bool open = word.front() == '[';
    const bool close = word.back() == ']';
    if (open != close) return bad_scheduler_line(line);
    if (open) {
      word = word.substr(1, word.size() - 2);
      list.active = std::string(word);
      ++bracketed;
    }
    if (word.empty() || word.find_first_of("[]") != std::string_view::npos)
      return bad_scheduler_line(line);
    list.names.emplace_back(word);
  }
  if (bracketed == 0 && list.names.size() == 1) {
    list.active = list.names.front();
    list.switchable = false;
    return list;
  }
  if (bracketed != 1) return bad_scheduler_line(line);
  return list;
}

Result<std::string> read_sysfs(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return errno_error(errno, "open", path);
  std::string text;
  std::array<char, 4096> chunk{};
  for (;;) {
    const ssize_t got = ::read(fd.get(), chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return errno_error(errno, "read", path);
    if (got == 0) break;
    text.append(chunk.data(), static_cast<std::size_t>(got));
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

Result<std::int64_t> read_sysfs_number(const std::string& path) {
  auto text = read_sysfs(path);
  if (!text) return text.error();
  std::int64_t number = 0;
  const char* end = text->data() + text->size();
  const auto [ptr, ec] = std::from_chars(text->data(), end, number);
  if (ec != std::errc{} || ptr != end || text->empty())
    return Error{std::make_error_code(std::errc::invalid_argument),
                 "parse '" + *text + "' as a number", path};
  return number;
}

Result<void> write_sysfs(const std::string& path, std::string_view text, const std::string& op) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd) return errno_error(errno, op, path);
  ssize_t wrote = -1;
  do {
    wrote = ::write(fd.get(), text.data(), text.size());
  } while (wrote < 0 && errno == EINTR);
  if (wrote < 0) return errno_error(errno, op, path);
  if (static_cast<std::size_t>(wrote) != text.size())
    return Error{std::make_error_code(std::errc::io_error), op + " (short write)", path};
  return {};
}

std::string sysfs_block_dir(unsigned major_number, unsigned minor_number) {
  return "/sys/dev/block/" + std::to_string(major_number) + ":" + std::to_string(minor_number);
}

std::string SysfsQueue::path(std::string_view attr) const { return dir_ + "/" + std::string(attr); }

bool SysfsQueue::has(std::string_view attr) const {
  return ::access(path(attr).c_str(), F_OK) == 0;
}

bool SysfsQueue::writable(std::string_view attr) const {
  return ::access(path(attr).c_str(), W_OK) == 0;
}

Result<std::string> SysfsQueue::read(std::string_view attr) const { return read_sysfs(path(attr)); }

Result<std::int64_t> SysfsQueue::read_number(std::string_view attr) const {
  return read_sysfs_number(path(attr));
}

Result<void> SysfsQueue::write(std::string_view attr, std::string_view value) const {
  // "queue/nr_requests", or "device/queue_depth" for the SCSI device's directory.
  const bool device = dir_.ends_with("/device");
  const std::string op = std::string(device ? "write device/" : "write queue/") + std::string(attr) + "=" + std::string(value);
  // Names can come from a journal: a write never leaves the queue directory.
  if (attr.empty() || attr.front() == '/' || attr.find("..") != std::string_view::npos)
    return Error{std::make_error_code(std::errc::invalid_argument), op + " (not a queue attribute name)", dir_};
  return write_sysfs(path(attr), value, op);
}

}  // namespace disktune::probe
