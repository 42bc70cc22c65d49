// SPDX-License-Identifier: GPL-2.0-or-later
// Numeric command-line values and their accepted ranges (README "Options"). A value outside
// its range is a usage error that states the range, never clamped. The upper bounds keep every
// derived time limit and sample count finite and exact (1e10 s overflows a nanosecond clock).
#pragma once

#include <cstdint>
#include <string>

namespace disktune::tuner {

/// A closed interval [min, max] an option's value must lie in, in the option's own unit.
struct Range {
  double min;
  double max;
};
inline constexpr Range kRepeats{1, 1000};             ///< --repeats, --max-repeats: samples
inline constexpr Range kDurationS{0.01, 3600};        ///< --duration: seconds per sample
inline constexpr Range kTimeoutS{0.1, 86400};         ///< --trial-timeout, --stall-timeout: seconds
inline constexpr Range kTimeBudgetS{0.1, 2592000};    ///< --time-budget: seconds (30 days)
inline constexpr Range kMaxTrials{0, 1000000};        ///< --max-trials: trials (0: the baseline only)
inline constexpr Range kNoiseRepeats{1, 10};          ///< --noise-repeats: baseline trials
inline constexpr Range kSeeds{1, 10000};              ///< evaluate --seeds: seeds per drive
inline constexpr Range kDrives{1, 100000};            ///< evaluate --drives: drives
inline constexpr Range kPercent{0, 100};              ///< --tolerance: percent

/// `text` as a whole number in `range` (decimal digits only: no sign, fraction or exponent).
/// Throws UsageError "--NAME must be a whole number from MIN to MAX, not 'TEXT'" otherwise.
long long whole_number(const char* name, const std::string& text, Range range);

/// `text` as a finite number in `range` (inf, nan and 1e300 are refused); `kind` names what
/// it is in the error ("a percentage"). Throws UsageError "--NAME must be KIND from MIN to MAX".
double bounded_number(const char* name, const char* kind, const std::string& text, Range range);

/// bounded_number for a number of seconds.
double seconds(const char* name, const std::string& text, Range range);

/// --seed: a whole number from 0 to 4294967295. Seeds are stored in the JSON report, and 32
/// bits keep them exact in every JSON reader. Throws UsageError naming the range otherwise.
std::uint64_t parse_seed(const std::string& text);

}  // namespace disktune::tuner
