// SPDX-License-Identifier: GPL-2.0-or-later
// The trial child's report as JSON text (the watchdog pipe's payload), both ways, in the one codec.
#include "tuner/trial/trial_wire.hpp"

#include "results/codec/trial_codec.hpp"

#include <boost/json.hpp>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

template <class T>
std::optional<T> parse_as(const std::string& payload) {
  boost::system::error_code ec;
  const auto value = json::parse(payload, ec);
  if (ec) return std::nullopt;
  auto decoded = results::decode<T>(value);
  if (!decoded) return std::nullopt;
  return std::move(*decoded);
}

}  // namespace

ChildReport ok_report() {
  ChildReport r;
  r.trial.status = strategies::TrialStatus::ok;
  return r;
}

std::string serialize(const ChildReport& report) { return json::serialize(json::value_from(report)); }

std::optional<ChildReport> deserialize(const std::string& payload) { return parse_as<ChildReport>(payload); }

}  // namespace disktune::tuner
