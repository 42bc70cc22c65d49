// SPDX-License-Identifier: GPL-2.0-or-later
// A word for a shell, quoted only where it must be.
#include "tuner/host/shell_word.hpp"

namespace disktune::tuner {

std::string shell_word(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+:=@,%") ==
                           std::string::npos)
    return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace disktune::tuner
