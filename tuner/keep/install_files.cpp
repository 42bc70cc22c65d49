// SPDX-License-Identifier: GPL-2.0-or-later
// install_key and install_files: what an install writes for a report, before anything is written.
#include "tuner/keep/install.hpp"

#include "probe/core/text.hpp"
#include "results/snippet.hpp"
#include "results/udev_rules.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/keep/drive_match.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace disktune::tuner {
namespace {

std::string file_key(std::string text) {
  for (char& c : text)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return text;
}

// file_key of `text`; a long one as its tail and hash, so "69-disktune-KEY.rules" and the
// temporary files beside it fit NAME_MAX (255) however deep a backing file lies.
std::string short_file_key(const std::string& text) {
  constexpr std::size_t kLongest = 200;
  auto key = file_key(text);
  return key.size() <= kLongest ? key : file_key(unique_journal_key("", text));
}

// A report as the snippet emitters take it: the winner's changes over the baseline.
results::Report snippet_report(const results::SavedReport& saved) {
  results::Report report;
  report.device = saved.device;
  report.completed = true;
  report.baseline.trial.settings = saved.baseline;
  report.winner.settings = probe::with_changes(saved.baseline, saved.changes);
  report.winner.changes = saved.changes;
  report.winner.keep_baseline = saved.changes.empty();
  return report;
}

}  // namespace

std::string install_key(const results::DeviceInfo& device) {
  if (!has_stable_identity(device))
    throw RunError(kExitUsage, "install: " + device.path + " has no serial, wwid or backing file: a rule keyed on its "
                               "kernel name could set another disk after a reboot; nothing installed");
  // The identity the rule matches (results::udev_match_clause), in its order.
  if (!device.backing_file.empty()) return short_file_key("loop" + device.backing_file);
  if (const auto serial = results::udev_id_serial(device.model, device.serial); !serial.empty())
    return short_file_key(serial);
  if (!device.wwid.empty()) return short_file_key(device.wwid);
  throw RunError(kExitUsage, "install: " + device.path + " (model '" + device.model + "', serial '" + device.serial +
                             "') has no ID_SERIAL udev can match (it needs a model and a serial) and no wwid; "
                             "nothing installed");
}

std::vector<InstalledFile> install_files(const results::SavedReport& report, const std::string& report_text,
                                         const std::string& exe, const std::vector<InstallForm>& forms) {
  if (report.changes.empty())
    throw RunError(kExitUsage, "install: " + report.file + " recommends keeping the baseline: nothing to install");
  const auto key = install_key(report.device);
  const auto snippet_form = snippet_report(report);
  const std::string mark_line = std::string(kInstallMark) + " from " + probe::one_line(report.file);
  const auto wanted = [&forms](InstallForm form) { return std::find(forms.begin(), forms.end(), form) != forms.end(); };
  std::vector<InstalledFile> files{{std::string(kConfigDir) + "/" + key + ".json", report_text, false, false}};
  try {
    if (wanted(InstallForm::udev))
      files.push_back({"etc/udev/rules.d/69-disktune-" + key + ".rules",
                       "# " + mark_line + "\n" + results::udev_rule(report.device, results::snippet_settings(snippet_form)),
                       false, false});
    if (wanted(InstallForm::hdparm_conf))
      files.push_back({kHdparmConf, "# " + mark_line + "\n" + hdparm_conf_form(snippet_form, report.file), false, false, key});
    if (wanted(InstallForm::tuned))
      files.push_back({"etc/tuned/" + tuned_profile_name(key) + "/tuned.conf",
                       tuned_profile_file(key, mark_line, tuned_form(snippet_form, report.file)), false, false});
  } catch (const std::invalid_argument& e) {
    throw RunError(kExitUsage, "install: " + report.file + ": " + e.what());
  }
  if (wanted(InstallForm::systemd)) {
    files.push_back({kUnit, systemd_unit_text(checked_exe(exe)), false, true});
    files.push_back({kSleepHook, sleep_hook_text(checked_exe(exe)), true, true});
  }
  return files;
}

}  // namespace disktune::tuner
