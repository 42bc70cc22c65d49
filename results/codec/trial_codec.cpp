// SPDX-License-Identifier: GPL-2.0-or-later
// TrialResult, TrialMeasurement and Baseline <-> JSON objects (Boost.JSON tag_invoke).
#include "results/codec/trial_codec.hpp"

#include "results/codec/json_fields.hpp"
#include "results/codec/settings_codec.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace disktune::strategies {
namespace {

namespace json = boost::json;

template <class T>
json::array array_of(const std::vector<T>& values) {
  json::array array;
  for (const auto& value : values) array.emplace_back(value);
  return array;
}

using results::count_field;
using results::counts_field;
using results::figure_field;
using results::figures_field;
using results::flag_field;
using results::text_field;

// A probe::Error as the exception results::decode and the journal turn into its message.
[[noreturn]] void refuse(const probe::Error& error) { throw std::invalid_argument(error.message()); }

TrialStatus status_of(const json::object& o) {
  const std::string name = text_field(o, "status");
  const auto status = trial_status_from_name(name);
  if (!status) throw std::invalid_argument("status '" + name + "' is not a trial status");
  return *status;
}

// A score field by its name, or by its schema-1 name (NAME_mib_s: every journal and report
// before objectives measured seq-read, whose score is MiB/s), so those still decode.
double score_field(const json::object& o, std::string_view name) {
  if (o.contains(name)) return figure_field(o, name);
  if (const std::string old = std::string(name) + "_mib_s"; o.contains(old)) return figure_field(o, old);
  throw results::MissingField(name);
}

// A trial's figures fit its samples, as summarize_samples and the trial child write them: an ok
// trial without samples has none (an adversary's edit made one read 500 MB/s from no sample),
// an interval is not inverted, and the samples' times fit within the trial's measured_s (a
// baseline's 10^11 s samples in 1 s announced a round of 10^12 s).
void check_figures(const TrialResult& trial) {
  if (trial.samples.empty() && !trial.latency && (trial.median > 0.0 || trial.ci_high > 0.0))
    throw std::invalid_argument("median out of range (a figure without samples)");
  if (trial.ci_low > trial.ci_high && trial.ci_high > 0.0) throw std::invalid_argument("ci_low out of range (above ci_high)");
  double sampled_s = 0.0;
  for (const double s : trial.sample_seconds) sampled_s += s;
  if (sampled_s > trial.measured_s * (1.0 + 1e-9) + 1e-9)
    throw std::invalid_argument("sample_seconds out of range (longer than measured_s)");
}

// A trial's outliers: indices into its `count` samples.
std::vector<std::size_t> outliers_of(const json::object& o, std::size_t count) {
  auto outliers = counts_field<std::size_t>(o, "outliers");
  for (const auto index : outliers)
    if (index >= count) throw std::invalid_argument("outliers out of range (an index past the samples)");
  return outliers;
}

json::object guard_json(const GuardFigures& guard) {
  return {{"samples", array_of(guard.samples)},
          {"median", guard.median},
          {"ci_low", guard.ci_low},
          {"ci_high", guard.ci_high},
          {"measured_s", guard.measured_s}};
}

GuardFigures guard_from(const json::value& in) {
  const json::object& o = results::object_value(in, "guard");
  GuardFigures guard;
  guard.samples = figures_field(o, "samples");
  guard.median = figure_field(o, "median");
  guard.ci_low = figure_field(o, "ci_low");
  guard.ci_high = figure_field(o, "ci_high");
  if (o.contains("measured_s")) guard.measured_s = figure_field(o, "measured_s");  // absent before
  return guard;
}

// {"fraction": 0.99, "bins": [[ns, count], ...]}: fio's histogram buckets, pooled.
json::object latency_json(const bench::LatencyPool& pool) {
  json::array bins;
  for (const auto& bin : pool.bins) bins.emplace_back(json::array{bin.ns, bin.count});
  return {{"fraction", pool.fraction}, {"bins", std::move(bins)}};
}

// Bounds of a pooled histogram as disktune writes one: fio has 1 856 buckets (FIO_IO_U_PLAT_NR),
// a latency beyond a day is no read's, and 2^40 completions are centuries of reads. A record
// past them is not one disktune wrote: refused, never pooled (it would cost time, not a figure).
constexpr std::size_t kMostLatencyBins = 4096;
constexpr double kMostLatencyNs = 86400e9;
constexpr std::uint64_t kMostCompletions = std::uint64_t{1} << 40;

bench::LatencyPool latency_from(const json::value& in) {
  const json::object& o = results::object_value(in, "latency");
  bench::LatencyPool pool;
  pool.fraction = figure_field(o, "fraction");
  if (!(pool.fraction > 0.0 && pool.fraction < 1.0)) throw std::invalid_argument("latency fraction out of (0, 1)");
  const auto& array = results::array_field(o, "bins", "[ns, count] pairs");
  if (array.size() > kMostLatencyBins) throw std::invalid_argument("more latency bins than fio has buckets");
  std::vector<bench::LatencyBin> bins;
  std::uint64_t total = 0;
  for (const auto& bin : array) {
    if (!bin.is_array() || bin.get_array().size() != 2 || !bin.get_array()[0].is_number())
      throw std::invalid_argument("a latency bin is not [ns, count]");
    const auto& pair = bin.get_array();
    const double ns = pair[0].to_number<double>();
    if (!(ns >= 0.0 && ns <= kMostLatencyNs)) throw std::invalid_argument("a latency bin's ns is out of [0, a day]");
    const auto count = results::count_of(pair[1], "a latency bin's count", kMostCompletions);
    total += std::min(count, kMostCompletions + 1);
    if (total > kMostCompletions) throw std::invalid_argument("a latency histogram of more than 2^40 completions");
    bins.push_back({ns, count});
  }
  bench::add_bins(pool, bins);
  return pool;
}

}  // namespace

void tag_invoke(json::value_from_tag, json::value& out, const TrialResult& trial) {
  out = json::object{{"id", trial.id},
                     {"settings", results::settings_to_json(trial.settings)},
                     {"status", to_string(trial.status)},
                     {"samples", array_of(trial.samples)},
                     {"median", trial.median},
                     {"spread_pct", trial.spread_pct},
                     {"ci_low", trial.ci_low},
                     {"ci_high", trial.ci_high},
                     {"ci_coverage", trial.ci_coverage},
                     {"outliers", array_of(trial.outliers)},
                     {"warmup", trial.warmup},
                     {"sampling_stop", trial.sampling_stop},
                     {"measured_s", trial.measured_s},
                     {"quick", trial.quick},
                     {"detail", trial.detail},
                     {"kernel_log", array_of(trial.kernel_log)}};
  if (trial.guard) out.as_object()["guard"] = guard_json(*trial.guard);
  // Only when recorded: a record from before the fields re-encodes as it was.
  if (!trial.sample_seconds.empty()) out.as_object()["sample_seconds"] = array_of(trial.sample_seconds);
  if (!trial.sample_completions.empty()) out.as_object()["sample_completions"] = array_of(trial.sample_completions);
  if (trial.latency) out.as_object()["latency"] = latency_json(*trial.latency);
}

TrialResult tag_invoke(json::value_to_tag<TrialResult>, const json::value& in) {
  const json::object& o = results::object_value(in, "a trial");
  TrialResult trial;
  trial.id = count_field<int>(o, "id");
  auto settings = results::settings_from_json(results::required_field(o, "settings"));
  if (!settings) refuse(settings.error());
  trial.settings = std::move(*settings);
  trial.status = status_of(o);
  trial.samples = figures_field(o, "samples");
  trial.median = score_field(o, "median");
  trial.spread_pct = figure_field(o, "spread_pct");
  trial.ci_low = score_field(o, "ci_low");
  trial.ci_high = score_field(o, "ci_high");
  trial.ci_coverage = figure_field(o, "ci_coverage");
  if (trial.ci_coverage > 1.0) throw std::invalid_argument("ci_coverage out of range (0 to 1)");
  trial.outliers = outliers_of(o, trial.samples.size());
  trial.warmup = score_field(o, "warmup");
  // Both absent before they were recorded.
  if (o.contains("sample_seconds")) trial.sample_seconds = figures_field(o, "sample_seconds");
  if (o.contains("sample_completions"))
    trial.sample_completions = counts_field<std::uint64_t>(o, "sample_completions");
  trial.sampling_stop = text_field(o, "sampling_stop");
  trial.measured_s = figure_field(o, "measured_s");
  trial.quick = flag_field(o, "quick");
  trial.detail = text_field(o, "detail");
  trial.kernel_log = results::texts_field(o, "kernel_log");
  check_figures(trial);
  if (const auto* guard = o.if_contains("guard"); guard && !guard->is_null()) trial.guard = guard_from(*guard);
  if (const auto* latency = o.if_contains("latency")) trial.latency = latency_from(*latency);
  return trial;
}

void tag_invoke(json::value_from_tag, json::value& out, const TrialMeasurement& measured) {
  json::object o = json::value_from(measured.trial).as_object();
  o["cached_mib_s"] = measured.cached_median_mib_s;
  o["data_crc32"] = measured.data_crc32;
  out = std::move(o);
}

TrialMeasurement tag_invoke(json::value_to_tag<TrialMeasurement>, const json::value& in) {
  const json::object& o = in.as_object();
  return {json::value_to<TrialResult>(in), figure_field(o, "cached_mib_s"),
          count_field<std::uint32_t>(o, "data_crc32")};
}

void tag_invoke(json::value_from_tag, json::value& out, const Baseline& baseline) {
  json::object o = json::value_from(static_cast<const TrialMeasurement&>(baseline)).as_object();
  o["aa_samples"] = array_of(baseline.aa_medians);
  o["noise_floor_pct"] = baseline.noise_floor_pct;
  o["baseline_measured_s"] = baseline.measured_s;
  if (baseline.all_samples) o["all_samples"] = *baseline.all_samples;
  out = std::move(o);
}

Baseline tag_invoke(json::value_to_tag<Baseline>, const json::value& in) {
  const json::object& o = in.as_object();
  Baseline baseline;
  static_cast<TrialMeasurement&>(baseline) = json::value_to<TrialMeasurement>(in);
  baseline.aa_medians = figures_field(o, "aa_samples");
  baseline.noise_floor_pct = figure_field(o, "noise_floor_pct");
  const bool journaled = o.contains("baseline_measured_s");  // absent before it was journaled
  baseline.measured_s = journaled ? figure_field(o, "baseline_measured_s") : baseline.trial.measured_s;
  if (o.contains("all_samples")) baseline.all_samples = flag_field(o, "all_samples");
  return baseline;
}

}  // namespace disktune::strategies
