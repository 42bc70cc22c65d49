// SPDX-License-Identifier: GPL-2.0-or-later
// Parsing fio's JSON output with Boost.JSON and combining its jobs' read figures.
#include "bench/fio_output.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>

namespace disktune::bench {
namespace {

namespace json = boost::json;

probe::Error malformed(const std::string& why) {
  return probe::Error{std::make_error_code(std::errc::bad_message), "fio's JSON output is malformed: " + why, ""};
}

// The document's start: the first '{' that begins a line.
std::size_t document_start(std::string_view text) {
  if (text.starts_with('{')) return 0;
  const auto at = text.find("\n{");
  return at == std::string_view::npos ? at : at + 1;
}

std::optional<double> number(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_number()) return std::nullopt;
  return v->to_number<double>();
}

// clat_ns.percentile[key] in µs; nullopt when the job has none.
std::optional<double> percentile_us(const json::object& read, std::string_view key) {
  const auto* clat = read.if_contains("clat_ns");
  const auto* table = clat && clat->is_object() ? clat->as_object().if_contains("percentile") : nullptr;
  if (!table || !table->is_object()) return std::nullopt;
  const auto ns = number(table->as_object(), key);
  return ns ? std::optional<double>(*ns / 1000.0) : std::nullopt;
}

// clat_ns.bins (json+ only) added into `bins`; an error for a key or count that is not one.
probe::Result<void> add_clat_bins(const json::object& read, const std::string& job_name, std::vector<LatencyBin>& bins) {
  const auto* clat = read.if_contains("clat_ns");
  const auto* table = clat && clat->is_object() ? clat->as_object().if_contains("bins") : nullptr;
  if (!table) return {};
  if (!table->is_object()) return malformed("job " + job_name + ": clat_ns.bins is not an object");
  LatencyPool pool{0.5, std::move(bins)};
  for (const auto& [key, count] : table->as_object()) {
    double ns = 0.0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), ns);
    if (ec != std::errc{} || end != key.data() + key.size() || !(ns >= 0.0) || !count.is_number() ||
        count.to_number<double>() < 0.0)
      return malformed("job " + job_name + ": clat_ns.bins has a bad bucket \"" + std::string(key) + "\"");
    const LatencyBin bin{ns, static_cast<std::uint64_t>(count.to_number<double>())};
    add_bins(pool, std::span(&bin, 1));
  }
  bins = std::move(pool.bins);
  return {};
}

void take_worst(std::optional<double>& worst, std::optional<double> value) {
  if (value && (!worst || *value > *worst)) worst = value;
}

probe::Result<void> add_job(const json::value& job_value, FioFigures& figures) {
  if (!job_value.is_object()) return malformed("a jobs[] entry is not an object");
  const auto& job = job_value.as_object();
  const auto* name = job.if_contains("jobname");
  const std::string job_name = name && name->is_string() ? std::string(name->as_string()) : "?";
  if (const auto error = number(job, "error"); error && *error != 0)
    return malformed("fio job " + job_name + " failed: error " + std::to_string(static_cast<long long>(*error)));
  const auto* read_value = job.if_contains("read");
  if (!read_value || !read_value->is_object()) return malformed("job " + job_name + " has no read object");
  const auto& read = read_value->as_object();
  const auto iops = number(read, "iops");
  const auto bw = number(read, "bw_bytes");
  const auto bytes = number(read, "io_bytes");
  const auto runtime_ms = number(read, "runtime");
  const auto ios = number(read, "total_ios");
  if (!iops || !bw || !bytes || !runtime_ms)
    return malformed("job " + job_name + " lacks read.iops, bw_bytes, io_bytes or runtime");
  figures.iops += *iops;
  figures.bw_mib_s += *bw / (1024.0 * 1024.0);
  figures.io_bytes += static_cast<std::uint64_t>(*bytes);
  figures.ios += ios ? static_cast<std::uint64_t>(*ios) : 0;
  figures.runtime = std::max(figures.runtime, probe::Seconds(*runtime_ms / 1000.0));
  if (*bytes > 0) {
    take_worst(figures.p99_us, percentile_us(read, "99.000000"));
    take_worst(figures.p999_us, percentile_us(read, "99.900000"));
    if (auto added = add_clat_bins(read, job_name, figures.clat_bins); !added) return added.error();
  }
  return {};
}

}  // namespace

std::vector<std::string_view> fio_documents(std::string_view text) {
  std::vector<std::string_view> documents;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto start = document_start(text.substr(at));
    if (start == std::string_view::npos) break;
    const std::size_t begin = at + start;
    const auto close = text.find("\n}", begin);
    if (close == std::string_view::npos) break;
    documents.push_back(text.substr(begin, close + 2 - begin));
    at = close + 2;
  }
  return documents;
}

probe::Result<FioFigures> parse_fio_output(std::string_view text) {
  if (const auto documents = fio_documents(text); !documents.empty()) text = documents.back();
  const auto start = document_start(text);
  if (start == std::string_view::npos) return malformed("no JSON document in its output");
  boost::system::error_code ec;
  const auto document = json::parse(text.substr(start), ec);
  if (ec) return malformed(ec.message());
  const auto* jobs = document.is_object() ? document.as_object().if_contains("jobs") : nullptr;
  if (!jobs || !jobs->is_array() || jobs->as_array().empty()) return malformed("no jobs array");
  FioFigures figures;
  for (const auto& job : jobs->as_array())
    if (auto added = add_job(job, figures); !added) return added.error();
  return figures;
}

probe::Result<double> figure_for(const Objective& objective, const FioFigures& figures) {
  // A figure of 0 (or none) is no measurement: the job read nothing, it did not run slowly.
  const auto nothing = [&](const std::string& why) {
    const auto code = objective.job_file.empty() ? std::errc::io_error : std::errc::invalid_argument;
    const std::string job = objective.job_file.empty() ? "fio job " + objective.name : "fio job file " + objective.job_file;
    return probe::Error{std::make_error_code(code), job + ": " + why, ""};
  };
  if (figures.io_bytes == 0)
    return nothing("fio reported no reads (0 bytes read: create_only=1, size=0, a job that never starts?)");
  switch (objective.metric) {
    case Metric::bw:
      if (figures.bw_mib_s <= 0.0) return nothing("fio reported a read bandwidth of 0");
      return figures.bw_mib_s;
    case Metric::iops:
      if (figures.iops <= 0.0) return nothing("fio reported 0 read IOPS");
      return figures.iops;
    case Metric::p99:
    case Metric::p999: {
      const auto& p = objective.metric == Metric::p99 ? figures.p99_us : figures.p999_us;
      if (!p || *p <= 0.0)
        return nothing("fio reported no positive clat_ns percentile for " + std::string(to_string(objective.metric)) +
                       " (did the job set clat_percentiles=0?)");
      return *p;
    }
  }
  return figures.bw_mib_s;
}

}  // namespace disktune::bench
