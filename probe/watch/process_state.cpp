// SPDX-License-Identifier: GPL-2.0-or-later
// Process state and wait channel from /proc.
#include "probe/watch/process_state.hpp"

#include <fstream>

namespace disktune::probe {

char process_state(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return '?';
  const auto paren = line.rfind(')');  // the command name may hold spaces and parentheses
  return paren != std::string::npos && paren + 2 < line.size() ? line[paren + 2] : '?';
}

std::string process_wchan(int pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/wchan");
  std::string name;
  std::getline(file, name);
  return name == "0" ? "" : name;
}

}  // namespace disktune::probe
