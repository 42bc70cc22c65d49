// SPDX-License-Identifier: GPL-2.0-or-later
// make_sim_device: "sim:" (the compiled-in seed drive) and "sim:FILE" with an optional profile.
#include "probe/identify/identify_text.hpp"
#include "probe/sim/seed_drive.hpp"
#include "probe/sim/sim_device.hpp"

namespace disktune::probe {

Result<std::unique_ptr<Device>> make_sim_device(const std::optional<std::string>& identify_file,
                                                const DeviceOptions& options) {
  SimProfile profile;
  if (options.sim_profile) {
    auto loaded = load_sim_profile(*options.sim_profile);
    if (!loaded) return loaded.error();
    profile = std::move(*loaded);
  }
  auto identify = identify_file ? parse_identify_file(*identify_file)
                                : parse_identify_text(seed_identify_text(), IdentifyFormat::hdparm_i,
                                                      std::string(kSeedIdentifyName));
  if (!identify) return identify.error();
  return make_sim_device_from(std::move(*identify), "sim:" + identify_file.value_or(""),
                              std::move(profile), options.seed);
}

}  // namespace disktune::probe
