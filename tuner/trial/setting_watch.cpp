// SPDX-License-Identifier: GPL-2.0-or-later
// SettingWatch: compare the device's settings with a snapshot, cheaply, while a measurement runs.
#include "tuner/trial/setting_watch.hpp"

namespace disktune::tuner {

SettingWatch::SettingWatch(probe::Device& device, const probe::Settings& expected, bool warmup,
                           probe::Seconds interval)
    : device_(device), interval_(interval), sample_(warmup ? 0 : 1) {
  for (const auto& [id, value] : expected)
    if (device.read_back_trusted(id)) expected_.emplace(id, value);
}

std::string SettingWatch::sample_label() const {
  return sample_ == 0 ? "the warm-up" : "sample " + std::to_string(sample_);
}

void SettingWatch::check() {
  if (change_) return;
  for (const auto& [id, value] : expected_) {
    const auto now = device_.read(id);
    const std::string name(probe::setting_name(id));
    if (!now) {
      change_ = "cannot read back " + name + ": " + now.error().message() + " during " + sample_label();
      return;
    }
    if (*now != value) {
      change_ = name + " changed from " + probe::format_value(id, value) + " to " + probe::format_value(id, *now) +
                " during " + sample_label();
      return;
    }
  }
}

void SettingWatch::check_every(const probe::Clock& clock) {
  const probe::Seconds now = clock.now();
  if (last_check_ && now - *last_check_ < interval_) return;
  last_check_ = now;
  check();
}

void SettingWatch::next_sample() {
  check();
  ++sample_;
}

probe::Result<void> SettingWatchBlockIo::read_at(std::uint64_t offset_bytes, std::span<std::byte> buffer) {
  auto read = inner_.read_at(offset_bytes, buffer);
  watch_.check_every(inner_.clock());
  return read;
}

}  // namespace disktune::tuner
