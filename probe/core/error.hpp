// SPDX-License-Identifier: GPL-2.0-or-later
// probe::Error and Result: expected failures as values, with errno, operation and path.
#pragma once

#include <boost/system/result.hpp>

#include <cerrno>
#include <ostream>
#include <string>
#include <system_error>

namespace disktune::probe {

/// An expected failure of a device or parser operation.
/// `code` is the errno-style cause (std::generic_category for syscalls),
/// `op` names the call or step ("ioctl(HDIO_SET_DMA 1)", "parse hdparm -i line 7"),
/// `path` names the device or file it was done on.
/// Printed as "<op> on <path>: <message>", so a syscall error names its operation, path and errno.
struct Error {
  std::error_code code;
  std::string op;
  std::string path;

  /// True for the errors that mean "this driver does not offer this knob":
  /// ENOTTY, EINVAL, EOPNOTSUPP, ENOSYS (compare smartmontools' is_syscall_unsup).
  [[nodiscard]] bool is_unsupported() const;
  /// "<op> on <path>: <strerror>" (path part left out when empty).
  [[nodiscard]] std::string message() const;
  /// "<op> on <path>" without the strerror: for a refusal whose op states the reason (a
  /// parser's errc::invalid_argument), where "Invalid argument" after it adds nothing.
  [[nodiscard]] std::string reason() const;
  /// For an error about an input (a file, an argument): reason() for errc::invalid_argument,
  /// whose op states why, message() for any other code (ENOENT's "No such file" says why).
  [[nodiscard]] std::string input_message() const;
};

std::ostream& operator<<(std::ostream& out, const Error& error);

/// Build an Error from an errno value.
Error errno_error(int errnum, std::string op, std::string path);

/// Called by Result<T>::value() on an error (found by ADL, as Boost.System requires):
/// throws std::system_error carrying the code and message().
[[noreturn]] void throw_exception_from_error(const Error& error, const boost::source_location& location);

/// Result type used across probe/ and bench/.
template <class T>
using Result = boost::system::result<T, Error>;

}  // namespace disktune::probe
