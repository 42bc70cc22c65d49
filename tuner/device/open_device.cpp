// SPDX-License-Identifier: GPL-2.0-or-later
// Opening a device and describing it and its space for reports.
#include "tuner/device/open_device.hpp"

#include "probe/core/text.hpp"

#include "probe/device.hpp"
#include "probe/linux/device_names.hpp"
#include "probe/watch/device_usage.hpp"
#include "tuner/host/emulation.hpp"
#include "tuner/journal/probe_record.hpp"

#include <algorithm>
#include "tuner/device/device_factory.hpp"
#include "tuner/run_error.hpp"

namespace disktune::tuner {

DeviceContext open_device(const DeviceRequest& request, std::ostream& log) {
  DeviceContext context = open_device_unprobed(request, log);
  probe_capabilities(context);
  return context;
}

void probe_capabilities(DeviceContext& context) {
  with_probe_record(context, host().lock_dir, [&context] { context.capabilities = context.device->capabilities(); });
}

DeviceContext open_device_unprobed(const DeviceRequest& request, std::ostream& log) {
  probe::DeviceOptions options;
  options.seed = request.seed;
  options.sim_profile = request.sim_profile;
  const std::string& spec = request.spec;
  auto device = make_device(spec, options);
  // A simulated drive is made from files: anything wrong with them is bad input (exit 2).
  // Its text says why; "Invalid argument" after it (the code of every such refusal) adds nothing.
  if (!device && probe::is_sim_spec(spec)) throw RunError(kExitUsage, device.error().input_message());
  if (!device) throw_device_error(device.error());
  DeviceContext context;
  context.device = std::move(*device);
  context.emulated_by = emulation_of(*context.device);
  if (auto identify = context.device->identify())
    context.identify = std::move(*identify);
  else
    // reason(), not message(): the op names every request tried with the kernel's reason for
    // each, and the overall code's strerror after it read as a third reason.
    context.identify_note = identify.error().reason();
  context.recovered_probe = recover_probe_record(context, host().lock_dir, log);
  auto original = context.device->snapshot();
  if (!original) throw_device_error(original.error());
  context.original = std::move(*original);
  auto tunables = context.device->scheduler_tunables();
  if (!tunables) throw_device_error(tunables.error());
  context.original_tunables = std::move(*tunables);
  return context;
}

std::string emulation_of(const probe::Device& device) {
  return device.simulated() ? std::string() : loop_emulation(device.held().path);
}

void refuse_device_in_use(const DeviceRequest& request, std::string_view command) {
  if (probe::is_sim_spec(request.spec) || request.allow_mounted) return;
  const auto uses = probe::device_uses(probe::kernel_name(request.spec));
  if (uses.empty()) return;
  throw RunError(kExitUsage, "refusing to " + std::string(command) + " " + request.spec + ": " + probe::joined(uses, "; ") +
                                 " (--allow-mounted to " + std::string(command) + " it anyway)");
}

strategies::SearchSpace plan_space(const DeviceContext& context, const SpaceBounds& bounds) {
  strategies::SpaceOptions options;
  options.only = bounds.only;
  // --allow-mounted declares the data in use (it may be mounted by the time a trial runs):
  // the ATA knobs are refused (probe::in_use_hazard), plan and tune alike.
  options.data_in_use = bounds.data_in_use;
  if (bounds.safe_only) {
    std::vector<probe::SettingId> safe;
    for (const auto id : probe::all_settings())
      if (probe::setting_info(id).risk == probe::Risk::safe &&
          (!bounds.only || std::find(bounds.only->begin(), bounds.only->end(), id) != bounds.only->end()))
        safe.push_back(id);
    options.only = safe;
  }
  return strategies::build_space(context.identify, context.capabilities, context.original, options);
}

results::DeviceInfo describe_device(const DeviceContext& context) {
  results::DeviceInfo info;
  info.path = context.device->path();
  info.simulated = context.device->simulated();
  if (!info.simulated) {
    const std::string held = context.device->held().path;  // never the user's name: it may point elsewhere now
    info.stable_path = probe::stable_device_path(held).value_or("");
    info.wwid = probe::block_wwid(held).value_or("");
    info.backing_file = probe::loop_backing_file(held).value_or("");
    info.emulated_by = context.emulated_by;
    info.backing_note = page_cache_note(context.device->held());
  }
  if (auto io = context.device->open_io(probe::IoMode::buffered)) info.size_bytes = (*io)->size_bytes();
  info.identify_note = context.identify_note;
  if (context.identify) {
    info.model = context.identify->model;
    info.serial = context.identify->serial;
    info.firmware = context.identify->firmware;
  }
  return info;
}

results::SpaceInfo describe_space(const strategies::SearchSpace& space) {
  results::SpaceInfo info;
  for (const auto& group : space.groups())
    for (const auto id : group.settings) info.dimensions.push_back({id, space.values(id)});
  info.legal_count = space.legal_count();
  for (const auto& p : space.pruned()) info.pruned.push_back({p.reason, p.count});
  for (const auto& e : space.excluded()) info.unsupported.push_back({e.id, e.reason});
  return info;
}

}  // namespace disktune::tuner
