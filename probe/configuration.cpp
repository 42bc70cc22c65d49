// SPDX-License-Identifier: GPL-2.0-or-later
// apply_configuration: write in apply order, read everything back, re-write what moved, bounded.
#include "probe/configuration.hpp"

#include <set>
#include <string>

namespace disktune::probe {
namespace {

class ConfigurationCategory final : public std::error_category {
 public:
  [[nodiscard]] const char* name() const noexcept override { return "disktune.configuration"; }
  [[nodiscard]] std::string message(int) const override { return "settings do not read back as written"; }
};

// The settings of `target` that read back otherwise (with what they read), in apply order.
Result<Settings> differing(Device& device, const Settings& target) {
  Settings actual;
  for (const auto id : all_settings()) {
    const auto wanted = target.find(id);
    if (wanted == target.end()) continue;
    auto now = device.read(id);
    if (!now) return now.error();
    if (*now != wanted->second) actual.emplace(id, *now);
  }
  return actual;
}

Result<void> write(Device& device, SettingId id, const SettingValue& value,
                   const std::function<void()>& on_write) {
  auto applied = device.apply(id, value);
  if (on_write) on_write();
  if (applied) return {};
  Error error = applied.error();
  const std::string setting = std::string(setting_name(id)) + "=" + format_value(id, value);
  if (error.op.find(setting) == std::string::npos) error.op += " (setting " + setting + ")";
  return error;
}

// One pass in apply order: each setting is read when its turn comes (an earlier write of this
// pass may have moved it, or set it already) and written if it differs, cannot be read (the
// write then says why), or is `forced`.
Result<void> write_pass(Device& device, const Settings& target, const std::set<SettingId>& forced,
                        const std::function<void()>& on_write) {
  for (const auto id : all_settings()) {
    const auto wanted = target.find(id);
    if (wanted == target.end()) continue;
    if (!forced.count(id))
      if (const auto now = device.read(id); now && *now == wanted->second) continue;
    if (auto wrote = write(device, id, wanted->second, on_write); !wrote) return wrote;
  }
  return {};
}

Error not_converged(const Settings& target, const Settings& actual, std::size_t passes, const std::string& path) {
  std::string text;
  for (const auto id : all_settings()) {
    const auto now = actual.find(id);
    if (now == actual.end()) continue;
    if (!text.empty()) text += "; ";
    text += std::string(setting_name(id)) + " reads back " + format_value(id, now->second) +
            " instead of " + format_value(id, target.at(id));
  }
  return Error{make_error_code(ConfigurationErrc::not_read_back),
               text + " (after " + std::to_string(passes) + " passes)", path};
}

// The full target: `target` over the device's current values, without the tunables of a
// scheduler the target does not hold.
Result<Settings> full_target(Device& device, const Settings& target) {
  auto full = device.snapshot();
  if (!full) return full.error();
  // A scheduler switch removes the old one's tunables: with_changes keeps only its own.
  return with_changes(std::move(*full), target);
}

}  // namespace

const std::error_category& configuration_category() {
  static const ConfigurationCategory category;
  return category;
}

std::error_code make_error_code(ConfigurationErrc errc) {
  return {static_cast<int>(errc), configuration_category()};
}

bool is_not_read_back(const Error& error) {
  return error.code == make_error_code(ConfigurationErrc::not_read_back);
}

std::size_t max_configuration_passes(std::size_t count) { return count + 2; }

Result<void> apply_configuration(Device& device, const Settings& target, const std::function<void()>& on_write) {
  auto full = full_target(device, target);
  if (!full) return full.error();
  std::set<SettingId> forced;
  for (const auto& [id, value] : target)
    if (!device.read_back_trusted(id)) forced.insert(id);
  const std::size_t passes = max_configuration_passes(full->size());
  for (std::size_t pass = 1;; ++pass) {
    if (auto wrote = write_pass(device, *full, forced, on_write); !wrote) return wrote;
    forced.clear();
    auto actual = differing(device, *full);
    if (!actual) return actual.error();
    if (actual->empty()) return {};
    if (pass == passes) return not_converged(*full, *actual, passes, device.path());
  }
}

}  // namespace disktune::probe
