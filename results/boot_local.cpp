// SPDX-License-Identifier: GPL-2.0-or-later
// The boot.local snippet: header, one hdparm line, then sysfs queue lines.
#include "results/boot_local.hpp"

#include "results/hdparm_flags.hpp"
#include "results/snippet.hpp"

#include "probe/core/assert.hpp"

namespace disktune::results {
namespace {

constexpr std::string_view kDiskVar = "disktune_disk";

std::string shell_value(probe::SettingId id, const probe::SettingValue& value) {
  if (value.is_number()) return std::to_string(value.number());
  DT_ASSERT(id == probe::SettingId::scheduler);
  check_scheduler_name(value.text());
  return "'" + value.text() + "'";
}

std::string queue_lines(const SnippetTarget& target, const probe::Settings& queue) {
  if (queue.empty()) return "";
  std::string text;
  const bool resolve = !target.stable_path.empty();
  const std::string dir = resolve ? "/sys/block/$" + std::string(kDiskVar)
                                  : "/sys/block/" + target.kernel_name;
  if (resolve)
    text += std::string(kDiskVar) + "=$(basename \"$(readlink -f " + target.stable_path + ")\")\n";
  for (const auto& [id, value] : probe::in_apply_order(queue)) {
    std::string attr = dir + "/" + probe::sysfs_block_path(id);
    if (resolve) attr = '"' + attr + '"';
    text += "echo " + shell_value(id, value) + " > " + attr + '\n';
  }
  return text;
}

}  // namespace

std::string BootLocalEmitter::render(const Report& report) const {
  auto [target, changes, text, complete] = start_snippet(report, "boot.local snippet");
  if (complete) return text;
  text += "# Add to /etc/init.d/boot.local (SUSE) or /etc/rc.local: these settings are lost at\n"
          "# power off (hdparm's often also at suspend/resume), so they must run at every boot.\n";
  if (report.device.simulated)
    text += "# The simulated drive has no device node: " + target.hdparm_device +
            (target.hdparm_device == "/dev/hdb" ? " is the seed walkthrough's name for it.\n"
                                                : " is a placeholder.\n");
  text += rewritten_comment(report, changes);
  if (const auto flags = changes_as_hdparm_flags(changes); !flags.empty())
    text += "hdparm " + flags + ' ' + target.hdparm_device + '\n';
  return text + queue_lines(target, queue_changes(changes));
}

}  // namespace disktune::results
