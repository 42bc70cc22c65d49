// SPDX-License-Identifier: GPL-2.0-or-later
// non_finite_number and finite_only (json_numbers.hpp).
#include "results/json_numbers.hpp"

#include <cmath>

namespace disktune::results {
namespace json = boost::json;

std::optional<std::string> non_finite_number(const json::value& value) {
  if (value.is_double()) return std::isfinite(value.get_double()) ? std::nullopt : std::optional<std::string>("");
  if (value.is_array()) {
    const auto& array = value.get_array();
    for (std::size_t i = 0; i < array.size(); ++i)
      if (auto path = non_finite_number(array[i])) return "[" + std::to_string(i) + "]" + *path;
  }
  if (value.is_object())
    for (const auto& [key, member] : value.get_object())
      if (auto path = non_finite_number(member)) return "." + std::string(key) + *path;
  return std::nullopt;
}

std::optional<std::string> non_finite_member(const json::object& object) {
  for (const auto& [key, member] : object)
    if (auto path = non_finite_number(member)) return std::string(key) + *path;
  return std::nullopt;
}

std::optional<std::string> non_finite_refusal(const json::object& report) {
  const auto path = non_finite_member(report);
  if (!path) return std::nullopt;
  return *path + ": a number that reads as infinity (beyond a double's range, or an exponent Boost.JSON cannot take: JSON has no infinity)";
}

json::value finite_only(json::value value) {
  if (value.is_double() && !std::isfinite(value.get_double())) return nullptr;
  if (value.is_array())
    for (auto& element : value.get_array()) element = finite_only(std::move(element));
  if (value.is_object())
    for (auto& member : value.get_object()) member.value() = finite_only(std::move(member.value()));
  return value;
}

}  // namespace disktune::results
