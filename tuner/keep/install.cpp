// SPDX-License-Identifier: GPL-2.0-or-later
// run_install and run_uninstall: install_files written under a root, and taken out again.
#include "tuner/keep/install.hpp"

#include "results/udev_rules.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/keep/install_lock.hpp"
#include "tuner/keep/install_forms.hpp"
#include "tuner/keep/apply.hpp"
#include "tuner/journal/journal_file.hpp"
#include "tuner/host/output_file.hpp"

#include <algorithm>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>

namespace disktune::tuner {
namespace {

namespace fs = std::filesystem;

// A temporary file of write_output this old is no write in progress: an install killed before its rename.
constexpr std::chrono::seconds kStaleTemporary{60};

// A file install wrote or will compare against. One it cannot read (over kMaxInputBytes, a read
// error) is refused by name: read as "" it would pass for a file of someone else's, or for a
// unit with no ExecStart=.
std::string read_file(const fs::path& path) {
  auto text = read_whole_file(path.string());
  if (!text)
    throw RunError(kExitUsage, "install: " + path.string() + " cannot be read (unreadable, not a regular file, or over " +
                                   std::to_string(kMaxInputBytes >> 20) + " MiB); nothing done");
  return std::move(*text);
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
// with the mark (carries_mark).
bool ours(const fs::path& path, const results::DeviceInfo& device) {
  if (kind_of(path) != Kind::regular) return false;
  const auto text = read_file(path);
  if (path.extension() != ".json") return carries_mark(text);
  // Its identity only: a copy installed before the winner check must stay ours to replace or remove.
  const auto installed = results::parse_saved_report(text, path.string(), false);
  // The same match, not the same identity: a drive re-tuned after a firmware update is ours.
  return installed.has_value() && results::udev_match_clause(installed.value().device) == results::udev_match_clause(device);
}

// The root install writes under: / or an existing directory (--root names a system image; one
// that does not exist is a typo, and creating it would install into nowhere with exit 0).
fs::path root_of(const std::optional<std::string>& root) {
  if (!root) return "/";
  if (root->empty()) throw RunError(kExitUsage, "--root '': an empty root names no directory; nothing done");
  std::error_code ec;
  const auto status = fs::status(*root, ec);
  if (!fs::exists(status)) {
    const bool missing = !ec || ec == std::errc::no_such_file_or_directory;  // else: a loop, a name too long, ...
    throw RunError(kExitUsage, "--root " + *root + ": " + (missing ? "no such directory" : ec.message()) + "; nothing done");
  }
  if (!fs::is_directory(status)) throw RunError(kExitUsage, "--root " + *root + ": not a directory; nothing done");
  return fs::path(*root);
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

void write_file(const fs::path& path, const std::string& content, bool executable) {
  fs::create_directories(path.parent_path());
  write_output(path.string(), content);
  if (executable) ::chmod(path.c_str(), 0755);
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

namespace {

ExitCode install_here(const InstallOptions& install, std::ostream& out);
ExitCode uninstall_here(const InstallOptions& install, std::ostream& out);

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

ExitCode run_install(const InstallOptions& install, std::ostream& out) {
  const auto lock = lock_install_root(root_of(install.root).string(), "install");
  return with_fs_errors("install", [&] { return install_here(install, out); });
}

ExitCode run_uninstall(const InstallOptions& install, std::ostream& out) {
  const auto lock = lock_install_root(root_of(install.root).string(), "uninstall");
  return with_fs_errors("uninstall", [&] { return uninstall_here(install, out); });
}

namespace {

// What install writes at `path` for `f`: the file, or the whole hdparm.conf with f's block in it.
std::string content_at(const fs::path& path, const InstalledFile& f) {
  if (f.block_key.empty()) return f.content;
  std::string existing;
  if (kind_of(path) == Kind::regular) {
    auto text = read_whole_file(path.string());  // never "" for a file that could not be read: it would be replaced
    if (!text)
      throw RunError(kExitUsage, "install: " + path.string() + " cannot be read whole (at most " +
                                 std::to_string(kMaxInputBytes >> 20) + " MiB): nothing installed");
    existing = std::move(*text);
  }
  try {
    return with_hdparm_conf_block(existing, f.block_key, f.content);
  } catch (const std::invalid_argument& e) {
    throw RunError(kExitUsage, "install: " + path.string() + ": " + e.what() + "; nothing installed");
  }
}

// Refuses (exit 2) a target install must not write: through a link out of the root, over
// what is no regular file, over a file of someone else (a shared file takes only our block).
void check_target(const InstallOptions& install, const InstalledFile& f, const results::DeviceInfo& device) {
  const auto path = under(install.root, f.path);
  if (const auto through = crossing(install.root, f.path); !through.empty())
    throw RunError(kExitUsage, "install: " + through + " is a symbolic link out of the root or no directory: " +
                               path.string() + " could land outside the root; nothing installed");
  if (kind_of(path) == Kind::other)
    throw RunError(kExitUsage, "install: " + path.string() + " is a symbolic link, a directory or a device: "
                               "install writes only regular files; nothing installed");
  if (f.block_key.empty() && kind_of(path) == Kind::regular && !ours(path, device))
    throw RunError(kExitUsage, "install: " + path.string() + " exists and was not written by disktune install "
                               "for this drive (a key another drive shares, or a file of your own); nothing installed");
  (void)content_at(path, f);  // a damaged block of ours is refused before anything is written
}

// The boot unit is shared: another drive's install made it run its --exe, which this one keeps.
void check_shared_unit(const InstallOptions& install, const std::vector<InstalledFile>& files, const fs::path& mine) {
  const auto unit = std::find_if(files.begin(), files.end(), [](const auto& f) { return f.path == kUnit; });
  const auto path = under(install.root, kUnit);
  if (unit == files.end() || kind_of(path) != Kind::regular) return;
  const auto installed = exec_start(read_file(path));
  if (installed == exec_start(unit->content) || !other_reports_left(under(install.root, kConfigDir), mine))
    return;
  throw RunError(kExitUsage, "install: " + path.string() + " of the drives already installed has '" + installed +
                             "', and this install asks for '" + exec_start(unit->content) + "': the unit is "
                             "shared, so give the same --exe (or uninstall the others first); nothing installed");
}

void check_exe(const InstallOptions& install, const std::string& exe, std::ostream& out) {
  checked_exe(exe);  // a relative or unsafe path is refused before any warning about where it is
  std::error_code ec;  // --root / (or /.) is the running system, as no --root is
  const bool live = !install.root || (!install.root->empty() && fs::equivalent(*install.root, "/", ec));
  // Under another root an absolute symlink (usr/sbin/disktune -> /opt/...) points into that root.
  const std::string at = live ? exe : resolve_under_root(root_of(install.root), exe).string();
  if (auto why = missing_exe(at, live ? "" : *install.root)) {
    if (live) throw RunError(kExitUsage, "install: " + *why + "; nothing installed");
    out << "disktune: warning: " << *why << '\n';
  }
}

void remove_stale(const fs::path& path, std::ostream& out) {
  for (const auto& stale : remove_stale_temporaries(path.string(), kStaleTemporary))
    out << "disktune: removed " << stale << " (left by an interrupted install)\n";
}

void tell_tuned(const std::vector<InstalledFile>& files, std::ostream& out) {
  for (const auto& f : files)
    if (f.path.rfind("etc/tuned/", 0) == 0)
      out << "disktune: TuneD uses " << fs::path(f.path).parent_path().filename().string()
          << " once it is named with the active profile: tuned-adm profile \"$(tuned-adm active | sed "
             "'s/^Current active profile: //')\" "
          << fs::path(f.path).parent_path().filename().string() << '\n';
}

ExitCode install_here(const InstallOptions& install, std::ostream& out) {
  const auto& file = install.report;
  const auto report = read_report("REPORT", file);
  // The boot unit outlives a build directory: the installed binary unless --exe names one.
  const std::string exe = install.exe.value_or("/usr/sbin/disktune");
  check_exe(install, exe, out);
  const auto files = install_files(report, read_file(file), exe, install.forms);
  for (const auto& f : files) check_target(install, f, report.device);  // all first: a refusal writes nothing
  check_shared_unit(install, files, under(install.root, files.front().path));
  const auto link = under(install.root, kUnitLink);
  const bool enable = std::any_of(files.begin(), files.end(), [](const auto& f) { return f.path == kUnit; });
  if (enable && (!crossing(install.root, kUnitLink).empty() || (kind_of(link) != Kind::absent && !our_link(link))))
    throw RunError(kExitUsage, "install: " + link.string() + " is not disktune's enable link (or its directory is "
                               "a symbolic link out of the root); nothing installed");
  for (const auto& f : files) {
    const auto path = under(install.root, f.path);
    remove_stale(path, out);
    write_file(path, content_at(path, f), f.executable);
    out << "disktune: wrote " << path.string() << (f.block_key.empty() ? "" : " (the block of " + f.block_key + ")")
        << '\n';
  }
  if (enable && kind_of(link) == Kind::absent) {  // what `systemctl enable` makes
    fs::create_directories(link.parent_path());
    fs::create_symlink("../disktune-apply.service", link);
    out << "disktune: enabled " << link.string() << " -> ../disktune-apply.service\n";
  }
  tell_tuned(files, out);
  return kExitOk;
}

// Whether `relative` can be removed: reached inside the root and written by install (a
// reason printed when not). Absent: false, quietly.
bool removable(const InstallOptions& install, const std::string& relative, const results::DeviceInfo& device, std::ostream& out) {
  const auto path = under(install.root, relative);
  if (const auto through = crossing(install.root, relative); !through.empty()) {
    out << "disktune: left " << path.string() << ": " << through << " is a symbolic link out of the root or no directory\n";
    return false;
  }
  if (kind_of(path) == Kind::absent) return false;
  if (!(relative == std::string(kUnitLink) ? our_link(path) : ours(path, device))) {
    out << "disktune: left " << path.string() << ": not written by disktune install\n";
    return false;
  }
  return true;
}

// KEY's block out of hdparm.conf, every other byte kept; a file left holding nothing is removed.
void remove_block(const InstallOptions& install, const std::string& key, std::ostream& out) {
  const auto path = under(install.root, kHdparmConf);
  if (kind_of(path) == Kind::absent) return;
  remove_stale(path, out);
  if (!crossing(install.root, kHdparmConf).empty() || kind_of(path) != Kind::regular) {
    out << "disktune: left " << path.string() << ": a symbolic link, no regular file, or behind a link out of the root\n";
    return;
  }
  const auto whole = read_whole_file(path.string());
  if (!whole) {
    out << "disktune: left " << path.string() << ": it cannot be read whole\n";
    return;
  }
  const auto& text = *whole;
  if (!has_hdparm_conf_block(text, key)) return;
  std::string rest;
  try {
    rest = with_hdparm_conf_block(text, key, "");
  } catch (const std::invalid_argument& e) {
    out << "disktune: left " << path.string() << ": " << e.what() << '\n';
    return;
  }
  if (rest.find_first_not_of(" \t\n") == std::string::npos) {
    fs::remove(path);
    out << "disktune: removed " << path.string() << " (it held only the block of " << key << ")\n";
    return;
  }
  write_output(path.string(), rest);
  out << "disktune: removed the block of " << key << " from " << path.string() << '\n';
}

ExitCode uninstall_here(const InstallOptions& install, std::ostream& out) {
  const auto report = read_report("REPORT", install.report, false);  // the drive's identity is all it needs
  const auto key = install_key(report.device);
  const auto config_dir = under(install.root, kConfigDir);
  const auto mine = config_dir / (key + ".json");
  const std::string tuned = "etc/tuned/" + tuned_profile_name(key) + "/tuned.conf";
  std::vector<std::string> remove = {std::string(kConfigDir) + "/" + key + ".json",
                                     "etc/udev/rules.d/69-disktune-" + key + ".rules", tuned};
  if (!other_reports_left(config_dir, mine)) remove.insert(remove.end(), {kUnitLink, kUnit, kSleepHook});
  if (kind_of(mine) == Kind::regular && !ours(mine, report.device)) {
    out << "disktune: left " << mine.string() << " and its rule: installed for another drive\n";
    return kExitOk;
  }
  for (const auto& relative : remove) {
    const auto path = under(install.root, relative);
    remove_stale(path, out);
    if (!removable(install, relative, report.device, out)) continue;
    fs::remove(path);
    out << "disktune: removed " << path.string() << '\n';
  }
  const auto profile = under(install.root, tuned).parent_path();  // once empty, and a real directory
  std::error_code ec;
  if (crossing(install.root, tuned).empty() && fs::is_directory(fs::symlink_status(profile)) &&
      fs::is_empty(profile, ec) && fs::remove(profile, ec))
    out << "disktune: removed " << profile.string() << '\n';
  remove_block(install, key, out);
  return kExitOk;
}

}  // namespace

}  // namespace disktune::tuner
