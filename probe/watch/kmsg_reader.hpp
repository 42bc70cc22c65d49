// SPDX-License-Identifier: GPL-2.0-or-later
// /dev/kmsg records: parsing one, and reading the kernel log ring buffer record by record.
#pragma once

#include "probe/core/error.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::probe {

/// One kernel log record as /dev/kmsg gives it: "prio,seq,usec,flags[,...];message\n", then
/// optional continuation lines (" KEY=value") that are not part of the message.
/// Source: Documentation/ABI/testing/dev-kmsg.
struct KmsgRecord {
  int prio = 0;            ///< facility << 3 | level
  std::uint64_t seq = 0;   ///< the record's sequence number: increases by one per record in a boot
  std::uint64_t usec = 0;  ///< the kernel's timestamp [µs since boot, the printk clock]
  std::string message;     ///< the text after ';' up to the first newline
};

/// One record's text parsed; nullopt when it is not of that form (no ';', a field that is no
/// number).
std::optional<KmsgRecord> parse_kmsg_record(std::string_view record);

/// The records of a text with one record a line (as /dev/kmsg's reads, concatenated);
/// continuation lines (starting with a space) and lines not of the form are skipped. For
/// tests and for text saved from /dev/kmsg.
std::vector<KmsgRecord> parse_kmsg_text(std::string_view text);

/// Reads of an open /dev/kmsg descriptor (O_NONBLOCK) from its position, one record a read,
/// each passed to `each`, until no record is left (EAGAIN) or `max_records` were read. A
/// record overwritten before it was read (EPIPE) is skipped; EINTR retried. Returns the
/// number of records passed on.
std::size_t read_kmsg_records(int fd, std::size_t max_records, const std::function<void(std::string_view)>& each);

/// The most records read_kmsg_log reads: more than a ring buffer of the largest
/// log_buf_len (CONFIG_LOG_BUF_SHIFT 25, 32 MiB) holds of the shortest records.
inline constexpr std::size_t kMaxKmsgRecords = 1u << 22;

/// Every record of the kernel log ring buffer now (/dev/kmsg from its first record,
/// SEEK_SET: also what `dmesg -c` cleared) whose sequence number is above `after_seq` (all
/// with nullopt). Errors: the errno of opening /dev/kmsg (EACCES, ENOENT without it).
Result<std::vector<KmsgRecord>> read_kmsg_log(std::optional<std::uint64_t> after_seq = std::nullopt);

/// The sequence number of the last record of the kernel log now; nullopt when /dev/kmsg
/// cannot be opened or holds no record. What an apply records so that verify tells the
/// records logged after it (seq above it, same boot) from those before.
std::optional<std::uint64_t> last_kmsg_seq();

}  // namespace disktune::probe
