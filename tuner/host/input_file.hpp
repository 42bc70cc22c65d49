// SPDX-License-Identifier: GPL-2.0-or-later
// Input files (journal, sim profile, identify capture): regular files, checked before reading.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace disktune::tuner {

/// Largest input file disktune reads [bytes]: a journal of a long run is a few MiB; captures
/// and profiles are a few KiB.
inline constexpr std::uint64_t kMaxInputBytes = 256ull << 20;

/// Check that `path`, given with `option` ("--from", "--sim-profile", "--journal", "DEVICE
/// sim:FILE"), names a regular file (symlinks followed) of at most kMaxInputBytes, before it
/// is opened: a FIFO would block the open or the read for ever, a device such as /dev/zero
/// never ends, a directory is no file. Throws RunError(exit 2) naming the option, the path
/// and the reason ("is a FIFO", "No such file or directory", ...).
void check_input_file(const std::string& option, const std::string& path);

/// The same check on a descriptor already open (fstat), for files opened before they can be
/// checked by name (a journal is opened with O_CREAT): race-free. Throws as check_input_file.
void check_input_fd(int fd, const std::string& option, const std::string& path);

/// The whole content of the regular file at `path` (symlinks followed) of at most
/// kMaxInputBytes; nullopt when it is absent, cannot be opened or read, or is no regular file.
/// Opened O_NONBLOCK and checked with fstat before the first read, so a FIFO or a device
/// planted at a journal or report path can never block or flood the caller. For files read
/// without a refusal of their own (a journal peeked at, an installed report); checked inputs
/// go through check_input_file first.
std::optional<std::string> read_whole_file(const std::string& path);

/// Check the fio job file at `path` of the objective `name` ("fio:FILE" as given to
/// --objective): a regular file, not under /proc, at most kMaxInputBytes, readable (its
/// first byte read; opened O_NONBLOCK, so a FIFO cannot block). Throws RunError(exit 2)
/// naming "--objective", `name` and the reason (strerror or the file's kind).
void check_job_file(const std::string& name, const std::string& path);

}  // namespace disktune::tuner
