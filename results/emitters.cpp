// SPDX-License-Identifier: GPL-2.0-or-later
// Emitter registry (fio-style name table).
#include "results/emitters.hpp"

#include "results/boot_local.hpp"
#include "results/hdparm_conf.hpp"
#include "results/json_report.hpp"
#include "results/table.hpp"
#include "results/tuned_profile.hpp"
#include "results/udev_rules.hpp"

#include <array>

namespace disktune::results {
namespace {

using Factory = std::unique_ptr<Emitter> (*)();

template <class T>
std::unique_ptr<Emitter> make() {
  return std::make_unique<T>();
}

struct Entry {
  std::string_view name;
  Factory factory;
};

constexpr std::array<Entry, 6> kEntries{{{"boot-local", &make<BootLocalEmitter>},
                                         {"hdparm-conf", &make<HdparmConfEmitter>},
                                         {"udev", &make<UdevRulesEmitter>},
                                         {"tuned", &make<TunedProfileEmitter>},
                                         {"table", &make<TableEmitter>},
                                         {"json", &make<JsonEmitter>}}};

constexpr std::array<std::string_view, kEntries.size()> kNames{
    kEntries[0].name, kEntries[1].name, kEntries[2].name,
    kEntries[3].name, kEntries[4].name, kEntries[5].name};

}  // namespace

std::span<const std::string_view> emitter_names() { return kNames; }

probe::Result<std::unique_ptr<Emitter>> make_emitter(std::string_view name) {
  for (const auto& entry : kEntries)
    if (entry.name == name) return entry.factory();
  std::string valid;
  for (const auto known : kNames) valid += (valid.empty() ? "" : ", ") + std::string(known);
  return probe::Error{std::make_error_code(std::errc::invalid_argument),
                      "unknown output format '" + std::string(name) + "' (valid: " + valid + ")",
                      ""};
}

}  // namespace disktune::results
