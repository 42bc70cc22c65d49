// SPDX-License-Identifier: GPL-2.0-or-later
// Commands printed for a person to paste: each word as a POSIX shell reads it back.
#pragma once

#include <string>

namespace disktune::tuner {

/// `word` as a POSIX shell reads it back (sh(1) "Quoting"): as it is when it holds only
/// letters, digits and `/._-+:=@,%` (nothing the shell splits, expands or globs), else in
/// single quotes, each `'` written as `'\''`; "" becomes "''". So a printed command names the
/// same paths when pasted ("'/tmp/jd x/j'"). Errors: none.
std::string shell_word(const std::string& word);

}  // namespace disktune::tuner
