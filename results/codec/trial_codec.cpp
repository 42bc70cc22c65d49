// SPDX-License-Identifier: GPL-2.0-or-later
// TrialResult, TrialMeasurement and Baseline <-> JSON objects (Boost.JSON tag_invoke).
#include "results/codec/trial_codec.hpp"

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

template <class T>
std::vector<T> numbers(const json::value& in) {
  std::vector<T> out;
  for (const auto& x : in.as_array()) out.push_back(x.to_number<T>());
  return out;
}

std::string text(const json::object& o, const char* key) { return std::string(o.at(key).as_string()); }

// A probe::Error as the exception results::decode and the journal turn into its message.
[[noreturn]] void refuse(const probe::Error& error) { throw std::invalid_argument(error.message()); }

TrialStatus status_of(const json::value& in) {
  const auto status = trial_status_from_name(in.as_string());
  if (!status) refuse(probe::Error{std::make_error_code(std::errc::invalid_argument), "unknown trial status", ""});
  return *status;
}

// A score field by its name, or by its schema-1 name (NAME_mib_s: every journal and report
// before objectives measured seq-read, whose score is MiB/s), so those still decode.
const json::value& score_field(const json::object& o, std::string_view name) {
  if (const auto* value = o.if_contains(name)) return *value;
  return o.at(std::string(name) + "_mib_s");
}

json::object guard_json(const GuardFigures& guard) {
  return {{"samples", array_of(guard.samples)},
          {"median", guard.median},
          {"ci_low", guard.ci_low},
          {"ci_high", guard.ci_high},
          {"measured_s", guard.measured_s}};
}

GuardFigures guard_from(const json::value& in) {
  const json::object& o = in.as_object();
  GuardFigures guard;
  guard.samples = numbers<double>(o.at("samples"));
  guard.median = o.at("median").to_number<double>();
  guard.ci_low = o.at("ci_low").to_number<double>();
  guard.ci_high = o.at("ci_high").to_number<double>();
  if (const auto* seconds = o.if_contains("measured_s")) guard.measured_s = seconds->to_number<double>();  // absent before
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
  const json::object& o = in.as_object();
  bench::LatencyPool pool;
  pool.fraction = o.at("fraction").to_number<double>();
  if (!(pool.fraction > 0.0 && pool.fraction < 1.0)) throw std::invalid_argument("latency fraction out of (0, 1)");
  const auto& array = o.at("bins").as_array();
  if (array.size() > kMostLatencyBins) throw std::invalid_argument("more latency bins than fio has buckets");
  std::vector<bench::LatencyBin> bins;
  std::uint64_t total = 0;
  for (const auto& bin : array) {
    const auto& pair = bin.as_array();
    if (pair.size() != 2) throw std::invalid_argument("a latency bin is not [ns, count]");
    const double ns = pair[0].to_number<double>();
    if (!(ns >= 0.0 && ns <= kMostLatencyNs)) throw std::invalid_argument("a latency bin's ns is out of [0, a day]");
    const auto count = pair[1].to_number<std::uint64_t>();
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
  const json::object& o = in.as_object();
  TrialResult trial;
  trial.id = o.at("id").to_number<int>();
  auto settings = results::settings_from_json(o.at("settings"));
  if (!settings) refuse(settings.error());
  trial.settings = std::move(*settings);
  trial.status = status_of(o.at("status"));
  trial.samples = numbers<double>(o.at("samples"));
  trial.median = score_field(o, "median").to_number<double>();
  trial.spread_pct = o.at("spread_pct").to_number<double>();
  trial.ci_low = score_field(o, "ci_low").to_number<double>();
  trial.ci_high = score_field(o, "ci_high").to_number<double>();
  trial.ci_coverage = o.at("ci_coverage").to_number<double>();
  trial.outliers = numbers<std::size_t>(o.at("outliers"));
  trial.warmup = score_field(o, "warmup").to_number<double>();
  if (const auto* seconds = o.if_contains("sample_seconds")) trial.sample_seconds = numbers<double>(*seconds);  // absent before
  if (const auto* done = o.if_contains("sample_completions")) trial.sample_completions = numbers<std::uint64_t>(*done);
  trial.sampling_stop = text(o, "sampling_stop");
  trial.measured_s = o.at("measured_s").to_number<double>();
  trial.quick = o.at("quick").as_bool();
  trial.detail = text(o, "detail");
  for (const auto& line : o.at("kernel_log").as_array()) trial.kernel_log.emplace_back(line.as_string());
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
  return {json::value_to<TrialResult>(in), o.at("cached_mib_s").to_number<double>(),
          o.at("data_crc32").to_number<std::uint32_t>()};
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
  baseline.aa_medians = numbers<double>(o.at("aa_samples"));
  baseline.noise_floor_pct = o.at("noise_floor_pct").to_number<double>();
  const auto* measured = o.if_contains("baseline_measured_s");  // absent before it was journaled
  baseline.measured_s = measured ? measured->to_number<double>() : baseline.trial.measured_s;
  if (const auto* all = o.if_contains("all_samples")) baseline.all_samples = all->as_bool();
  return baseline;
}

}  // namespace disktune::strategies
