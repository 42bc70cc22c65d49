// SPDX-License-Identifier: GPL-2.0-or-later
// Parsing and matching of simulated-drive behaviour profiles (Boost.JSON).
#include "probe/sim/sim_profile.hpp"

#include "probe/sim/sim_state.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <fstream>
#include <sstream>
#include <utility>

namespace disktune::probe {
namespace {

namespace json = boost::json;

constexpr std::array<std::pair<std::string_view, FaultEffect>, 7> kEffects{{
    {"hang", FaultEffect::hang},
    {"eio", FaultEffect::eio},
    {"corrupt", FaultEffect::corrupt},
    {"revert", FaultEffect::revert},
    {"reject", FaultEffect::reject},
    {"unsupported", FaultEffect::unsupported},
    {"slow", FaultEffect::slow},
}};

// Builds the errors of one profile file.
class Reader {
 public:
  explicit Reader(const std::string& name) : name_(name) {}

  [[nodiscard]] Error error(const std::string& key, const std::string& reason) const {
    return Error{std::make_error_code(std::errc::invalid_argument),
                 "sim profile key '" + key + "': " + reason, name_};
  }

  Result<double> number(const json::value& value, const std::string& key, double low,
                        double high) const {
    if (!value.is_number()) return error(key, "expected a number");
    const double number = value.to_number<double>();
    if (number < low || number > high)
      return error(key, "must be within " + std::to_string(low) + ".." + std::to_string(high));
    return number;
  }

  Result<SettingValue> setting_value(SettingId id, const json::value& value,
                                     const std::string& key) const {
    std::string text;
    if (value.is_string()) text = std::string(value.get_string());
    else if (value.is_int64()) text = std::to_string(value.get_int64());
    else if (value.is_uint64()) text = std::to_string(value.get_uint64());
    else if (value.is_bool()) text = value.get_bool() ? "1" : "0";
    else return error(key, "expected a number or a string");
    auto parsed = parse_value(id, text);
    if (!parsed) return error(key, parsed.error().op);
    return *parsed;
  }

  Result<Settings> when(const json::value& value, const std::string& key) const {
    if (!value.is_object()) return error(key, "expected an object of setting: value");
    Settings settings;
    for (const auto& entry : value.get_object()) {
      const std::string name(entry.key());
      const std::string entry_key = key + "." + name;
      const auto id = setting_from_name(name);
      if (!id) return error(entry_key, "unknown setting name");
      if (!is_sim_setting(*id))
        return error(entry_key, "not a setting of the simulated legacy IDE driver");
      auto parsed = setting_value(*id, entry.value(), entry_key);
      if (!parsed) return parsed.error();
      settings[*id] = *parsed;
    }
    return settings;
  }

  Result<FaultEffect> effect(const json::value& value, const std::string& key) const {
    if (!value.is_string()) return error(key, "expected a string");
    for (const auto& [name, effect] : kEffects)
      if (value.get_string() == name) return effect;
    return error(key, "unknown effect '" + std::string(value.get_string()) +
                          "' (expected hang, eio, corrupt, revert, reject, unsupported or slow)");
  }

  Result<SimFault> fault(const json::value& value, const std::string& key) const {
    if (!value.is_object()) return error(key, "expected an object with 'when' and 'effect'");
    SimFault fault;
    bool has_effect = false;
    for (const auto& entry : value.get_object()) {
      const std::string entry_key = key + "." + std::string(entry.key());
      if (entry.key() == "when") {
        auto when_settings = when(entry.value(), entry_key);
        if (!when_settings) return when_settings.error();
        fault.when = std::move(*when_settings);
      } else if (entry.key() == "effect") {
        auto parsed = effect(entry.value(), entry_key);
        if (!parsed) return parsed.error();
        fault.effect = *parsed;
        has_effect = true;
      } else {
        return error(entry_key, "unknown key (expected 'when' and 'effect')");
      }
    }
    if (!has_effect) return error(key + ".effect", "missing");
    return fault;
  }

  Result<std::vector<SimFault>> faults(const json::value& value) const {
    if (!value.is_array()) return error("faults", "expected an array");
    std::vector<SimFault> faults;
    for (std::size_t i = 0; i < value.get_array().size(); ++i) {
      auto parsed = fault(value.get_array()[i], "faults[" + std::to_string(i) + "]");
      if (!parsed) return parsed.error();
      faults.push_back(std::move(*parsed));
    }
    return faults;
  }

  Result<void> top_key(SimProfile& profile, std::string_view key, const json::value& value) const {
    const std::string name(key);
    if (key == "media_mib_s") {
      auto number = this->number(value, name, 1e-3, 1e6);
      if (!number) return number.error();
      profile.media_mib_s = *number;
    } else if (key == "noise_pct") {
      auto number = this->number(value, name, 0.0, 50.0);
      if (!number) return number.error();
      profile.noise_pct = *number;
    } else if (key == "cable_80wire") {
      if (!value.is_bool()) return error(name, "expected true or false");
      profile.cable_80wire = value.get_bool();
    } else if (key == "rotation_rpm") {
      auto number = this->number(value, name, 1.0, 65534.0);
      if (!number) return number.error();
      const int rpm = static_cast<int>(*number);
      if (rpm != *number || (rpm > 1 && rpm < 1025))
        return error(name, "expected 1 (non-rotating) or a whole rate of 1025..65534 rpm");
      profile.rotation_rpm = rpm;
    } else if (key == "faults") {
      auto parsed = faults(value);
      if (!parsed) return parsed.error();
      profile.faults = std::move(*parsed);
    } else {
      return error(name, "unknown key (expected media_mib_s, noise_pct, cable_80wire, rotation_rpm, faults)");
    }
    return {};
  }

 private:
  const std::string& name_;
};

}  // namespace

std::string_view to_string(FaultEffect effect) {
  for (const auto& [name, value] : kEffects)
    if (value == effect) return name;
  return "?";
}

bool fault_matches(const SimFault& fault, const Settings& settings) {
  for (const auto& [id, value] : fault.when) {
    const auto found = settings.find(id);
    if (found == settings.end() || found->second != value) return false;
  }
  return true;
}

bool has_fault(const SimProfile& profile, FaultEffect effect, const Settings& settings) {
  for (const SimFault& fault : profile.faults)
    if (fault.effect == effect && fault_matches(fault, settings)) return true;
  return false;
}

Result<SimProfile> parse_sim_profile(std::string_view text, const std::string& name) {
  boost::system::error_code ec;
  const json::value root = json::parse(json::string_view(text.data(), text.size()), ec);
  if (ec)
    return Error{std::make_error_code(std::errc::invalid_argument),
                 "sim profile: invalid JSON: " + ec.message(), name};
  const Reader reader(name);
  if (!root.is_object()) return reader.error("(top level)", "expected a JSON object");
  SimProfile profile;
  for (const auto& entry : root.get_object()) {
    auto done = reader.top_key(profile, std::string_view(entry.key()), entry.value());
    if (!done) return done.error();
  }
  return profile;
}

Result<SimProfile> load_sim_profile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return errno_error(errno != 0 ? errno : ENOENT, "read", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return errno_error(EIO, "read", path);
  return parse_sim_profile(text.str(), path);
}

}  // namespace disktune::probe
