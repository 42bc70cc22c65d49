// SPDX-License-Identifier: GPL-2.0-or-later
// install_files, run_install and run_uninstall.
#include "tuner/install.hpp"

#include "results/snippet.hpp"
#include "results/udev_rules.hpp"
#include "tuner/apply.hpp"
#include "tuner/drive_match.hpp"
#include "tuner/journal_file.hpp"
#include "tuner/output_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMark = "written by disktune install";
constexpr const char* kConfigDir = "etc/disktune";
constexpr const char* kUnit = "etc/systemd/system/disktune-apply.service";
constexpr const char* kUnitLink = "etc/systemd/system/multi-user.target.wants/disktune-apply.service";
constexpr const char* kSleepHook = "usr/lib/systemd/system-sleep/disktune";

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

// The binary the unit and the hook run: an absolute path udev, systemd and sh take as it is.
std::string checked_exe(const std::string& exe) {
  const bool plain = !exe.empty() && exe.front() == '/' &&
                     exe.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+") ==
                         std::string::npos;
  if (!plain) throw RunError(kExitUsage, "install: the disktune binary path '" + exe + "' is not a plain absolute path");
  return exe;
}

std::string unit_text(const std::string& exe) {
  return "# " + std::string(kMark) + ": puts the tuned settings of every drive in /etc/disktune back at boot.\n"
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
         "# " + std::string(kMark) + ": a drive resets APM, AAM, multcount and its transfer mode\n"
         "# when it resumes; systemd-sleep runs this with 'post' after resume (systemd-suspend.service(8)).\n"
         "case \"$1\" in\n"
         "  post) " + exe + " apply --config /etc/disktune ;;\n"
         "esac\n"
         "exit 0\n";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// What is at `path` (not followed): absent, a regular file, or something install never
// writes through or over (a symlink, a directory, a FIFO, a device: reading a FIFO or
// /dev/zero would hang).
enum class Kind { absent, regular, other };

Kind kind_of(const fs::path& path) {
  const auto status = fs::symlink_status(path);
  if (!fs::exists(status)) return Kind::absent;
  return fs::is_regular_file(status) ? Kind::regular : Kind::other;
}

// Whether the regular file at `path` is one disktune install wrote for `device`: a report whose
// rule matches the same drive (a key two drives share names the first one's files), or a file
// with the mark.
bool ours(const fs::path& path, const results::DeviceInfo& device) {
  if (kind_of(path) != Kind::regular) return false;
  const auto text = read_file(path);
  if (path.extension() != ".json") return text.find(kMark) != std::string::npos;
  const auto installed = results::parse_saved_report(text, path.string());
  // The same match, not the same identity: a drive re-tuned after a firmware update is ours.
  return installed.has_value() && results::udev_match_clause(installed.value().device) == results::udev_match_clause(device);
}

fs::path root_of(const std::optional<std::string>& root) {
  if (root && root->empty()) throw RunError(kExitUsage, "--root '': an empty root names no directory; nothing done");
  return fs::path(root.value_or("/"));
}

fs::path under(const std::optional<std::string>& root, const std::string& relative) {
  return root_of(root) / relative;
}

// Whether the symlink `link` leads to a directory inside `root` (a usrmerge-style link of
// an image, or any link of the running system, whose root is /).
bool link_inside(const fs::path& link, const fs::path& root) {
  std::error_code ec;
  const auto target = fs::canonical(link, ec);
  if (ec || !fs::is_directory(target, ec)) return false;
  const auto base = fs::canonical(root, ec);
  if (ec) return false;
  const auto relative = target.lexically_relative(base);
  return !relative.empty() && *relative.begin() != "..";
}

// The first directory between the root and `relative` that is no directory, or a symlink
// leading out of the root (writing or removing through it would reach outside), or "".
std::string crossing(const std::optional<std::string>& root, const std::string& relative) {
  const auto base = root_of(root);
  auto path = base;
  for (const auto& part : fs::path(relative).parent_path()) {
    path /= part;
    const auto status = fs::symlink_status(path);
    if (!fs::exists(status)) return "";
    if (fs::is_symlink(status) ? !link_inside(path, base) : !fs::is_directory(status)) return path.string();
  }
  return "";
}

void write_file(const fs::path& path, const InstalledFile& file) {
  fs::create_directories(path.parent_path());
  write_output(path.string(), file.content);
  if (file.executable) ::chmod(path.c_str(), 0755);
}

// The enable link install makes.
bool our_link(const fs::path& link) {
  return fs::is_symlink(fs::symlink_status(link)) && fs::read_symlink(link) == "../disktune-apply.service";
}

// Another drive's report is still installed: the shared unit and hook stay.
bool other_reports_left(const fs::path& config_dir, const fs::path& mine) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(config_dir, ec))
    if (entry.path().extension() == ".json" && entry.path() != mine) return true;
  return false;
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
                                         const std::string& exe) {
  if (report.changes.empty())
    throw RunError(kExitUsage, "install: " + report.file + " recommends keeping the baseline: nothing to install");
  const auto key = install_key(report.device);
  std::string rule;
  try {
    const auto report_form = snippet_report(report);
    rule = results::udev_rule(report.device, results::snippet_settings(report_form));
  } catch (const std::invalid_argument& e) {
    throw RunError(kExitUsage, "install: " + report.file + ": " + e.what());
  }
  std::string from = report.file;  // a path may hold a newline: it must not end the comment
  for (char& c : from)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  const std::string rule_text = "# " + std::string(kMark) + " from " + from + "\n" + rule;
  return {{std::string(kConfigDir) + "/" + key + ".json", report_text, false, false},
          {"etc/udev/rules.d/69-disktune-" + key + ".rules", rule_text, false, false},
          {kUnit, unit_text(checked_exe(exe)), false, true},
          {kSleepHook, sleep_hook_text(checked_exe(exe)), true, true}};
}

namespace {

ExitCode install_here(const Config& config, std::ostream& out);
ExitCode uninstall_here(const Config& config, std::ostream& out);

// A file system error (a read-only --root, a directory where a file goes) as bad input.
template <class F>
ExitCode with_fs_errors(const char* command, F&& body) {
  try {
    return body();
  } catch (const fs::filesystem_error& e) {
    throw RunError(kExitUsage, std::string(command) + ": " + e.what());
  }
}

}  // namespace

ExitCode run_install(const Config& config, std::ostream& out) {
  return with_fs_errors("install", [&] { return install_here(config, out); });
}

ExitCode run_uninstall(const Config& config, std::ostream& out) {
  return with_fs_errors("uninstall", [&] { return uninstall_here(config, out); });
}

namespace {

ExitCode install_here(const Config& config, std::ostream& out) {
  const auto& file = config.reports.at(0);
  const auto report = read_report("REPORT", file);
  // The boot unit outlives a build directory: the installed binary unless --exe names one.
  const std::string exe = config.install_exe.value_or("/usr/bin/disktune");
  std::error_code ec;  // --root / (or /.) is the running system, as no --root is
  const bool live = !config.install_root || (!config.install_root->empty() && fs::equivalent(*config.install_root, "/", ec));
  if (live && !fs::exists(exe))
    throw RunError(kExitUsage, "install: " + exe + " does not exist: the boot unit and the resume hook would run "
                               "nothing; install the binary first (cmake --install build --prefix /usr) or name "
                               "it with --exe; nothing installed");
  const auto files = install_files(report, read_file(file), exe);
  for (const auto& f : files) {  // all checked first: a refusal writes nothing
    const auto path = under(config.install_root, f.path);
    if (const auto through = crossing(config.install_root, f.path); !through.empty())
      throw RunError(kExitUsage, "install: " + through + " is a symbolic link out of the root or no directory: " +
                                 path.string() + " could land outside the root; nothing installed");
    if (kind_of(path) == Kind::other)
      throw RunError(kExitUsage, "install: " + path.string() + " is a symbolic link, a directory or a device: "
                                 "install writes only regular files; nothing installed");
    if (kind_of(path) == Kind::regular && !ours(path, report.device))
      throw RunError(kExitUsage, "install: " + path.string() + " exists and was not written by disktune install "
                                 "for this drive (a key another drive shares, or a file of your own); nothing installed");
  }
  const auto link = under(config.install_root, kUnitLink);
  if (!crossing(config.install_root, kUnitLink).empty() || (kind_of(link) != Kind::absent && !our_link(link)))
    throw RunError(kExitUsage, "install: " + link.string() + " is not disktune's enable link (or its directory is "
                               "a symbolic link out of the root); nothing installed");
  for (const auto& f : files) {
    const auto path = under(config.install_root, f.path);
    write_file(path, f);
    out << "disktune: wrote " << path.string() << '\n';
  }
  if (kind_of(link) == Kind::absent) {  // what `systemctl enable` makes
    fs::create_directories(link.parent_path());
    fs::create_symlink("../disktune-apply.service", link);
    out << "disktune: enabled " << link.string() << " -> ../disktune-apply.service\n";
  }
  return kExitOk;
}

ExitCode uninstall_here(const Config& config, std::ostream& out) {
  const auto report = read_report("REPORT", config.reports.at(0));
  const auto key = install_key(report.device);
  const auto config_dir = under(config.install_root, kConfigDir);
  const auto mine = config_dir / (key + ".json");
  std::vector<std::string> remove = {std::string(kConfigDir) + "/" + key + ".json",
                                     "etc/udev/rules.d/69-disktune-" + key + ".rules"};
  if (!other_reports_left(config_dir, mine)) remove.insert(remove.end(), {kUnitLink, kUnit, kSleepHook});
  if (kind_of(mine) == Kind::regular && !ours(mine, report.device)) {
    out << "disktune: left " << mine.string() << " and its rule: installed for another drive\n";
    return kExitOk;
  }
  for (const auto& relative : remove) {
    const auto path = under(config.install_root, relative);
    if (const auto through = crossing(config.install_root, relative); !through.empty()) {
      out << "disktune: left " << path.string() << ": " << through
          << " is a symbolic link out of the root or no directory\n";
      continue;
    }
    if (kind_of(path) == Kind::absent) continue;
    if (!(relative == std::string(kUnitLink) ? our_link(path) : ours(path, report.device))) {
      out << "disktune: left " << path.string() << ": not written by disktune install\n";
      continue;
    }
    fs::remove(path);
    out << "disktune: removed " << path.string() << '\n';
  }
  return kExitOk;
}

}  // namespace

}  // namespace disktune::tuner
