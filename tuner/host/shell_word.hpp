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

/// The program as the user ran it (argv[0]: "build/disktune" is not `disktune` outside PATH), set
/// once by main (set_program_word); "disktune" until then and when argv[0] is empty.
const std::string& program_word();
void set_program_word(const std::string& argv0);

/// `words` as one command a person can paste: each through shell_word, joined by spaces, the
/// first word quoted too when it holds '=' (the shell reads "x=y/disktune tune ..." as an
/// assignment). A first word "disktune" stands for this program and is printed as
/// program_word(), so every command disktune prints runs the binary that printed it. Errors: none.
std::string shell_command(const std::vector<std::string>& words);

/// shell_command(words) for the middle of a sentence: in single quotes when it holds none
/// ('disktune restore /dev/sdb'), else in double quotes ("disktune restore '/tmp/j x'"), so the
/// quotes that delimit it never read as the command's own. Errors: none.
std::string quoted_command(const std::vector<std::string>& words);

}  // namespace disktune::tuner
