// SPDX-License-Identifier: GPL-2.0-or-later
// /proc/self/io read_bytes and /sys/dev/block/MAJ:MIN/stat, parsed.
#include "probe/linux/read_accounting.hpp"

#include "probe/linux/sysfs.hpp"

#include <sys/sysmacros.h>

#include <charconv>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace disktune::probe {
namespace {

constexpr std::uint64_t kSectorBytes = 512;  // stat counts 512-byte sectors whatever the device's

Error parse_error(const std::string& what, const std::string& text) {
  return Error{std::make_error_code(std::errc::invalid_argument), "parse " + what + " '" + text + "'", ""};
}

bool parse_u64(const std::string& text, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && end == text.data() + text.size();
}

}  // namespace

Result<std::uint64_t> task_submitted_read_bytes() {
  const std::string path = "/proc/self/io";
  std::ifstream in(path);
  if (!in) return errno_error(errno, "open", path);
  std::string key;
  std::string value;
  while (in >> key >> value) {
    if (key != "read_bytes:") continue;
    std::uint64_t bytes = 0;
    if (!parse_u64(value, bytes)) return parse_error(path + " read_bytes", value);
    return bytes;
  }
  return Error{std::make_error_code(std::errc::invalid_argument),
               "no read_bytes line (kernel without task I/O accounting?)", path};
}

std::ostream& operator<<(std::ostream& out, const DeviceReads& reads) {
  return out << "completed " << reads.completed_bytes << " B, in_flight " << reads.in_flight;
}

std::ostream& operator<<(std::ostream& out, const ReadMark& mark) {
  return out << "submitted " << mark.submitted_bytes << " B, completed " << mark.completed_bytes << " B";
}

Result<DeviceReads> parse_block_stat(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::uint64_t> fields;
  for (std::string word; in >> word;) {
    std::uint64_t number = 0;
    if (!parse_u64(word, number)) return parse_error("block stat", line);
    fields.push_back(number);
  }
  if (fields.size() < 9) return parse_error("block stat", line);
  return DeviceReads{fields[2] * kSectorBytes, fields[8]};
}

Result<DeviceReads> read_device_reads(std::uint64_t device_number) {
  const auto dev = static_cast<dev_t>(device_number);
  const std::string path = sysfs_block_dir(major(dev), minor(dev)) + "/stat";
  auto text = read_sysfs(path);
  if (!text) return text.error();
  auto reads = parse_block_stat(*text);
  if (!reads) return Error{reads.error().code, reads.error().op, path};
  return reads;
}

Result<ReadMark> mark_reads(std::uint64_t device_number) {
  auto submitted = task_submitted_read_bytes();
  if (!submitted) return submitted.error();
  auto device = read_device_reads(device_number);
  if (!device) return device.error();
  return ReadMark{*submitted, device->completed_bytes};
}

Result<Seconds> wait_for_reads(std::uint64_t device_number, ReadMark& mark, Seconds bound) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kPoll = std::chrono::milliseconds(2);
  constexpr auto kQuiet = std::chrono::milliseconds(250);
  const auto start = Clock::now();
  auto quiet_since = start;
  std::uint64_t last_completed = mark.completed_bytes;
  for (;;) {
    auto submitted = task_submitted_read_bytes();
    if (!submitted) return submitted.error();
    auto device = read_device_reads(device_number);
    if (!device) return device.error();
    const auto now = Clock::now();
    if (device->completed_bytes != last_completed || device->in_flight != 0) quiet_since = now;
    last_completed = device->completed_bytes;
    const bool caught_up =
        device->completed_bytes - mark.completed_bytes >= *submitted - mark.submitted_bytes;
    if (caught_up || now - quiet_since >= kQuiet) {
      mark = ReadMark{*submitted, device->completed_bytes};
      return Seconds(std::chrono::duration<double>(now - start).count());
    }
    if (now - start >= bound)
      return Error{std::make_error_code(std::errc::timed_out),
                   "reads still in flight after " + std::to_string(bound.count()) + " s",
                   sysfs_block_dir(major(static_cast<dev_t>(device_number)),
                                   minor(static_cast<dev_t>(device_number)))};
    std::this_thread::sleep_for(kPoll);
  }
}

}  // namespace disktune::probe
