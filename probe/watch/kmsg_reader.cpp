// SPDX-License-Identifier: GPL-2.0-or-later
// Parsing /dev/kmsg records and reading them from the kernel log ring buffer.
#include "probe/watch/kmsg_reader.hpp"

#include "probe/core/unique_fd.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <cerrno>

namespace disktune::probe {
namespace {

// The next ','-separated number of `fields`, which loses it and its comma.
template <class T>
std::optional<T> next_number(std::string_view& fields) {
  const auto comma = fields.find(',');
  const auto token = fields.substr(0, comma);
  fields = comma == std::string_view::npos ? std::string_view{} : fields.substr(comma + 1);
  T value{};
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return value;
}

UniqueFd open_kmsg() { return UniqueFd(::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC)); }

}  // namespace

std::optional<KmsgRecord> parse_kmsg_record(std::string_view record) {
  const auto semicolon = record.find(';');
  if (semicolon == std::string_view::npos) return std::nullopt;
  auto fields = record.substr(0, semicolon);
  const auto prio = next_number<int>(fields);
  const auto seq = next_number<std::uint64_t>(fields);
  const auto usec = next_number<std::uint64_t>(fields);
  if (!prio || !seq || !usec) return std::nullopt;
  const auto message = record.substr(semicolon + 1);
  return KmsgRecord{*prio, *seq, *usec, std::string(message.substr(0, message.find('\n')))};
}

std::vector<KmsgRecord> parse_kmsg_text(std::string_view text) {
  std::vector<KmsgRecord> records;
  while (!text.empty()) {
    const auto newline = text.find('\n');
    const auto line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    if (line.empty() || line.front() == ' ') continue;
    if (auto record = parse_kmsg_record(line)) records.push_back(std::move(*record));
  }
  return records;
}

std::size_t read_kmsg_records(int fd, std::size_t max_records, const std::function<void(std::string_view)>& each) {
  std::array<char, 8192> record{};  // a record is at most CONSOLE_EXT_LOG_MAX (8 KiB)
  std::size_t count = 0;
  while (count < max_records) {
    const ssize_t n = ::read(fd, record.data(), record.size());
    if (n < 0 && (errno == EPIPE || errno == EINTR)) continue;  // EPIPE: overwritten, the next one follows
    if (n <= 0) break;                                           // EAGAIN: no more records
    each(std::string_view(record.data(), static_cast<std::size_t>(n)));
    ++count;
  }
  return count;
}

Result<std::vector<KmsgRecord>> read_kmsg_log(std::optional<std::uint64_t> after_seq) {
  const auto fd = open_kmsg();
  if (!fd) return errno_error(errno, "open", "/dev/kmsg");
  ::lseek(fd.get(), 0, SEEK_SET);
  std::vector<KmsgRecord> records;
  read_kmsg_records(fd.get(), kMaxKmsgRecords, [&](std::string_view text) {
    auto record = parse_kmsg_record(text);
    if (record && (!after_seq || record->seq > *after_seq)) records.push_back(std::move(*record));
  });
  return records;
}

std::optional<std::uint64_t> last_kmsg_seq() {
  const auto fd = open_kmsg();
  if (!fd) return std::nullopt;
  ::lseek(fd.get(), 0, SEEK_SET);
  std::optional<std::uint64_t> last;
  read_kmsg_records(fd.get(), kMaxKmsgRecords, [&](std::string_view text) {
    if (const auto record = parse_kmsg_record(text)) last = record->seq;
  });
  return last;
}

}  // namespace disktune::probe
