// SPDX-License-Identifier: GPL-2.0-or-later
// probe::Error formatting and the "unsupported here" classification.
#include "probe/core/error.hpp"

namespace disktune::probe {

bool Error::is_unsupported() const {
  // Through default_error_condition, so that other categories (SCSI sense refusals,
  // probe/linux/ata_passthrough.hpp) can say "unsupported" too.
  const auto condition = code.default_error_condition();
  if (condition.category() != std::generic_category()) return false;
  const int value = condition.value();
  return value == ENOTTY || value == EINVAL || value == EOPNOTSUPP || value == ENOSYS;
}

std::string Error::reason() const {
  return path.empty() ? op : op + " on " + path;
}

std::string Error::input_message() const {
  return code == std::errc::invalid_argument ? reason() : message();
}

std::string Error::message() const {
  return reason() + ": " + code.message();
}

std::ostream& operator<<(std::ostream& out, const Error& error) {
  return out << error.message();
}

void throw_exception_from_error(const Error& error, const boost::source_location&) {
  throw std::system_error(error.code, error.message());
}

Error errno_error(int errnum, std::string op, std::string path) {
  return Error{std::error_code(errnum, std::generic_category()), std::move(op), std::move(path)};
}

}  // namespace disktune::probe
