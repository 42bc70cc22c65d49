// SPDX-License-Identifier: GPL-2.0-or-later
// identify, plan, bench and tune, and every command's dispatch with its own options.
#include "tuner/device/open_device.hpp"

#include "tuner/host/shell_word.hpp"
#include "probe/device.hpp"
#include "tuner/cli/commands.hpp"

#include "bench/benchmark.hpp"
#include "bench/stats.hpp"
#include "probe/identify/identify_text.hpp"
#include "results/boot_local.hpp"
#include "results/journal.hpp"
#include "results/json_report.hpp"
#include "results/table.hpp"
#include "tuner/keep/apply.hpp"
#include "tuner/device_context.hpp"
#include "tuner/device/device_factory.hpp"
#include "tuner/host/device_lock.hpp"
#include "tuner/host/emulation.hpp"
#include "tuner/evaluate/evaluate.hpp"
#include "tuner/cli/bench_json.hpp"
#include "tuner/cli/fio_bench.hpp"
#include "tuner/keep/install.hpp"
#include "tuner/cli/report_command.hpp"
#include "tuner/fleet/multi_tune.hpp"
#include "tuner/cli/command_options.hpp"
#include "tuner/cli/summaries.hpp"
#include "tuner/journal/run_journal.hpp"
#include "tuner/run/session.hpp"
#include "tuner/run/tune_outputs.hpp"
#include "tuner/device/hold.hpp"
#include "tuner/keep/restore.hpp"
#include "tuner/keep/verify.hpp"
#include "tuner/host/version.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <iostream>
#include <csignal>

namespace disktune::tuner {
namespace {

namespace json = boost::json;

// The device lock of a command that writes to its device (README "One command per device").
DeviceLock lock_device(const Config& config) { return DeviceLock(device_request(config).spec); }

probe::IdentifyInfo identify_from_file(const Config& config) {
  auto info = probe::parse_identify_file(*config.from_file, config.format);
  if (!info) throw RunError(kExitUsage, info.error().input_message());
  return std::move(*info);
}

ExitCode run_identify(const Config& config, std::ostream& out, std::ostream& err) {
  probe::IdentifyInfo info;
  bool simulated = false;
  std::string emulated_by;
  if (config.from_file) {
    info = identify_from_file(config);
  } else {
    const auto lock = lock_device(config);  // the capability probe writes nr_requests
    const auto context = open_device(device_request(config), err);
    // A loop, NVMe or virtio disk answers no ATA IDENTIFY: say so, and where its settings are.
    if (!context.identify)
      throw RunError(kExitDevice, context.device->path() + ": " + context.identify_note +
                                      "; not an ATA disk? " + quoted_command({"disktune", "plan"}) +
                                      " shows its block-layer settings");
    info = *context.identify;
    simulated = context.device->simulated();
    emulated_by = context.emulated_by;
  }
  if (config.json) {
    auto value = results::identify_to_json(info);
    value.as_object()["simulated"] = simulated;
    value.as_object()["emulated_by"] = emulated_by.empty() ? json::value(nullptr) : json::value(emulated_by);
    out << results::pretty_json(value);
  } else {
    out << identify_summary(info, results::device_kind(simulated, !emulated_by.empty()));
  }
  return kExitOk;
}

ExitCode run_plan(const Config& config, std::ostream& out, std::ostream& err) {
  const auto lock = lock_device(config);  // the capability probe writes nr_requests; first: another command's claim is no use
  refuse_device_in_use(device_request(config), "plan");  // its capability probe writes queue settings, as a tune does
  auto context = open_device_unprobed(device_request(config), err);
  hold_device(context, lock, device_request(config), "plan");
  probe_capabilities(context);
  const auto space = plan_space(context, space_bounds(config));
  const auto device = describe_device(context);
  const auto described = describe_space(space);
  if (config.json) {
    json::object plan{{"device", device.path}, {"simulated", device.simulated},
                      {"emulated_by", device.emulated_by.empty() ? json::value(nullptr) : json::value(device.emulated_by)},
                      {"model", device.model},
                      {"identify_note", device.identify_note.empty() ? json::value(nullptr)
                                                                     : json::value(device.identify_note)},
                      {"space", results::space_to_json(described)},
                      {"baseline", results::settings_to_json(context.original)}};
    out << results::pretty_json(plan);
  } else {
    out << plan_summary(device, described, context.original);
  }
  return kExitOk;
}

std::vector<double> rates(const std::vector<bench::Sample>& samples) {
  std::vector<double> values;
  for (const auto& s : samples) values.push_back(s.value);
  return values;
}

// One buffered-read chunk, as `bench` and the trials read (2 MiB, hdparm -t's).
constexpr std::uint64_t kChunkBytes = 2u << 20;

// A device smaller than one chunk cannot be measured at all: refused before anything is
// probed, journaled or applied. Throws RunError(exit 2).
void require_measurable(const probe::BlockIo& io, const std::string& path) {
  if (io.size_bytes() >= kChunkBytes) return;
  throw RunError(kExitUsage, path + " holds " + std::to_string(io.size_bytes()) +
                                 " bytes, less than one measurement chunk (" + std::to_string(kChunkBytes >> 20) +
                                 " MiB): it cannot be measured");
}

// bench needs only the device's data: no identify, capabilities or settings snapshot (the
// capability probes write trial values to queue/nr_requests and put the original back, which
// a benchmark has no need of, and took 0.3 s of a 3 s benchmark). Throws RunError like
// open_device.
std::unique_ptr<probe::Device> open_bench_device(const Config& config) {
  probe::DeviceOptions options;
  options.seed = config.seed;
  options.sim_profile = config.sim_profile;
  auto device = make_device(config.device, options);
  if (!device && probe::is_sim_spec(config.device)) throw RunError(kExitUsage, device.error().input_message());
  if (!device) throw_device_error(device.error());
  return std::move(*device);
}

// `repeats` samples of `workload`, or none when `wanted` is false.
std::vector<double> bench_rates(probe::BlockIo& io, const bench::Workload& workload, int repeats, bool wanted) {
  if (!wanted) return {};
  auto samples = bench::run_samples(io, workload, repeats);
  if (!samples) throw_device_error(samples.error());
  return rates(*samples);
}

ExitCode run_bench(const Config& config, std::ostream& out, std::ostream& err) {
  const auto lock = lock_device(config);  // its flushes and reads would disturb a tune's trials
  const auto device = open_bench_device(config);
  const std::string backing_note = device->simulated() ? "" : page_cache_note(device->held());
  if (!backing_note.empty()) err << "disktune: note: " << backing_note << '\n';
  auto io = device->open_io(probe::IoMode::buffered);
  if (!io) throw_device_error(io.error());
  require_measurable(**io, device->path());
  if (config.measure.objectives[0].engine == bench::Engine::fio) return run_fio_bench(config, *device, out);
  // Buffered first, as soon as the device is open: the 2 s cached phase comes after it.
  const bool simulated = device->simulated();
  const bench::Workload buffered =
      bench::disk_read_workload(probe::Seconds(config.measure.duration_s), !simulated && !config.measure.full_samples);
  const bench::Workload cached{bench::Method::cached, 0, kChunkBytes, probe::Seconds(2.0)};
  const auto b = bench_rates(**io, buffered, config.measure.repeats, config.bench.buffered);
  const auto c = bench_rates(**io, cached, config.measure.repeats, config.bench.cached);
  if (config.json) {
    const auto emulated_by = emulation_of(*device);
    json::object o{{"device", device->path()}, {"simulated", simulated},
                   {"emulated_by", emulated_by.empty() ? json::value(nullptr) : json::value(emulated_by)},
                   {"backing_note", backing_note.empty() ? json::value(nullptr) : json::value(backing_note)},
                   {"cached_read_mib_s", median_or_null(c)}, {"buffered_read_mib_s", median_or_null(b)},
                   {"samples", json::object{{"cached", json::array(c.begin(), c.end())},
                                            {"buffered", json::array(b.begin(), b.end())}}},
                   {"median_interval", json::object{{"cached", median_interval_or_null(c)},
                                                    {"buffered", median_interval_or_null(b)}}},
                   {"method", "hdparm-style: 2 MiB reads; buffered reads sequentially for --duration s after "
                              "flushing the page cache (BLKFLSBUF) before each sample, dropping the cache "
                              "behind the reads every " + std::to_string(buffered.drop_behind_bytes >> 20) +
                              " MiB (posix_fadvise DONTNEED)" +
                              std::string(buffered.steady.enabled ? ", ending a sample once its rate is steady (its figure "
                                                                    "projected to --duration; --full-samples: never)" : "") +
                              "; cached re-reads the first 2 MiB for 2 s; "
                              "MB = 2^20 bytes; a median not measured (--method) is null"}};
    out << results::pretty_json(o);
  } else {
    out << bench_summary(device->path(), results::device_kind(simulated, !emulation_of(*device).empty()), c, b);
  }
  return kExitOk;
}

void refuse_small_device(const Config& config, const TuneOptions& tune) {
  const auto lock = lock_device(config);  // first: a disk another disktune command holds is refused as that
  refuse_tune_in_use(tune);  // never open a disk in use to look at its size
  const auto device = open_bench_device(config);
  if (auto io = device->open_io(probe::IoMode::buffered)) require_measurable(**io, device->path());
}

// A run that ended with its answer (0) or with "too noisy for one" (6): lost outputs then
// make it a failure (2); any other code already says the run failed and stays.
bool has_answer(ExitCode code) { return code == kExitOk || code == kExitTooNoisy; }

// What to do with a winner, said once the outputs are written: keep it, apply it, make it last.
std::string next_steps(const Config& config, const results::Report& report) {
  if (!report.completed || report.winner.keep_baseline || report.device.simulated) return "";
  if (!config.output.report_path || *config.output.report_path == "-")
    return "disktune: next: run again with --report FILE to keep this answer, then " +
           quoted_command({"disktune", "apply", "FILE"}) + " to set it now and " +
           quoted_command({"disktune", "install", "FILE"}) + " to set it at every boot (README, \"Keeping the result\")\n";
  const auto report_path = path_word(*config.output.report_path);
  return "disktune: next: " + quoted_command({"disktune", "apply", report_path}) +
         " sets the winner now (restore undoes it), " + quoted_command({"disktune", "install", report_path}) +
         " at every boot and after resume, " + quoted_command({"disktune", "verify", report_path}) + " checks it later\n";
}

ExitCode run_tune_command(const Config& config, std::ostream& out, std::ostream& err) {
  if (multi_drive(config)) return run_multi_tune(fleet_options(config), out, err);
  const TuneOptions tune = tune_options(config);
  check_tune_outputs(tune);
  refuse_small_device(config, tune);
  const auto outcome = run_tune(tune, err);
  // The table goes first (to stderr when an output file is stdout), so a failing write
  // cannot lose it.
  std::ostream& table = tune_output_to_stdout(tune) ? err : out;
  table << results::TableEmitter().render(outcome.report) << '\n';
  // Without an answer (stopped, too noisy) no --boot-local file is written: the block says why.
  table << (outcome.report.completed ? "boot.local:\n" : "boot.local (no file is written: no answer):\n")
        << results::BootLocalEmitter().render(outcome.report);
  const bool written = write_tune_outputs(tune, outcome.report, err);
  if (!outcome.message.empty()) err << "disktune: " << outcome.message << '\n';
  if (written) err << next_steps(config, outcome.report);
  err << outcome.resume_hint;  // last: what the next command does with the journal a stop kept
  return !written && has_answer(outcome.exit_code) ? kExitUsage : outcome.exit_code;
}

ExitCode dispatch(const Config& config, std::ostream& out, std::ostream& err) {
  switch (config.command) {
    case Command::help:
      (config.help_is_error ? err : out) << config.help_text;
      return config.help_is_error ? kExitUsage : kExitOk;
    case Command::version: out << "disktune " << tool_version() << '\n'; return kExitOk;
    case Command::identify: return run_identify(config, out, err);
    case Command::plan: return run_plan(config, out, err);
    case Command::bench: return run_bench(config, out, err);
    case Command::tune: return run_tune_command(config, out, err);
    case Command::restore: return run_restore(restore_options(config), err);
    case Command::apply: return run_apply(apply_options(config), out, err);
    case Command::verify: return run_verify(verify_options(config), out, err);
    case Command::install: return run_install(install_options(config), out);
    case Command::uninstall: return run_uninstall(install_options(config), out);
    case Command::report: return run_report(config);
    case Command::evaluate: return static_cast<ExitCode>(run_evaluate_command(evaluate_request(config), out, err));
  }
  return kExitUsage;
}

}  // namespace

ExitCode run_command(const Config& config, std::ostream& out, std::ostream& err) {
  // `disktune plan | head -c1`: a closed pipe fails the write (reported below), never kills
  // a command between a probe's write and its undo.
  std::signal(SIGPIPE, SIG_IGN);
  if (config.command != Command::help && config.command != Command::version) check_command_inputs(config);
  const ExitCode code = dispatch(config, out, err);
  // A closed pipe or a full disk behind stdout loses the results: that is no success.
  if (out.flush(); !out) {
    err << "disktune: cannot write the results to standard output (closed or full)\n";
    return has_answer(code) ? kExitUsage : code;
  }
  return code;
}

ExitCode results_lost(const Config& config, ExitCode code) {
  if (config.command == Command::restore || !has_answer(code)) return code;
  std::cerr << "disktune: standard output was closed: the results are lost\n";
  return kExitUsage;
}

}  // namespace disktune::tuner
