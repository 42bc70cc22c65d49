// SPDX-License-Identifier: GPL-2.0-or-later
// make_device: maps "sim:", "sim:FILE" and block-device paths to a backend.
#include "tuner/device/device_factory.hpp"

#include "probe/linux/linux_device.hpp"
#include "probe/sim/sim_device.hpp"
#include "tuner/host/host.hpp"

namespace disktune::tuner {

probe::Result<std::unique_ptr<probe::Device>> make_device(const std::string& spec,
                                                         const probe::DeviceOptions& options) {
  if (host().open_device) return host().open_device(spec, options);  // a test's fake machine
  if (probe::is_sim_spec(spec)) {
    const std::string file = spec.substr(probe::kSimSpec.size());
    return probe::make_sim_device(file.empty() ? std::nullopt : std::optional<std::string>(file), options);
  }
  if (spec.empty())
    return probe::Error{std::make_error_code(std::errc::invalid_argument),
                        "empty device spec: expected sim:, sim:FILE or a block device path", ""};
  return probe::make_linux_device(spec);
}

}  // namespace disktune::tuner
