// SPDX-License-Identifier: GPL-2.0-or-later
// drift_cause and parse_utc.
#include "tuner/keep/drift_cause.hpp"

#include <iomanip>
#include <sstream>

namespace disktune::tuner {

std::optional<std::time_t> parse_utc(const std::string& text) {
  std::tm tm{};
  std::istringstream in(text);
  in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  if (in.fail()) return std::nullopt;
  return ::timegm(&tm);
}

bool held_by_drive(probe::SettingId id) {
  using probe::SettingId;
  return id == SettingId::apm || id == SettingId::aam || id == SettingId::multcount || id == SettingId::xfermode;
}

namespace {

std::string utc_text(std::time_t when) {
  std::tm tm{};
  ::gmtime_r(&when, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// " at +12 s" after the apply, or "" when the apply's clock is unknown or later.
std::string offset_text(const probe::KernelLogEvent& event, const std::optional<std::uint64_t>& applied_usec) {
  if (!applied_usec || event.usec < *applied_usec) return "";
  return " at +" + std::to_string((event.usec - *applied_usec + 500000) / 1000000) + " s";
}

// "a resume from suspend at +12 s after the apply ('PM: suspend exit')", "ata3 was reset ...":
// what the kernel log shows, for the resume when there is one, else the reset; "" for neither.
std::string kernel_log_shows(const DriftEvidence& e) {
  if (e.resume) {
    const bool hibernation = e.resume->message.find("hibernation") != std::string::npos;
    return std::string("a resume from ") + (hibernation ? "hibernation" : "suspend") +
           offset_text(*e.resume, e.applied_usec) + " after the apply ('" + e.resume->message + "')";
  }
  if (e.reset)
    return e.reset->port + " was reset" + offset_text(*e.reset, e.applied_usec) + " after the apply ('" + e.reset->message + "')";
  return "";
}

std::string drive_cause(const DriftEvidence& e) {
  const auto shows = kernel_log_shows(e);
  if (e.resume)
    return "the kernel log shows " + shows + ": drives reset APM, AAM, multcount and the transfer mode on resume; "
           "the resume hook (disktune install) re-applies them";
  if (e.reset) return "the kernel log shows " + shows + ": a reset restores the drive's power-on defaults";
  return "";
}

std::string udev_cause(const DriftEvidence& e) {
  const auto applied = parse_utc(e.applied_at);
  if (!applied || !e.udev_event_at || *e.udev_event_at <= *applied) return "";
  return "udev handled an event for the device at " + utc_text(*e.udev_event_at) + ", after the apply at " +
         e.applied_at + ": a change event (revalidation, a rule) or a re-add";
}

}  // namespace

std::string drift_cause(const DriftEvidence& evidence, probe::SettingId id) {
  if (!evidence.lock_holder.empty())
    return "a disktune command holds the device now: " + evidence.lock_holder +
           "; what the drive reads may be its doing (a tune's trial or baseline, an apply or a restore under way): "
           "verify again once it has ended";
  if (!evidence.unrestored_tune.empty()) return evidence.unrestored_tune;
  if (!evidence.restored_at.empty())
    return "'disktune restore' at " + evidence.restored_at + " put back the values from before the apply" +
           (evidence.apply_journal.empty() ? "" : " (apply journal " + evidence.apply_journal + ")");
  if (evidence.applied_at.empty()) return "";
  if (!evidence.applied_boot_id.empty() && !evidence.current_boot_id.empty() &&
      evidence.applied_boot_id != evidence.current_boot_id)
    return "the machine restarted since the apply at " + evidence.applied_at +
           " (boot id changed) and nothing re-applied it ('disktune install' makes it permanent)";
  if (held_by_drive(id))
    if (auto cause = drive_cause(evidence); !cause.empty()) return cause;
  const auto udev = udev_cause(evidence);
  const auto shows = held_by_drive(id) ? std::string() : kernel_log_shows(evidence);
  if (!udev.empty()) return shows.empty() ? udev : udev + "; the kernel log also shows " + shows;
  if (shows.empty())
    return held_by_drive(id) && evidence.kernel_log_lost
               ? "cause unknown: the kernel log no longer holds every record since the apply (its ring buffer "
                 "overwrote them), so a resume or reset then cannot be ruled out"
               : "";
  return "cause unknown: the kernel log shows " + shows +
         ", but that does not itself change the kernel's settings of the device (queue, readahead) and udev shows no "
         "event for it since";
}

}  // namespace disktune::tuner
