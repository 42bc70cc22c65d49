// SPDX-License-Identifier: GPL-2.0-or-later
// A record's fields named in words (json_fields.hpp).
#include "results/codec/json_fields.hpp"

#include <boost/json/array.hpp>

#include <cmath>
#include <stdexcept>

namespace disktune::results {
namespace {

namespace json = boost::json;

[[noreturn]] void refuse(std::string_view key, const std::string& why) {
  throw std::invalid_argument(std::string(key) + " " + why);
}

double figure_of(const json::value& value, std::string_view key) {
  if (!value.is_number()) refuse(key, "is not a number");
  const double figure = value.to_number<double>();
  if (!(figure >= 0.0 && figure <= kMostFigure)) refuse(key, "out of range (0 to 1e12)");
  return figure;
}

}  // namespace

const json::array& array_field(const json::object& o, std::string_view key, std::string_view of) {
  const auto& value = required_field(o, key);
  if (!value.is_array()) refuse(key, "is not an array of " + std::string(of));
  return value.get_array();
}

const json::value& required_field(const json::object& o, std::string_view key) {
  const auto* value = o.if_contains(key);
  if (!value) throw MissingField(key);
  return *value;
}

const json::object& object_value(const json::value& value, std::string_view what) {
  if (!value.is_object()) refuse(what, "is not an object");
  return value.get_object();
}

const json::object& object_field(const json::object& o, std::string_view key) {
  return object_value(required_field(o, key), key);
}

double figure_field(const json::object& o, std::string_view key) { return figure_of(required_field(o, key), key); }

std::vector<double> figures_field(const json::object& o, std::string_view key) {
  std::vector<double> figures;
  for (const auto& value : array_field(o, key, "numbers")) figures.push_back(figure_of(value, key));
  return figures;
}

std::uint64_t count_of(const json::value& value, std::string_view key, std::uint64_t most) {
  if (value.is_int64()) {
    if (value.get_int64() < 0 || static_cast<std::uint64_t>(value.get_int64()) > most)
      refuse(key, "out of range (0 to " + std::to_string(most) + ")");
    return static_cast<std::uint64_t>(value.get_int64());
  }
  if (value.is_uint64()) {
    if (value.get_uint64() > most) refuse(key, "out of range (0 to " + std::to_string(most) + ")");
    return value.get_uint64();
  }
  if (value.is_double() && value.get_double() == std::floor(value.get_double()) && value.get_double() >= 0.0 &&
      value.get_double() <= static_cast<double>(most))
    return static_cast<std::uint64_t>(value.get_double());  // 2.0 as written by another encoder
  refuse(key, value.is_double() ? "is not a whole number in range (0 to " + std::to_string(most) + ")"
                                : std::string("is not a whole number"));
}

bool flag_field(const json::object& o, std::string_view key) {
  const auto& value = required_field(o, key);
  if (!value.is_bool()) refuse(key, "is not true or false");
  return value.get_bool();
}

std::string text_field(const json::object& o, std::string_view key) {
  const auto& value = required_field(o, key);
  if (!value.is_string()) refuse(key, "is not a string");
  return std::string(value.get_string());
}

std::vector<std::string> texts_field(const json::object& o, std::string_view key) {
  std::vector<std::string> texts;
  for (const auto& value : array_field(o, key, "strings")) {
    if (!value.is_string()) refuse(key, "is not an array of strings");
    texts.emplace_back(value.get_string());
  }
  return texts;
}

}  // namespace disktune::results
