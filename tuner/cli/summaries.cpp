// SPDX-License-Identifier: GPL-2.0-or-later
// Plain-text summaries of identify, plan and bench.
#include "tuner/cli/summaries.hpp"

#include "bench/stats.hpp"

#include <cstdio>
#include <sstream>

namespace disktune::tuner {
namespace {

std::string mode_list(const char* prefix, const std::vector<int>& modes, std::optional<int> active) {
  if (modes.empty()) return "none";
  std::string text;
  for (const int m : modes) text += (active == m ? "*" : "") + std::string(prefix) + std::to_string(m) + ' ';
  text.pop_back();
  return text;
}

// One bench line: " LABEL  FIGURE UNIT (median of N, spread ±S%)", the figure as the
// objective prints it (bench::figure_number: MB/s 2 decimals, IOPS whole, us 1 decimal).
std::string figure_line(const std::string& label, const bench::Objective& objective, const std::vector<double>& figures) {
  const double median = bench::median(figures);
  const std::string figure = bench::figure_number(objective, bench::score_of(objective, median));
  char line[320];
  std::snprintf(line, sizeof line, " %-26s %8s %s (median of %zu, spread ±%.1f%%)\n", label.c_str(), figure.c_str(),
                std::string(bench::unit_of(objective)).c_str(), figures.size(), 50.0 * bench::relative_spread(figures));
  return line;
}

std::string rate_line(const char* label, const std::vector<double>& rates) {
  static const bench::Objective seq_read = bench::parse_objective("seq-read", "").value();
  return figure_line(label, seq_read, rates);
}

}  // namespace

std::string identify_summary(const probe::IdentifyInfo& info, const std::string& kind) {
  std::ostringstream out;
  if (!kind.empty()) out << " [" << kind << " drive]\n";
  out << " Model=" << info.model << ", FwRev=" << info.firmware << ", SerialNo=" << info.serial << '\n'
      << " Type=" << probe::to_string(info.device_type) << ", LBA=" << (info.lba_supported ? "yes" : "no")
      << ", LBAsects=" << info.lba_sectors << '\n'
      << " MaxMultSect=" << info.max_multsect
      << ", MultSect=" << (info.multsect ? std::to_string(*info.multsect) : "?") << '\n'
      << " DMA=" << (info.dma_supported ? "yes" : "no") << ", IORDY=" << (info.iordy_supported ? "yes" : "no")
      << ", 80-wire cable=" << (info.cable_80wire ? (*info.cable_80wire ? "yes" : "no") : "not reported") << '\n'
      << " PIO modes:  " << mode_list("pio", info.pio_modes, std::nullopt) << '\n'
      << " DMA modes:  " << mode_list("mdma", info.mdma_modes, info.mdma_active) << '\n'
      << " UDMA modes: " << mode_list("udma", info.udma_modes, info.udma_active) << '\n'
      << " Checksum: " << probe::to_string(info.checksum) << ", source: " << probe::to_string(info.source) << '\n';
  for (const auto& w : info.warnings) out << " warning: " << w << '\n';
  return out.str();
}

std::string plan_summary(const results::DeviceInfo& device, const results::SpaceInfo& space,
                         const probe::Settings& original) {
  std::ostringstream out;
  const auto kind = results::device_kind(device);
  out << (kind.empty() ? "" : kind + " drive ") << device.path
      << (device.emulated_by.empty() ? "" : " (over " + device.emulated_by + ")")
      << (device.model.empty() ? "" : " (" + device.model + ")") << '\n'
      << (device.identify_note.empty() ? "" : "block-layer tuning only: " + device.identify_note + '\n')
      << "original settings: " << probe::format_settings(original) << '\n'
      << "search dimensions:\n";
  for (const auto& d : space.dimensions) {
    out << "  " << probe::setting_name(d.id) << ':';
    for (const auto& v : d.values) out << ' ' << probe::format_value(d.id, v);
    out << '\n';
  }
  out << "legal configurations: " << space.legal_count << '\n';
  if (!space.pruned.empty()) out << "left out:\n";
  for (const auto& p : space.pruned) out << "  " << p.count << " x " << p.reason << '\n';
  if (!space.unsupported.empty()) out << "not searched:\n";
  for (const auto& u : space.unsupported) out << "  " << probe::setting_name(u.id) << ": " << u.reason << '\n';
  if (!original.count(probe::SettingId::scheduler)) return out.str();
  out << "left alone (they act only on writes, and disktune never writes):\n";
  for (const auto& [name, what] : probe::write_side_tunables()) out << "  " << name << ": " << what << '\n';
  return out.str();
}

std::string bench_summary(const std::string& path, const std::string& kind, const std::vector<double>& cached_mib_s,
                          const std::vector<double>& buffered_mib_s) {
  return path + (kind.empty() ? "" : " [" + kind + " drive]") + ":\n" +
         (cached_mib_s.empty() ? "" : rate_line("Timing cached reads:", cached_mib_s)) +
         (buffered_mib_s.empty() ? "" : rate_line("Timing buffered disk reads:", buffered_mib_s));
}

std::string objective_bench_summary(const std::string& path, const bench::Objective& objective,
                                    const std::string& fio_version, const std::vector<double>& figures) {
  return path + ":\n" + figure_line(objective.name + " (" + fio_version + "):", objective, figures);
}

}  // namespace disktune::tuner
