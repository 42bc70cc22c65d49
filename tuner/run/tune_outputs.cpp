// SPDX-License-Identifier: GPL-2.0-or-later
// The output files of a tune: checked together before the run, each written after it.
#include "tuner/run/tune_outputs.hpp"

#include "results/boot_local.hpp"
#include "results/hdparm_conf.hpp"
#include "results/html_report.hpp"
#include "results/json_report.hpp"
#include "results/tuned_profile.hpp"
#include "results/udev_rules.hpp"
#include "tuner/host/output_file.hpp"
#include "tuner/run_error.hpp"

#include <algorithm>
#include <ostream>
#include <vector>

namespace disktune::tuner {
namespace {

// One file a tune names: the option that names it, its path and, for an output, how it is made.
struct NamedFile {
  const char* option;
  std::string path;
  std::string (*render)(const results::Report&) = nullptr;
};

std::string render_report(const results::Report& r) { return results::pretty_json(results::to_json(r)); }
std::string render_html(const results::Report& r) {
  return results::render_html_report(results::to_json(r), results::install_snippets(r));
}
std::string render_boot_local(const results::Report& r) { return results::BootLocalEmitter().render(r); }
std::string render_hdparm_conf(const results::Report& r) { return results::HdparmConfEmitter().render(r); }
std::string render_udev_rules(const results::Report& r) { return results::UdevRulesEmitter().render(r); }
std::string render_tuned_profile(const results::Report& r) { return results::TunedProfileEmitter().render(r); }

std::vector<NamedFile> output_files(const TuneOptions& tune) {
  std::vector<NamedFile> files;
  if (tune.output.report_path) files.push_back({"--report", *tune.output.report_path, render_report});
  if (tune.output.html_path) files.push_back({"--html", *tune.output.html_path, render_html});
  if (tune.output.boot_local_path) files.push_back({"--boot-local", *tune.output.boot_local_path, render_boot_local});
  if (tune.output.hdparm_conf_path) files.push_back({"--hdparm-conf", *tune.output.hdparm_conf_path, render_hdparm_conf});
  if (tune.output.udev_rules_path) files.push_back({"--udev-rules", *tune.output.udev_rules_path, render_udev_rules});
  if (tune.output.tuned_profile_path)
    files.push_back({"--tuned-profile", *tune.output.tuned_profile_path, render_tuned_profile});
  return files;
}

// The files a tune reads or keeps: no output may overwrite them.
std::vector<NamedFile> kept_files(const TuneOptions& tune) {
  std::vector<NamedFile> files;
  if (tune.journal.path) files.push_back({"--journal", *tune.journal.path});
  if (tune.device.sim_profile) files.push_back({"--sim-profile", *tune.device.sim_profile});
  if (const auto capture = sim_capture_file(tune.device.spec)) files.push_back({"DEVICE sim:FILE", *capture});
  return files;
}

bool to_stdout(const NamedFile& file) { return file.path == "-"; }

}  // namespace

bool tune_output_to_stdout(const TuneOptions& tune) {
  const auto outputs = output_files(tune);
  return std::any_of(outputs.begin(), outputs.end(), to_stdout);
}

void check_tune_outputs(const TuneOptions& tune) {
  const auto outputs = output_files(tune);
  if (std::count_if(outputs.begin(), outputs.end(), to_stdout) > 1)
    throw UsageError("only one output can go to stdout (-)");
  for (const auto& file : outputs) check_output_path(file.path);
  auto others = kept_files(tune);
  for (const auto& file : outputs) {
    for (const auto& other : others)
      if (!to_stdout(file) && same_file(file.path, other.path))
        throw UsageError(std::string(file.option) + " and " + other.option + " name the same file (" + file.path + ")");
    others.push_back(file);
  }
}

bool write_tune_outputs(const TuneOptions& tune, const results::Report& report, std::ostream& err) {
  bool all_written = true;
  for (const auto& file : output_files(tune)) {
    if (!report.completed && file.render != render_report && file.render != render_html) {  // both say why
      // A too-noisy run finished its search (exit 6): it has no answer, it did not stop short.
      err << "disktune: " << (report.too_noisy ? "too noisy for an answer" : "the run did not complete") << ": "
          << file.option << " " << file.path << " left as it was\n";
      continue;
    }
    try {
      write_output(file.path, file.render(report));
    } catch (const RunError& error) {
      err << "disktune: " << error.what() << '\n';
      all_written = false;
    }
  }
  return all_written;
}

}  // namespace disktune::tuner
