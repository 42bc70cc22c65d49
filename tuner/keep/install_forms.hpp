// SPDX-License-Identifier: GPL-2.0-or-later
// The persistence forms `disktune install --form` writes, and the two that
// live in files shared with other programs: a marked block in Debian's /etc/hdparm.conf and a
// TuneD profile of its own.
#pragma once

#include "results/report.hpp"
#include "tuner/run_error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace disktune::tuner {

/// A way of keeping a report's answer in effect across reboots, udev events and resume.
enum class InstallForm {
  udev,         ///< etc/udev/rules.d/69-disktune-KEY.rules (results::udev_rule)
  systemd,      ///< the boot unit disktune-apply.service and the system-sleep hook
  hdparm_conf,  ///< a block in etc/hdparm.conf (Debian's hdparm package reads it at boot and on hot-plug)
  tuned,        ///< the TuneD profile etc/tuned/disktune-KEY/tuned.conf (Red Hat family)
};

/// What `install` writes without --form: the udev rule and the systemd unit and hook.
inline const std::vector<InstallForm> kDefaultInstallForms{InstallForm::udev, InstallForm::systemd};

/// The mark every file install writes carries (a comment): uninstall removes only marked files.
inline constexpr const char* kInstallMark = "written by disktune install";

/// Whether `text` (a file's content) starts with install's mark: "# " + kInstallMark opening
/// its first line, or its second after a "#!" line (the sleep hook), followed by a space, ':'
/// or the line's end. Anywhere else the words are someone's own ("# NOT written by disktune
/// install") and the file theirs: install neither replaces nor removes it.
bool carries_mark(std::string_view text);

/// --form's text: comma-separated names "udev", "systemd", "hdparm-conf", "tuned", each at
/// most once, in any order; returned in the order above. Throws UsageError naming an unknown
/// or repeated name, or an empty list.
std::vector<InstallForm> parse_install_forms(const std::string& list);

/// Why the program at `path` cannot be what the boot unit and the resume hook run (it does not
/// exist or is not an executable regular file), with how to fix it, or nullopt when it can.
/// `root`: the --root the unit is installed under ("" for the running system: the binary must
/// be there now; under another root it may come later, so the words say where it goes). An
/// empty `path` (resolve_under_root's answer past 40 symlinks) is said as such.
std::optional<std::string> missing_exe(const std::string& path, const std::string& root);

/// The file `path` (absolute, as the system installed at `root` names it) is on this machine:
/// every symlink on the way resolved as that system resolves it, an absolute target under
/// `root` rather than this machine's / (as chroot(2) would). A missing component ends the
/// walk: the path as resolved so far with the rest appended (a dangling link is left for
/// missing_exe to report). More than 40 symlinks (the kernel's MAXSYMLINKS): an empty path.
std::filesystem::path resolve_under_root(const std::filesystem::path& root, const std::string& path);

/// `exe` when it is a plain absolute path ([A-Za-z0-9/._+-], starting with '/'), which udev,
/// systemd and sh take as it is; throws RunError(exit 2) naming it otherwise.
std::string checked_exe(const std::string& exe);

/// The shared boot unit disktune-apply.service: a oneshot running `EXE apply --config
/// /etc/disktune` after udev has settled the disks (systemd.service(5); ExecStart= takes an
/// absolute path), wanted by multi-user.target, skipped when /etc/disktune is empty.
std::string systemd_unit_text(const std::string& exe);

/// The shared system-sleep hook (systemd-suspend.service(8): run with "pre" or "post" and the
/// sleep kind): on "post", after resume, `EXE apply --config /etc/disktune`.
std::string sleep_hook_text(const std::string& exe);

/// The ExecStart= line of a unit's text, or "" when it has none.
std::string exec_start(const std::string& unit);

/// The lines that open and close KEY's block in hdparm.conf ("# BEGIN disktune install KEY",
/// "# END disktune install KEY"). Debian's reader (/lib/hdparm/hdparm-functions) skips comment
/// lines anywhere, so the markers change nothing it reads.
std::string hdparm_conf_begin(const std::string& key);
std::string hdparm_conf_end(const std::string& key);

/// `conf` (a whole hdparm.conf) with KEY's block set to `block` (HdparmConfEmitter's text,
/// wrapped in the markers): an existing block of KEY is replaced in place, otherwise the block
/// is appended after a blank line. With an empty `block` KEY's block is removed with the blank
/// line before it, so an install then an uninstall gives back `conf` byte for byte. Every
/// other line is kept as it is (a last line without a newline gets one). The markers are also
/// found with CRLF endings. A BEGIN line without its END, or KEY's BEGIN line twice, is a
/// damaged block: throws std::invalid_argument naming the key (nothing is guessed about where
/// it ends, and no line of the user's between two BEGINs is dropped).
std::string with_hdparm_conf_block(const std::string& conf, const std::string& key, const std::string& block);

/// Whether `conf` holds KEY's block (its BEGIN line).
bool has_hdparm_conf_block(const std::string& conf, const std::string& key);

/// The TuneD profile directory name of KEY ("disktune-KEY"), under etc/tuned.
std::string tuned_profile_name(const std::string& key);

/// The whole tuned.conf of profile disktune-KEY: `mark_line` (a comment), a [main] section with
/// a summary, then `fragment` (TunedProfileEmitter's text). The profile includes no other one:
/// TuneD merges it with the active profile when both are named (`tuned-adm profile ACTIVE
/// disktune-KEY`), so installing it changes nothing until the operator does that.
std::string tuned_profile_file(const std::string& key, const std::string& mark_line, const std::string& fragment);

/// The hdparm.conf block of `report`'s answer (results::HdparmConfEmitter), to wrap with
/// with_hdparm_conf_block. Throws RunError(exit 2) naming `file` when the block would hold no
/// stanza: the answer changes no setting hdparm.conf holds (the ATA knobs and read_ahead_sect),
/// or Debian's hdparm never applies a block to this drive (kernel name not sd[a-z]/hd[a-z]).
std::string hdparm_conf_form(const results::Report& report, const std::string& file);

/// The TuneD fragment of `report`'s answer (results::TunedProfileEmitter). Throws RunError
/// (exit 2) naming `file` when it holds no unit, or matches the drive by kernel name only
/// (no ID_WWN or ID_SERIAL: a loop device), which is no stable identity after a reboot.
std::string tuned_form(const results::Report& report, const std::string& file);

}  // namespace disktune::tuner
