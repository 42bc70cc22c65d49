// SPDX-License-Identifier: GPL-2.0-or-later
// install --form parsing and the text of every form but the udev rule (install_forms.hpp).
#include "tuner/keep/install_forms.hpp"

#include "results/hdparm_conf.hpp"
#include "results/tuned_profile.hpp"
#include "tuner/run_error.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

namespace disktune::tuner {
namespace {

struct FormName {
  InstallForm form;
  const char* name;
};
constexpr FormName kFormNames[] = {{InstallForm::udev, "udev"},
                                   {InstallForm::systemd, "systemd"},
                                   {InstallForm::hdparm_conf, "hdparm-conf"},
                                   {InstallForm::tuned, "tuned"}};

// The lines of `text`, each without its '\n'; a last line without one is kept as it is.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

// Whether `line` is `marker`, also with a CRLF line ending (a file edited on another system).
bool is_marker(const std::string& line, const std::string& marker) {
  return line == marker || (line.size() == marker.size() + 1 && line.back() == '\r' && line.compare(0, marker.size(), marker) == 0);
}

}  // namespace

// The binary the unit and the hook run: an absolute path udev, systemd and sh take as it is.
std::optional<std::string> missing_exe(const std::string& path, const std::string& root) {
  if (path.empty())  // resolve_under_root gave up: ELOOP in that system
    return "the binary's path passes more than 40 symbolic links under " + root + ": that system cannot run it";
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0) return std::nullopt;
  const std::string what = std::filesystem::exists(path, ec) ? " is not an executable file" : " does not exist";
  if (root.empty())
    return path + what + ": the boot unit and the resume hook would run nothing; install the binary first "
                         "(cmake --install build --prefix /usr) or name it with --exe";
  return path + what + ": the boot unit and the resume hook run it in that system; install the binary there "
                       "(cmake --install build --prefix " + root + "/usr) or name the installed one with --exe";
}

std::filesystem::path resolve_under_root(const std::filesystem::path& root, const std::string& path) {
  namespace fs = std::filesystem;
  std::deque<fs::path> rest;
  for (const auto& part : fs::path(path).relative_path()) rest.push_back(part);
  fs::path resolved;  // relative to root
  for (int hops = 0; !rest.empty();) {
    const fs::path part = rest.front();
    rest.pop_front();
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      resolved = resolved.parent_path();
      continue;
    }
    std::error_code ec;
    const fs::path here = root / resolved / part;
    if (!fs::is_symlink(here, ec)) {
      resolved /= part;
      continue;
    }
    if (++hops > 40) return {};  // ELOOP, as the kernel would answer in that system
    const fs::path target = fs::read_symlink(here, ec);
    if (ec) {
      resolved /= part;
      continue;
    }
    if (target.is_absolute()) resolved.clear();
    const fs::path relative = target.relative_path();
    rest.insert(rest.begin(), relative.begin(), relative.end());
  }
  return root / resolved;
}

std::string checked_exe(const std::string& exe) {
  const bool plain = !exe.empty() && exe.front() == '/' &&
                     exe.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+") ==
                         std::string::npos;
  if (!plain) throw RunError(kExitUsage, "install: the disktune binary path '" + exe + "' is not a plain absolute path");
  return exe;
}

std::string systemd_unit_text(const std::string& exe) {
  return "# " + std::string(kInstallMark) + ": puts the tuned settings of every drive in /etc/disktune back at boot.\n"
         "[Unit]\n"
         "Description=Apply disktune's tuned disk settings\n"
         "Documentation=file:///etc/disktune\n"
         "After=systemd-udev-trigger.service systemd-udev-settle.service local-fs.target\n"
         "ConditionDirectoryNotEmpty=/etc/disktune\n\n"
         "[Service]\n"
         "Type=oneshot\n"
         "RemainAfterExit=yes\n"
         "ExecStart=" + exe + " apply --config /etc/disktune\n\n"
         "[Install]\n"
         "WantedBy=multi-user.target\n";
}

std::string sleep_hook_text(const std::string& exe) {
  return "#!/bin/sh\n"
         "# " + std::string(kInstallMark) + ": a drive resets APM, AAM, multcount and its transfer mode\n"
         "# when it resumes; systemd-sleep runs this with 'post' after resume (systemd-suspend.service(8)).\n"
         "case \"$1\" in\n"
         "  post) " + exe + " apply --config /etc/disktune ;;\n"
         "esac\n"
         "exit 0\n";
}

// The ExecStart= line of a unit's text, or "" when it has none.
std::string exec_start(const std::string& unit) {
  std::istringstream lines(unit);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("ExecStart=", 0) == 0) return line;
  return "";
}

std::vector<InstallForm> parse_install_forms(const std::string& list) {
  std::vector<InstallForm> forms;
  if (list.empty()) throw UsageError("--form: no form named (udev, systemd, hdparm-conf, tuned)");
  for (std::size_t start = 0; start <= list.size();) {  // every field, the empty ones too ("udev,")
    const auto comma = std::min(list.find(',', start), list.size());
    const std::string name = list.substr(start, comma - start);
    start = comma + 1;
    const auto* known = std::find_if(std::begin(kFormNames), std::end(kFormNames),
                                     [&](const FormName& f) { return name == f.name; });
    if (known == std::end(kFormNames))
      throw UsageError("--form: unknown form '" + name + "' (udev, systemd, hdparm-conf, tuned)");
    if (std::find(forms.begin(), forms.end(), known->form) != forms.end())
      throw UsageError("--form: '" + name + "' given twice");
    forms.push_back(known->form);
  }
  std::sort(forms.begin(), forms.end());
  return forms;
}

std::string hdparm_conf_begin(const std::string& key) { return "# BEGIN disktune install " + key; }
std::string hdparm_conf_end(const std::string& key) { return "# END disktune install " + key; }

bool has_hdparm_conf_block(const std::string& conf, const std::string& key) {
  const auto lines = lines_of(conf);
  return std::any_of(lines.begin(), lines.end(), [&](const auto& line) { return is_marker(line, hdparm_conf_begin(key)); });
}

std::string with_hdparm_conf_block(const std::string& conf, const std::string& key, const std::string& block) {
  auto lines = lines_of(conf);
  const auto begin_marker = [&](const std::string& line) { return is_marker(line, hdparm_conf_begin(key)); };
  const auto begin = std::find_if(lines.begin(), lines.end(), begin_marker);
  std::vector<std::string> wrapped;
  if (!block.empty()) {
    wrapped.push_back(hdparm_conf_begin(key));
    for (auto& line : lines_of(block)) wrapped.push_back(std::move(line));
    wrapped.push_back(hdparm_conf_end(key));
  }
  if (begin == lines.end()) {
    if (wrapped.empty()) return conf;
    std::string out = conf;
    if (!out.empty() && out.back() != '\n') out += '\n';
    if (!out.empty()) out += '\n';  // the blank line a removal takes back
    for (const auto& line : wrapped) out += line + '\n';
    return out;
  }
  const auto end = std::find_if(begin, lines.end(), [&](const auto& line) { return is_marker(line, hdparm_conf_end(key)); });
  if (std::count_if(lines.begin(), lines.end(), begin_marker) > 1)
    throw std::invalid_argument("hdparm.conf: '" + hdparm_conf_begin(key) + "' is there twice (edited by hand?): "
                                "mend the file so the block opens once, then run again");
  if (end == lines.end())
    throw std::invalid_argument("hdparm.conf: the disktune block of " + key + " has no '" + hdparm_conf_end(key) +
                                "' line (edited by hand?): mend or remove it, then run again");
  const auto b = static_cast<std::size_t>(begin - lines.begin());
  const auto e = static_cast<std::size_t>(end - lines.begin());
  const std::size_t from = wrapped.empty() && b > 0 && lines[b - 1].empty() ? b - 1 : b;
  std::string out;
  for (std::size_t i = 0; i < from; ++i) out += lines[i] + '\n';
  for (const auto& line : wrapped) out += line + '\n';
  for (std::size_t i = e + 1; i < lines.size(); ++i) out += lines[i] + '\n';
  return out;
}

std::string tuned_profile_name(const std::string& key) { return "disktune-" + key; }

std::string tuned_profile_file(const std::string& key, const std::string& mark_line, const std::string& fragment) {
  return "# " + mark_line + "\n[main]\nsummary=disktune: the measured settings of " + key + "\n\n" + fragment;
}

std::string hdparm_conf_form(const results::Report& report, const std::string& file) {
  auto block = results::hdparm_conf_stanza(report);
  if (block.empty())
    throw RunError(kExitUsage, "install --form hdparm-conf: " + file + ": no hdparm.conf stanza for " +
                               report.device.path + ": " + results::hdparm_conf_missing_reason(report) +
                               "; use --form udev; nothing installed");
  return block;
}

std::string tuned_form(const results::Report& report, const std::string& file) {
  auto fragment = results::tuned_profile_units(report);
  if (fragment.empty())
    throw RunError(kExitUsage, "install --form tuned: " + file + ": the answer changes no setting TuneD can apply; "
                               "nothing installed");
  if (fragment.find("devices_udev_regex=") == std::string::npos)
    throw RunError(kExitUsage, "install --form tuned: " + file + ": TuneD could match " + report.device.path +
                               " only by its kernel name (no ID_WWN or ID_SERIAL), which may name another disk "
                               "after a reboot: use --form udev; nothing installed");
  return fragment;
}

bool carries_mark(std::string_view text) {
  if (text.starts_with("#!")) {
    const auto end = text.find('\n');
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
  }
  const std::string mark = "# " + std::string(kInstallMark);
  if (!text.starts_with(mark)) return false;
  const auto rest = text.substr(mark.size());
  return rest.empty() || rest.front() == ' ' || rest.front() == ':' || rest.front() == '\n';
}

}  // namespace disktune::tuner
