// SPDX-License-Identifier: GPL-2.0-or-later
// A small recursive pretty printer over boost::json::value.
#include "results/pretty_json.hpp"

#include <boost/json/serialize.hpp>

#include <charconv>
#include <cmath>

namespace disktune::results {
namespace {

namespace json = boost::json;

std::string double_text(double number) {
  if (!std::isfinite(number)) return "null";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

void print(std::string& out, const json::value& value, std::size_t depth);

void newline(std::string& out, std::size_t depth) {
  out += '\n';
  out.append(2 * depth, ' ');
}

void print_object(std::string& out, const json::object& object, std::size_t depth) {
  if (object.empty()) {
    out += "{}";
    return;
  }
  out += '{';
  bool first = true;
  for (const auto& member : object) {
    if (!first) out += ',';
    first = false;
    newline(out, depth + 1);
    out += json::serialize(json::string(member.key())) + ": ";
    print(out, member.value(), depth + 1);
  }
  newline(out, depth);
  out += '}';
}

bool all_scalars(const json::array& array) {
  for (const auto& element : array)
    if (element.is_structured()) return false;
  return true;
}

// Lists of numbers or strings (samples, mode lists) stay on one line: "[0, 1, 2]".
void print_inline(std::string& out, const json::array& array) {
  out += '[';
  for (std::size_t i = 0; i < array.size(); ++i) {
    if (i != 0) out += ", ";
    print(out, array[i], 0);
  }
  out += ']';
}

void print_array(std::string& out, const json::array& array, std::size_t depth) {
  if (all_scalars(array)) {
    print_inline(out, array);
    return;
  }
  out += '[';
  bool first = true;
  for (const auto& element : array) {
    if (!first) out += ',';
    first = false;
    newline(out, depth + 1);
    print(out, element, depth + 1);
  }
  newline(out, depth);
  out += ']';
}

void print(std::string& out, const json::value& value, std::size_t depth) {
  switch (value.kind()) {
    case json::kind::object: print_object(out, value.get_object(), depth); return;
    case json::kind::array: print_array(out, value.get_array(), depth); return;
    case json::kind::double_: out += double_text(value.get_double()); return;
    default: out += json::serialize(value); return;
  }
}

}  // namespace

std::string pretty_json(const json::value& value) {
  std::string out;
  print(out, value, 0);
  out += '\n';
  return out;
}

}  // namespace disktune::results
