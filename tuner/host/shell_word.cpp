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

std::string path_word(const std::string& path) { return !path.empty() && path.front() == '-' ? "./" + path : path; }

namespace {
std::string& program_name() {
  static std::string name = "disktune";
  return name;
}
}  // namespace

const std::string& program_word() { return program_name(); }

void set_program_word(const std::string& argv0) {
  if (!argv0.empty()) program_name() = argv0;
}

std::string shell_command(const std::vector<std::string>& words) {
  std::string command;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& text = i == 0 && words[i] == "disktune" ? program_word() : words[i];
    const bool assignment_like = i == 0 && text.find('=') != std::string::npos;
    std::string word = shell_word(text);
    if (assignment_like && word.front() != '\'') word = "'" + word + "'";
    command += (i == 0 ? "" : " ") + word;
  }
  return command;
}

std::string quoted_command(const std::vector<std::string>& words) {
  const std::string command = shell_command(words);
  return command.find('\'') == std::string::npos ? "'" + command + "'" : "\"" + command + "\"";
}

}  // namespace disktune::tuner
