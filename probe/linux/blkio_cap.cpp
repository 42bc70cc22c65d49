// SPDX-License-Identifier: GPL-2.0-or-later
// Read caps of this process's cgroup (blkio_cap.hpp).
#include "probe/linux/blkio_cap.hpp"

#include <fstream>
#include <sstream>

namespace disktune::probe {
namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The value a v1 throttle file ("7:0 1048576" lines) holds for `majmin`.
std::optional<std::uint64_t> v1_value(const std::string& text, const std::string& majmin) {
  std::istringstream lines(text);
  std::string device;
  std::uint64_t value = 0;
  while (lines >> device >> value)
    if (device == majmin) return value;
  return std::nullopt;
}

// The value of `key` ("rbps") in io.max's line for `majmin` ("7:0 rbps=1048576 wbps=max ...").
std::optional<std::uint64_t> v2_value(const std::string& text, const std::string& majmin, const std::string& key) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string device, field;
    if (!(fields >> device) || device != majmin) continue;
    while (fields >> field)
      if (field.starts_with(key + "=") && field != key + "=max") {
        try {
          return std::stoull(field.substr(key.size() + 1));
        } catch (const std::exception&) {
          return std::nullopt;
        }
      }
  }
  return std::nullopt;
}

}  // namespace

std::optional<ReadCap> read_cap(const std::string& majmin, const std::string& proc_cgroup, const std::string& cgroup_root) {
  ReadCap cap;
  std::istringstream lines(proc_cgroup);
  std::string line;
  while (std::getline(lines, line)) {  // "ID:CONTROLLERS:PATH"
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers == "blkio" || controllers.find("blkio,") != std::string::npos ||
        controllers.ends_with(",blkio")) {
      const std::string dir = cgroup_root + "/blkio" + path;
      cap.bytes_per_s = v1_value(file_text(dir + "/blkio.throttle.read_bps_device"), majmin);
      cap.ios_per_s = v1_value(file_text(dir + "/blkio.throttle.read_iops_device"), majmin);
    } else if (controllers.empty() && !cap.bytes_per_s && !cap.ios_per_s) {
      // The unified hierarchy: at the root on a v2 system, under unified/ on a hybrid one.
      for (const std::string& root : {cgroup_root, cgroup_root + "/unified"}) {
        const std::string io_max = file_text(root + path + "/io.max");
        cap.bytes_per_s = v2_value(io_max, majmin, "rbps");
        cap.ios_per_s = v2_value(io_max, majmin, "riops");
        if (cap.bytes_per_s || cap.ios_per_s) break;
      }
    }
    if (cap.bytes_per_s || cap.ios_per_s) return cap;
  }
  return std::nullopt;
}

std::optional<ReadCap> own_read_cap(const std::string& majmin) {
  return read_cap(majmin, file_text("/proc/self/cgroup"));
}

}  // namespace disktune::probe
