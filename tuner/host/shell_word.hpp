// SPDX-License-Identifier: GPL-2.0-or-later
// Commands printed for a person to paste: each word as a POSIX shell reads it back.
#pragma once

#include <string>
#include <vector>

namespace disktune::tuner {

/// `word` as a POSIX shell reads it back (sh(1) "Quoting"): as it is when it holds only
/// letters, digits and `/._-+:=@,%` (nothing the shell splits, expands or globs), else in
/// single quotes, each `'` written as `'\''`; "" becomes "''". So a printed command names the
/// same paths when pasted ("'/tmp/jd x/j'"). Errors: none.
std::string shell_word(const std::string& word);

/// A relative path as a command's operand or option value: "./-r.json" for "-r.json" (the
/// command would read it as an option, and "--" would not help an option's value); any other
/// path as it is. Errors: none.
std::string path_word(const std::string& path);

/// `words` as one command a person can paste: each through shell_word, joined by spaces, the
/// first word quoted too when it holds '=' (the shell reads "x=y/disktune tune ..." as an
/// assignment). Errors: none.
std::string shell_command(const std::vector<std::string>& words);

/// shell_command(words) for the middle of a sentence: in single quotes when it holds none
/// ('disktune restore /dev/sdb'), else in double quotes ("disktune restore '/tmp/j x'"), so the
/// quotes that delimit it never read as the command's own. Errors: none.
std::string quoted_command(const std::vector<std::string>& words);

}  // namespace disktune::tuner
