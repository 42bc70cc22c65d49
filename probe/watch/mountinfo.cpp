// SPDX-License-Identifier: GPL-2.0-or-later
// mountinfo: the mount table as proc(5) writes it.
#include "probe/watch/mountinfo.hpp"


#include <fstream>
#include <sstream>

namespace disktune::probe {

namespace fs = std::filesystem;

std::vector<Mount> read_mountinfo(const fs::path& path) {
  std::vector<Mount> mounts;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string id, parent, root;
    Mount mount;
    fields >> id >> parent >> mount.majmin >> root >> mount.mount_point;
    // Optional fields (shared:N, master:N) come between field 6 and the separator.
    if (const auto dash = line.find(" - "); dash != std::string::npos)
      std::istringstream(line.substr(dash + 3)) >> mount.type >> mount.source >> mount.options;
    mounts.push_back(std::move(mount));
  }
  return mounts;
}

std::string mount_type(const std::vector<Mount>& mounts, const std::string& majmin) {
  std::string type;
  for (const auto& mount : mounts)
    if (mount.majmin == majmin) type = mount.type;
  return type;
}

std::string fuse_mount_type(const std::vector<Mount>& mounts, const std::string& majmin) {
  const std::string type = mount_type(mounts, majmin);
  return type == "fuse" || type.starts_with("fuse.") ? type : std::string();
}

std::string source_kernel_name(const std::string& source, bool resolve) {
  if (!source.starts_with("/dev/")) return {};
  std::error_code ec;
  const auto resolved = resolve ? fs::canonical(source, ec) : fs::path(source);
  return (ec ? fs::path(source) : resolved).filename().string();
}

}  // namespace disktune::probe
