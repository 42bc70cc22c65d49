// SPDX-License-Identifier: GPL-2.0-or-later
// `disktune install` / `uninstall`: a report's answer made permanent, keyed by the drive's identity.
#pragma once

#include "results/saved_report.hpp"
#include "tuner/keep/install_forms.hpp"
#include "tuner/run_error.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace disktune::tuner {

/// Where install writes, relative to the root (--root, or /).
inline constexpr const char* kConfigDir = "etc/disktune";
inline constexpr const char* kUnit = "etc/systemd/system/disktune-apply.service";
inline constexpr const char* kUnitLink = "etc/systemd/system/multi-user.target.wants/disktune-apply.service";
inline constexpr const char* kSleepHook = "usr/lib/systemd/system-sleep/disktune";
inline constexpr const char* kHdparmConf = "etc/hdparm.conf";

/// `install` and `uninstall`'s options (docs/apply.md): which report, where, with which binary,
/// in which forms.
struct InstallOptions {
  std::string report;                      ///< install/uninstall REPORT: the report file as given
  std::optional<std::string> root;         ///< --root DIR (default /)
  std::optional<std::string> exe;          ///< install --exe PATH: the binary the unit and the hook run
  std::vector<InstallForm> forms = kDefaultInstallForms;  ///< install --form LIST
};

/// One file install writes, relative to the root ("etc/udev/rules.d/69-disktune-KEY.rules").
struct InstalledFile {
  std::string path;      ///< relative to --root (or /)
  std::string content;
  bool executable = false;
  bool shared = false;   ///< one for every installed drive: removed with the last drive
  /// Non-empty: `content` is this KEY's block of a file other programs own (etc/hdparm.conf),
  /// merged into it by with_hdparm_conf_block and taken out of it again by uninstall.
  std::string block_key{};
};

/// The file-name key of the report's drive: a loop device by its backing file, a disk by
/// model and serial (udev's ID_SERIAL: both non-blank), else by its wwid, as
/// results::udev_match_clause matches it; characters outside [A-Za-z0-9._-] become '_'; one
/// over 200 characters is its tail and hash (unique_journal_key), so file names fit NAME_MAX.
/// Throws RunError(exit 2) when the drive has none of these (drive_match.hpp
/// has_stable_identity, or a serial without a model): a rule keyed on a kernel name could
/// set another disk, and one with no match sets nothing.
std::string install_key(const results::DeviceInfo& device);

/// The files `install` writes for `report` in `forms`, always with the
/// report itself as etc/disktune/KEY.json (what `apply --config /etc/disktune` reads):
/// - udev: etc/udev/rules.d/69-disktune-KEY.rules (results::udev_rule: re-applies the
///   winner's queue settings, and its ATA ones through hdparm, on every add and change
///   event, so revalidation cannot undo them);
/// - systemd: the shared oneshot etc/systemd/system/disktune-apply.service (`EXE apply
///   --config /etc/disktune` at boot, after udev has settled the disks; it applies every
///   report in the directory) with its multi-user.target.wants link, and the shared
///   system-sleep hook usr/lib/systemd/system-sleep/disktune (on `post`, after resume, the
///   same apply: a drive resets APM, AAM, multcount and its transfer mode on resume);
/// - hdparm-conf: KEY's block in etc/hdparm.conf (hdparm_conf_form; Debian's hdparm applies
///   it at boot and on hot-plug, by the by-id name);
/// - tuned: the profile etc/tuned/disktune-KEY/tuned.conf (tuned_form), used once the
///   operator runs `tuned-adm profile ACTIVE disktune-KEY`.
/// `exe`: the disktune binary the unit and hook run. Throws RunError(exit 2) as install_key,
/// hdparm_conf_form and tuned_form, and for a report that keeps the baseline.
std::vector<InstalledFile> install_files(const results::SavedReport& report, const std::string& report_text,
                                         const std::string& exe, const std::vector<InstallForm>& forms);

/// `disktune install REPORT [--root DIR] [--exe PATH] [--form LIST]`: write install_files under DIR
/// (default /) for the binary --exe (default /usr/sbin/disktune; without --root, or with a
/// DIR that is /, it must exist: exit 2, nothing written), each
/// atomically; refused (exit 2), nothing written: a file already there that disktune did not
/// write (no "written by disktune install" mark) or a report of another drive under the same
/// KEY; a symlink, directory, FIFO or device at a target path; a directory between DIR and a
/// target that is no directory or a symlink leading out of DIR; an empty DIR, or one that is no
/// existing directory (a typo: nothing is made); an --exe other
/// than the one the installed boot unit of other drives runs (the unit is shared). Temporary
/// files an install killed before its rename left beside a target (".NAME.XXXXXX", over a
/// minute old) are removed. Prints every path written.
ExitCode run_install(const InstallOptions& install, std::ostream& out);

/// `disktune uninstall REPORT [--root DIR]`: remove the drive's files install wrote in any
/// form (its rule, its hdparm.conf block, leaving the rest of that file byte for byte, its
/// TuneD profile directory), and the shared unit, link and hook when no installed report is left; a file without disktune's
/// mark, one reached through a symlink out of DIR, and every file of a KEY whose report is
/// another drive's are left alone and named. Prints every path removed. Exit 0; 2 on bad input
/// (as for install: a DIR that is empty or no existing directory).
ExitCode run_uninstall(const InstallOptions& install, std::ostream& out);

}  // namespace disktune::tuner
