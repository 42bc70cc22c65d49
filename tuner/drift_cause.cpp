// SPDX-License-Identifier: GPL-2.0-or-later
// drift_cause and parse_utc.
#include "tuner/drift_cause.hpp"

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

namespace {

std::string utc_text(std::time_t when) {
  std::tm tm{};
  ::gmtime_r(&when, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

std::string drift_cause(const DriftEvidence& evidence) {
  if (!evidence.restored_at.empty())
    return "'disktune restore' at " + evidence.restored_at + " put back the values from before the apply";
  if (evidence.applied_at.empty()) return "";
  if (!evidence.applied_boot_id.empty() && !evidence.current_boot_id.empty() &&
      evidence.applied_boot_id != evidence.current_boot_id)
    return "the machine restarted since the apply at " + evidence.applied_at +
           " (boot id changed) and nothing re-applied it ('disktune install' makes it permanent)";
  const auto applied = parse_utc(evidence.applied_at);
  if (applied && evidence.udev_event_at && *evidence.udev_event_at > *applied)
    return "udev handled an event for the device at " + utc_text(*evidence.udev_event_at) + ", after the apply at " +
           evidence.applied_at + ": a change event (revalidation, a rule) or a re-add";
  return "";
}

}  // namespace disktune::tuner
