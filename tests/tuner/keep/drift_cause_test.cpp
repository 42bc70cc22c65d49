// SPDX-License-Identifier: GPL-2.0-or-later
// drift_cause: a cause only from evidence, in order of how directly it explains the drift.
#include "tuner/keep/drift_cause.hpp"

#include <catch2/catch.hpp>

using namespace disktune;
using namespace disktune::tuner;
using probe::SettingId;

namespace {

// Applied at 10:00:00 in boot-a, kernel clock 100 s; the records as /dev/kmsg gives them.
DriftEvidence applied_with_log(const std::string& kmsg_text) {
  DriftEvidence evidence{"", "2026-12-01T10:00:00Z", "boot-a", "boot-a", std::nullopt};
  evidence.applied_usec = 100'000'000;
  const auto records = probe::parse_kmsg_text(kmsg_text);
  evidence.resume = probe::first_resume(records);
  evidence.reset = probe::first_reset(records, probe::DevicePorts{"ata3", "2:0:0:0"});
  return evidence;
}

// What a suspend-to-RAM and resume log, and libata's reset of the port on the way back.
constexpr const char* kSuspendResume =
    "6,900,110000000,-;PM: suspend entry (deep)\n"
    "6,901,110100000,-;ACPI: PM: Preparing to enter system sleep state S3\n"
    "6,902,112300000,-;ACPI: PM: Low-level resume complete\n"
    "6,903,113000000,-;ata3: SATA link up 6.0 Gbps (SStatus 133 SControl 300)\n"
    "6,904,113100000,-;ata3.00: configured for UDMA/133\n"
    "6,905,114000000,-;PM: suspend exit\n";

}  // namespace

TEST_CASE("drift cause: no evidence, no cause", "[tuner]") {
  REQUIRE(drift_cause({}, SettingId::max_sectors_kb).empty());
  DriftEvidence same_boot{"", "2026-12-01T10:00:00Z", "boot-a", "boot-a", std::nullopt};
  REQUIRE(drift_cause(same_boot, SettingId::apm).empty());
  // A udev event before the apply explains nothing.
  same_boot.udev_event_at = *parse_utc("2026-12-01T09:59:59Z");
  REQUIRE(drift_cause(same_boot, SettingId::max_sectors_kb).empty());
  // Kernel log lines that are neither a resume nor this port's reset explain nothing.
  const auto other = applied_with_log("6,900,110000000,-;ata31: hard resetting link\n"
                                      "6,901,110000001,-;ata3.00: failed command: READ FPDMA QUEUED\n"
                                      "6,902,110000002,-;sd 2:0:0:1: Power-on or device reset occurred\n"
                                      "6,903,110000003,-;PM: suspend entry (deep)\n");
  REQUIRE(drift_cause(other, SettingId::apm).empty());
  REQUIRE(drift_cause(other, SettingId::max_sectors_kb).empty());
}

TEST_CASE("drift cause: a restore, a reboot, a udev event after the apply", "[tuner]") {
  const DriftEvidence restored{"2026-12-01T11:00:00Z", "2026-12-01T10:00:00Z", "boot-a", "boot-a", std::nullopt};
  REQUIRE(drift_cause(restored, SettingId::max_sectors_kb) ==
          "'disktune restore' at 2026-12-01T11:00:00Z put back the values from before the apply");
  const DriftEvidence rebooted{"", "2026-12-01T10:00:00Z", "boot-a", "boot-b", std::nullopt};
  REQUIRE(drift_cause(rebooted, SettingId::max_sectors_kb) ==
          "the machine restarted since the apply at 2026-12-01T10:00:00Z (boot id changed) and "
          "nothing re-applied it ('disktune install' makes it permanent)");
  const DriftEvidence udev{"", "2026-12-01T10:00:00Z", "boot-a", "boot-a", *parse_utc("2026-12-01T10:30:05Z")};
  REQUIRE(drift_cause(udev, SettingId::max_sectors_kb) ==
          "udev handled an event for the device at 2026-12-01T10:30:05Z, after the apply at "
          "2026-12-01T10:00:00Z: a change event (revalidation, a rule) or a re-add");
}

TEST_CASE("drift cause: a resume after the apply explains a drive-held setting", "[tuner]") {
  auto resumed = applied_with_log(kSuspendResume);
  const std::string expected =
      "the kernel log shows a resume from suspend at +12 s after the apply ('ACPI: PM: Low-level resume complete'): "
      "drives reset APM, AAM, multcount and the transfer mode on resume; the resume hook (disktune install) "
      "re-applies them";
  for (const auto id : {SettingId::apm, SettingId::aam, SettingId::multcount, SettingId::xfermode})
    REQUIRE(drift_cause(resumed, id) == expected);
  // It names the resume over udev's event of the same resume, and a reboot over both.
  resumed.udev_event_at = *parse_utc("2026-12-01T10:30:05Z");
  REQUIRE(drift_cause(resumed, SettingId::apm) == expected);
  resumed.current_boot_id = "boot-b";
  REQUIRE_THAT(drift_cause(resumed, SettingId::apm), Catch::StartsWith("the machine restarted"));
  const auto hibernated = applied_with_log("6,10,99000000,-;PM: suspend exit\n"  // before the apply's clock
                                           "6,11,190000000,-;PM: hibernation: hibernation exit\n");
  REQUIRE_THAT(drift_cause(hibernated, SettingId::aam), Catch::StartsWith("the kernel log shows a resume from suspend "
                                                                         "after the apply ('PM: suspend exit')"));
  const auto only_hibernation = applied_with_log("6,11,190000000,-;PM: hibernation: hibernation exit\n");
  REQUIRE_THAT(drift_cause(only_hibernation, SettingId::aam),
               Catch::StartsWith("the kernel log shows a resume from hibernation at +90 s after the apply "
                                 "('PM: hibernation: hibernation exit')"));
}

TEST_CASE("drift cause: a reset of the drive's own port explains a drive-held setting", "[tuner]") {
  const auto reset = applied_with_log("6,900,103400000,-;ata3: hard resetting link\n"
                                      "6,901,103900000,-;ata3.00: configured for UDMA/133\n");
  REQUIRE(drift_cause(reset, SettingId::xfermode) ==
          "the kernel log shows ata3 was reset at +3 s after the apply ('ata3: hard resetting link'): a reset restores "
          "the drive's power-on defaults");
  const auto revalidated = applied_with_log("3,900,103400000,-;ata3.00: revalidation failed (errno=-5)\n");
  REQUIRE_THAT(drift_cause(revalidated, SettingId::multcount), Catch::Contains("ata3 was reset at +3 s"));
  const auto scsi = applied_with_log("4,900,101000000,-;sd 2:0:0:0: Power-on or device reset occurred\n");
  REQUIRE_THAT(drift_cause(scsi, SettingId::apm),
               Catch::StartsWith("the kernel log shows sd 2:0:0:0 was reset at +1 s after the apply"));
}

TEST_CASE("drift cause: a resume or reset alone does not explain a kernel setting", "[tuner]") {
  auto resumed = applied_with_log(kSuspendResume);
  REQUIRE(drift_cause(resumed, SettingId::max_sectors_kb) ==
          "cause unknown: the kernel log shows a resume from suspend at +12 s after the apply ('ACPI: PM: Low-level "
          "resume complete'), but that does not itself change the kernel's settings of the device (queue, readahead) "
          "and udev shows no event for it since");
  // With udev's event after the apply: udev's cause, the resume as what may have set it off.
  resumed.udev_event_at = *parse_utc("2026-12-01T10:30:05Z");
  REQUIRE(drift_cause(resumed, SettingId::read_ahead_kb) ==
          "udev handled an event for the device at 2026-12-01T10:30:05Z, after the apply at 2026-12-01T10:00:00Z: a "
          "change event (revalidation, a rule) or a re-add; the kernel log also shows a resume from suspend at +12 s "
          "after the apply ('ACPI: PM: Low-level resume complete')");
  const auto reset = applied_with_log("6,900,103400000,-;ata3: soft resetting link\n");
  REQUIRE_THAT(drift_cause(reset, SettingId::nr_requests),
               Catch::StartsWith("cause unknown: the kernel log shows ata3 was reset at +3 s after the apply"));
}

TEST_CASE("drift cause: records overwritten since the apply leave a drive-held setting's cause open", "[tuner]") {
  auto lost = applied_with_log("6,950,150000000,-;loop2: detected capacity change from 0 to 32768\n");
  lost.kernel_log_lost = true;
  REQUIRE(drift_cause(lost, SettingId::apm) ==
          "cause unknown: the kernel log no longer holds every record since the apply (its ring buffer overwrote "
          "them), so a resume or reset then cannot be ruled out");
  REQUIRE(drift_cause(lost, SettingId::max_sectors_kb).empty());
  lost.udev_event_at = *parse_utc("2026-12-01T10:30:05Z");
  REQUIRE_THAT(drift_cause(lost, SettingId::apm), Catch::StartsWith("udev handled an event"));
}

TEST_CASE("parse_utc reads the journal's timestamps and nothing else", "[tuner]") {
  REQUIRE(parse_utc("1970-01-01T00:01:40Z") == std::optional<std::time_t>(100));
  REQUIRE_FALSE(parse_utc("yesterday").has_value());
  REQUIRE_FALSE(parse_utc("").has_value());
}

TEST_CASE("drift cause: a disktune command holding the device comes first, and a restore names its journal", "[tuner]") {
  DriftEvidence running{"2026-12-01T11:00:00Z", "2026-12-01T10:00:00Z", "boot-a", "boot-b", std::nullopt};
  running.lock_holder = "pid 4242 (disktune tune /dev/loop0 --only read_ahead_kb)";
  // A tune under way: its trial or baseline may be what the drive reads, whatever the journal says.
  REQUIRE(drift_cause(running, SettingId::read_ahead_kb) ==
          "a disktune command holds the device now: pid 4242 (disktune tune /dev/loop0 --only read_ahead_kb); what "
          "the drive reads may be its doing (a tune's trial or baseline, an apply or a restore under way): verify "
          "again once it has ended");
  running.lock_holder.clear();
  running.apply_journal = "/tmp/aj";
  REQUIRE(drift_cause(running, SettingId::read_ahead_kb) ==
          "'disktune restore' at 2026-12-01T11:00:00Z put back the values from before the apply (apply journal /tmp/aj)");
}

// After a tune killed in a trial, verify said "cause unknown" of the trial's value while the
// tune's journal, which it could read, owed the restore that explains it.
TEST_CASE("drift cause: a tune journal that owes a restore comes before any apply record", "[tuner]") {
  DriftEvidence evidence{"2026-12-01T11:00:00Z", "2026-12-01T10:00:00Z", "boot-a", "boot-a", std::nullopt};
  evidence.unrestored_tune = "the tune journaled in /var/lib/disktune/loop0.journal did not end (killed?): the disk "
                             "may still hold a trial's settings";
  REQUIRE(drift_cause(evidence, SettingId::read_ahead_kb) == evidence.unrestored_tune);
  evidence.lock_holder = "pid 7 (disktune tune /dev/loop0)";  // a tune running now says more
  REQUIRE_THAT(drift_cause(evidence, SettingId::read_ahead_kb), Catch::StartsWith("a disktune command holds"));
}
