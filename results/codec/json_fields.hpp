// SPDX-License-Identifier: GPL-2.0-or-later
// Reading a record's fields: each named in words when it is of the wrong type or out of range.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::results {

/// A required field is missing: what() is "KEY is missing". A std::out_of_range, as Boost.JSON's
/// object::at throws, so a caller that catches those (results::decode) still does.
class MissingField : public std::out_of_range {
 public:
  explicit MissingField(std::string_view key) : std::out_of_range(std::string(key) + " is missing") {}
};

/// Field `key` of `o`. Errors: MissingField.
const boost::json::value& required_field(const boost::json::object& o, std::string_view key);

/// `value` (named `what` in errors: a key, or "guard") as an object. Errors: std::invalid_argument
/// "WHAT is not an object".
const boost::json::object& object_value(const boost::json::value& value, std::string_view what);

/// Field `key` of `o` as an object. Errors: MissingField; std::invalid_argument "KEY is not an object".
const boost::json::object& object_field(const boost::json::object& o, std::string_view key);

/// The largest figure a record may hold (a score, seconds, a percentage): no disk reads 10^12
/// MiB/s or IOPS, and no run lasts 10^12 s. A figure past it is an edited record, not a measurement.
inline constexpr double kMostFigure = 1e12;

/// Field `key` of `o` as a figure: a finite number in [0, kMostFigure] (every score is higher
/// for better and never negative: bench/objective.hpp score_of). Errors: MissingField when it
/// is missing; std::invalid_argument "KEY is not a number" or "KEY
/// out of range (...)" otherwise.
double figure_field(const boost::json::object& o, std::string_view key);

/// Field `key` of `o` as an array of figures (figure_field's rules for each). Errors as there:
/// "KEY is not an array of numbers", "KEY out of range (...)".
std::vector<double> figures_field(const boost::json::object& o, std::string_view key);

/// A whole number in [0, most] held by `value`, field `key`. Errors: std::invalid_argument "KEY is
/// not a whole number" (a string, a fraction), "KEY out of range (0 to MOST)".
std::uint64_t count_of(const boost::json::value& value, std::string_view key, std::uint64_t most);

/// Field `key` of `o` as a whole number of type T, in [0, T's maximum] (count_of).
template <class T>
T count_field(const boost::json::object& o, std::string_view key) {
  return static_cast<T>(count_of(required_field(o, key), key, static_cast<std::uint64_t>(std::numeric_limits<T>::max())));
}

/// Field `key` of `o` as an array (of `of`, for the error). Errors: MissingField; std::invalid_argument "KEY is not an array of OF".
const boost::json::array& array_field(const boost::json::object& o, std::string_view key, std::string_view of);

/// Field `key` of `o` as an array of whole numbers of type T (count_of's rules for each).
template <class T>
std::vector<T> counts_field(const boost::json::object& o, std::string_view key) {
  std::vector<T> counts;
  for (const auto& value : array_field(o, key, "whole numbers"))
    counts.push_back(static_cast<T>(count_of(value, key, static_cast<std::uint64_t>(std::numeric_limits<T>::max()))));
  return counts;
}

/// Field `key` of `o` as true or false. Errors: std::invalid_argument "KEY is not true or false".
bool flag_field(const boost::json::object& o, std::string_view key);

/// Field `key` of `o` as a string. Errors: std::invalid_argument "KEY is not a string".
std::string text_field(const boost::json::object& o, std::string_view key);

/// Field `key` of `o` as an array of strings. Errors: "KEY is not an array of strings".
std::vector<std::string> texts_field(const boost::json::object& o, std::string_view key);

}  // namespace disktune::results
