// SPDX-License-Identifier: GPL-2.0-or-later
// pretty_json: indented, stable-order text of a Boost.JSON value (Boost 1.81 has no pretty printer).
#pragma once

#include <boost/json/value.hpp>

#include <string>

namespace disktune::results {

/// `value` as JSON text: 2-space indent, one member or element per line, except that arrays
/// of scalars stay on one line ("[0, 1, 2]"); object keys in insertion order; "[]" / "{}" for
/// empty containers; newline at the end. Strings are escaped
/// by Boost.JSON's serializer; doubles use the shortest text that reads back to the same
/// value, with ".0" added to whole numbers so they stay doubles ("4.0", "3.83"); non-finite
/// doubles (not representable in JSON) become null. Modelled on the pretty_print example
/// in the Boost.JSON documentation.
std::string pretty_json(const boost::json::value& value);

}  // namespace disktune::results
