// SPDX-License-Identifier: GPL-2.0-or-later
// Numbers JSON cannot hold: infinities and NaN, found in a report read and kept out of one written.
#pragma once

#include <boost/json/value.hpp>

#include <optional>
#include <string>

namespace disktune::results {

/// The path ("winner.unseparated[0].trial_id") of the first number in `value` that is not
/// finite, in document order; nullopt when every number is finite. Boost.JSON 1.81 reads a
/// literal beyond a double's range (1e999) as an infinity, which JSON cannot hold (RFC 8259
/// section 6) and a browser's JSON.parse refuses: a report holding one is refused as input.
std::optional<std::string> non_finite_number(const boost::json::value& value);

/// non_finite_number over an object's members, the path without its leading '.' ("speedup").
std::optional<std::string> non_finite_member(const boost::json::object& object);

/// The reason an input report holding a non-finite number is refused: "winner.speedup: a
/// number that reads as infinity (beyond a double's range, or an exponent Boost.JSON cannot
/// take: JSON has no infinity)": Boost 1.81 reads 0e999999, a zero, as infinity too; nullopt when it holds none
/// (non_finite_member). Every report reader gives this one message.
std::optional<std::string> non_finite_refusal(const boost::json::object& report);

/// `value` with every non-finite number replaced by null (as pretty_json writes them), for
/// text a JSON parser must read: Boost.JSON's serialize writes them as Infinity and NaN.
boost::json::value finite_only(boost::json::value value);

}  // namespace disktune::results
