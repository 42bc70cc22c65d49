// SPDX-License-Identifier: GPL-2.0-or-later
// The one JSON codec (Boost.JSON tag_invoke) of each trial datum: report, journal and child wire share it.
#pragma once

#include "probe/core/error.hpp"
#include "strategies/baseline.hpp"
#include "strategies/trial.hpp"

#include <boost/json/value.hpp>
#include <boost/json/value_from.hpp>
#include <boost/json/value_to.hpp>

#include <exception>
#include <stdexcept>
#include <string>
#include <system_error>

// tag_invoke overloads live in the types' namespace, where Boost.JSON's value_from and
// value_to find them (argument-dependent lookup).
namespace disktune::strategies {

/// TrialResult as a JSON object, keys in this order: id (0 = baseline), settings
/// (results::settings_to_json), status (to_string), samples [MiB/s], median [MiB/s; 0
/// when not ok], spread_pct [%], ci_low, ci_high [MiB/s], ci_coverage [0..1],
/// outliers [indices into samples], warmup [MiB/s; 0 = none], sampling_stop, measured_s
/// [s; virtual when simulated], quick, detail, kernel_log [lines], then guard only when the
/// trial has guard figures ({samples, median, ci_low, ci_high}: the guard objective's
/// scores; absent in a record without them, which decodes as nullopt). The report's trials and
/// confirmation results, the journal's result records and the child wire all use it.
/// Non-finite numbers are kept in the value; boost::json::serialize writes them as NaN or
/// Infinity, which no JSON parser (Boost.JSON's included) reads back: such text is refused.
void tag_invoke(boost::json::value_from_tag, boost::json::value& out, const TrialResult& trial);
/// The inverse: every key above but guard is required; others are ignored (a journal record's type).
/// Throws std::out_of_range for a missing key, std::invalid_argument or std::system_error for
/// a value of the wrong kind, an unknown status or setting (results::decode catches them).
TrialResult tag_invoke(boost::json::value_to_tag<TrialResult>, const boost::json::value& in);

/// TrialMeasurement (the child-to-parent wire): the trial's keys, then cached_mib_s (the
/// cached-read median [MiB/s]) and data_crc32 (the data checksum, an unsigned integer).
void tag_invoke(boost::json::value_from_tag, boost::json::value& out, const TrialMeasurement& measured);
/// The inverse; throws as the TrialResult one does.
TrialMeasurement tag_invoke(boost::json::value_to_tag<TrialMeasurement>, const boost::json::value& in);

/// Baseline (the journal's baseline result record): the TrialMeasurement keys, then
/// aa_samples (the baseline trials' medians [MiB/s]), noise_floor_pct [%], baseline_measured_s
/// (measured_s [s]; absent in older journals: it decodes as trial.measured_s) and all_samples
/// (when decided; absent: nullopt).
/// The report shows a part of it under other names (results/json_report.hpp).
void tag_invoke(boost::json::value_from_tag, boost::json::value& out, const Baseline& baseline);
/// The inverse; throws as the TrialResult one does.
Baseline tag_invoke(boost::json::value_to_tag<Baseline>, const boost::json::value& in);

}  // namespace disktune::strategies

namespace disktune::results {

/// Text of a decoding failure caused by a missing key.
inline constexpr const char* kMissingField = "a field is missing (written by another disktune version?)";

/// boost::json::value_to<T>(in) as a value: errc::invalid_argument with op kMissingField when
/// a key is missing, else the decoder's message (e.g. "unknown setting 'x'"); path empty.
template <class T>
probe::Result<T> decode(const boost::json::value& in) {
  const auto refused = [](std::string why) {
    return probe::Error{std::make_error_code(std::errc::invalid_argument), std::move(why), ""};
  };
  try {
    return boost::json::value_to<T>(in);
  } catch (const std::out_of_range&) {
    return refused(kMissingField);
  } catch (const std::exception& e) {
    return refused(e.what());
  }
}

}  // namespace disktune::results
