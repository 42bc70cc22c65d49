// SPDX-License-Identifier: GPL-2.0-or-later
// CoupledDevice: a fake device of queue-like settings whose writes couple them (tests).
#pragma once

#include "probe/device.hpp"
#include "tests/support/setting_values.hpp"

#include <functional>
#include <set>

namespace disktune::testing {

// A device of four queue-like settings with coupling rules: after a write is accepted, every
// rule may change the state (writing A changes or resets B); `accepts` may refuse a value
// depending on the others (B's range depends on A). `keep` lists settings whose writes are
// accepted but silently kept. Counts the writes.
class CoupledDevice final : public probe::Device {
 public:
  using Rule = std::function<void(probe::Settings& state, probe::SettingId written, const probe::SettingValue& value)>;
  using Accepts = std::function<bool(const probe::Settings& state, probe::SettingId id, const probe::SettingValue& value)>;

  probe::Settings state{{probe::SettingId::scheduler, name("mq-deadline")},
                 {probe::SettingId::nr_requests, num(256)},
                 {probe::SettingId::max_sectors_kb, num(1280)},
                 {probe::SettingId::read_ahead_kb, num(128)}};
  std::vector<Rule> rules;
  Accepts accepts = [](const probe::Settings&, probe::SettingId, const probe::SettingValue&) { return true; };
  std::set<probe::SettingId> keep;
  std::set<probe::SettingId> unsupported;
  std::set<probe::SettingId> rejected;
  std::set<probe::SettingId> untrusted;
  int writes = 0;

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return true; }
  probe::Result<probe::IdentifyInfo> identify() override { return probe::errno_error(ENOTTY, "identify", path_); }
  std::vector<probe::Capability> capabilities() override { return {}; }
  probe::Result<probe::SettingValue> read(probe::SettingId id) override {
    if (!state.count(id)) return probe::errno_error(ENOENT, "read", path_);
    return state.at(id);
  }
  probe::Result<void> apply(probe::SettingId id, const probe::SettingValue& value) override {
    ++writes;
    if (unsupported.count(id)) return probe::errno_error(ENOTTY, "write " + std::string(probe::setting_name(id)), path_);
    if (rejected.count(id)) return probe::errno_error(EIO, "write " + std::string(probe::setting_name(id)), path_);
    if (!accepts(state, id, value)) return probe::errno_error(EINVAL, "write " + std::string(probe::setting_name(id)), path_);
    if (keep.count(id)) return {};
    state[id] = value;
    for (const auto& rule : rules) rule(state, id, value);
    return {};
  }
  probe::Result<probe::Settings> snapshot() override { return state; }
  [[nodiscard]] bool read_back_trusted(probe::SettingId id) const override { return !untrusted.count(id); }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode) override { return probe::errno_error(ENOTTY, "open", path_); }

 private:
  std::string path_ = "fake:coupled";
};

}  // namespace disktune::testing
