// SPDX-License-Identifier: GPL-2.0-or-later
// SimDevice: the SIMULATED legacy-IDE drive behind the probe::Device interface.
#include "probe/sim/sim_device.hpp"

#include "probe/sim/sim_block_io.hpp"
#include "probe/sim/sim_data.hpp"
#include "probe/sim/sim_model.hpp"
#include "probe/power_levels.hpp"

namespace disktune::probe {
namespace {

constexpr double kApplyCostS = 2e-3;  // one simulated ioctl / SET FEATURES round trip
constexpr std::string_view kNoQueue = "simulated legacy IDE driver: no blk-mq queue attributes";

class SimDevice final : public Device {
 public:
  explicit SimDevice(std::shared_ptr<SimCore> core) : core_(std::move(core)) { prepare_sim_data(); }

  [[nodiscard]] const std::string& path() const override { return core_->path; }
  [[nodiscard]] bool simulated() const override { return true; }

  Result<IdentifyInfo> identify() override {
    // The drive-resident values reflect the current settings: word 59 (multcount) and the
    // "selected" bits of words 63 / 88 (xfermode); everything else is as made in
    // make_sim_device_from.
    IdentifyInfo info = core_->identify;
    const std::int64_t mode = core_->state.xfermode;
    const auto family = xfermode_family(mode);
    info.multsect = core_->state.multcount;
    info.udma_active.reset();
    info.mdma_active.reset();
    info.sdma_active.reset();
    if (family == XferFamily::udma) info.udma_active = xfermode_number(mode);
    if (family == XferFamily::mdma) info.mdma_active = xfermode_number(mode);
    if (family == XferFamily::sdma) info.sdma_active = xfermode_number(mode);
    show_power_levels(info);
    return info;
  }

  std::vector<Capability> capabilities() override {
    std::vector<Capability> result;
    for (const SettingId id : all_settings()) result.push_back(capability(id));
    return result;
  }

  Result<SettingValue> read(SettingId id) override {
    if (const auto level = core_->power_levels.find(id); level != core_->power_levels.end())
      return SettingValue(level->second);
    if (const auto value = sim_value(core_->state, id)) return *value;
    return unsupported("read", id);
  }

  Result<void> apply(SettingId id, const SettingValue& value) override {
    core_->clock.advance(Seconds(kApplyCostS));
    if (is_power_level(id)) return apply_power_level(id, value);
    if (!is_sim_setting(id)) return unsupported("apply", id);
    Settings naive = sim_settings(core_->state);
    naive[id] = value;
    if (has_fault(core_->profile, FaultEffect::unsupported, naive))
      return fault_error(ENOTTY, "unsupported", id, value);
    auto next = sim_apply(core_->state, id, value, core_->limits, core_->path);
    if (!next) return next.error();
    const Settings candidate = sim_settings(*next);
    if (has_fault(core_->profile, FaultEffect::reject, candidate))
      return fault_error(EIO, "reject", id, value);
    if (has_fault(core_->profile, FaultEffect::revert, candidate)) return {};  // silently kept
    core_->state = *next;
    return {};
  }

  Result<Settings> snapshot() override {
    auto settings = sim_settings(core_->state);
    for (const auto& [id, level] : core_->power_levels) settings.emplace(id, SettingValue(level));
    return settings;
  }

  Result<std::unique_ptr<BlockIo>> open_io(IoMode mode) override {
    return make_sim_block_io(core_, mode);
  }

  [[nodiscard]] const std::shared_ptr<SimCore>& core() const { return core_; }

 private:
  // Words 86 and 91/94 as a drive shows its levels: 255 (APM) and 0 (AAM) mean disabled.
  void show_power_levels(IdentifyInfo& info) const {
    for (const auto& [id, level] : core_->power_levels) {
      const bool enabled = level != (id == SettingId::apm ? kApmDisabled : kAamDisabled);
      auto& feature = id == SettingId::apm ? info.apm : info.aam;
      auto& shown = id == SettingId::apm ? info.apm_level : info.aam_level;
      feature.enabled = enabled;
      shown = enabled ? std::optional<int>(static_cast<int>(level)) : std::nullopt;
    }
  }

  // SET FEATURES 05h/85h (APM) or 42h/C2h (AAM); a drive without the feature set aborts it.
  Result<void> apply_power_level(SettingId id, const SettingValue& value) {
    const auto level = core_->power_levels.find(id);
    if (level == core_->power_levels.end())
      return errno_error(EIO,
                         "SET FEATURES (" + std::string(setting_name(id)) + ") aborted [simulated: " +
                             *power_level_missing(core_->identify, id) + "]",
                         core_->path);
    const auto number = value.number();
    const bool legal = id == SettingId::apm ? number >= 1 && number <= kApmDisabled : number >= 0 && number <= 255;
    if (!legal)
      return errno_error(EINVAL, "apply " + std::string(setting_name(id)) + "=" + format_value(id, value) +
                                     " [simulated: level out of range]", core_->path);
    level->second = number;
    return {};
  }

  Capability capability(SettingId id) const {
    Capability cap{id, Support::supported, {}, {}};
    if (is_power_level(id)) {
      if (const auto missing = power_level_missing(core_->identify, id)) {
        cap.support = Support::unsupported;
        cap.reason = *missing + " (simulated drive)";
      }
    } else if (!is_sim_setting(id)) {
      cap.support = Support::unsupported;
      cap.reason = std::string(kNoQueue) + " (" + std::string(setting_name(id)) + ")";
    } else if (id == SettingId::using_dma && !core_->limits.dma_supported) {
      cap.support = Support::read_only;
      cap.reason = "ioctl(HDIO_SET_DMA 1) on " + core_->path +
                   ": Operation not permitted (simulated: word 49 bit 8 clear, no DMA)";
    } else if (id == SettingId::multcount && core_->limits.max_multsect == 0) {
      cap.support = Support::read_only;
      cap.reason = "ioctl(HDIO_SET_MULTCOUNT) on " + core_->path +
                   ": Invalid argument (simulated: MaxMultSect 0, no READ MULTIPLE)";
    }
    return cap;
  }

  Error unsupported(std::string_view what, SettingId id) const {
    return errno_error(ENOTTY,
                       std::string(what) + " " + std::string(setting_name(id)) + " [" +
                           std::string(kNoQueue) + "]",
                       core_->path);
  }

  Error fault_error(int errnum, std::string_view effect, SettingId id,
                    const SettingValue& value) const {
    return errno_error(errnum,
                       "apply " + std::string(setting_name(id)) + "=" + format_value(id, value) +
                           " [simulated " + std::string(effect) + " fault]",
                       core_->path);
  }

  std::shared_ptr<SimCore> core_;
};

Error bad_drive(const std::string& path, const std::string& why) {
  return Error{std::make_error_code(std::errc::invalid_argument), "simulated drive: " + why, path};
}

}  // namespace

std::shared_ptr<SimCore> sim_core_of(Device& device) {
  const auto* sim = dynamic_cast<const SimDevice*>(&device);
  return sim ? sim->core() : nullptr;
}

Result<std::unique_ptr<Device>> make_sim_device_from(IdentifyInfo identify, std::string path,
                                                     SimProfile profile, std::uint64_t seed) {
  if (identify.lba_sectors == 0)
    return bad_drive(path, "identify data reports no capacity (LBA sectors): nothing to read");
  if (identify.pio_modes.empty() && identify.mdma_modes.empty() && identify.udma_modes.empty())
    return bad_drive(path, "identify data lists no PIO or DMA modes: nothing to tune");
  auto core = std::make_shared<SimCore>();
  core->path = std::move(path);
  core->limits = sim_limits(identify, profile.cable_80wire);
  // identify() reports the cable the simulation uses: the override, or the inferred one.
  if (profile.cable_80wire) {
    identify.cable_80wire = core->limits.cable_80wire;
    identify.warnings.push_back("SIMULATED: cable set by the sim profile (cable_80wire)");
  } else if (!identify.cable_80wire && core->limits.cable_80wire) {
    identify.cable_80wire = true;
    identify.warnings.push_back(
        "SIMULATED: cable not reported by the capture; assumed 80-wire (SATA, or a UDMA mode above 2 active)");
  }
  core->media_mib_s = profile.media_mib_s.value_or(default_media_mib_s(identify));
  core->state = sim_default_state(identify, core->limits);
  for (const auto id : {SettingId::apm, SettingId::aam})
    if (const auto level = power_level_of(identify, id)) core->power_levels.emplace(id, *level);
  core->size_bytes = identify.lba_sectors * 512;
  core->identify = std::move(identify);
  core->profile = std::move(profile);
  core->seed = seed;
  return std::unique_ptr<Device>(std::make_unique<SimDevice>(std::move(core)));
}

}  // namespace disktune::probe
