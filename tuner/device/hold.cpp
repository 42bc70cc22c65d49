// SPDX-License-Identifier: GPL-2.0-or-later
// hold_device: the locked device is the opened one, and a free disk is claimed for the command.
#include "tuner/device/hold.hpp"

#include "probe/core/text.hpp"
#include "probe/linux/device_names.hpp"
#include "probe/watch/device_usage.hpp"
#include "results/snippet.hpp"
#include "tuner/run_error.hpp"

#include <stdexcept>

#include <fcntl.h>

#include <cerrno>
#include <cstring>

namespace disktune::tuner {
namespace {

[[noreturn]] void refuse(const DeviceRequest& request, std::string_view command, const std::string& why) {
  throw RunError(kExitUsage, "refusing to " + std::string(command) + " " + request.spec + ": " + why);
}

}  // namespace

void refuse_unwritable_name(const std::string& spec, std::string_view command) {
  if (probe::is_sim_spec(spec)) return;
  results::DeviceInfo named;
  named.path = spec;
  try {
    (void)results::snippet_target(named);
  } catch (const std::invalid_argument& e) {
    throw RunError(kExitUsage, "refusing to " + std::string(command) + " " + probe::one_line(spec) + ": " +
                                   e.what() + " (name the disk by /dev/NAME or a /dev/disk/by-id link)");
  }
}

void hold_device(DeviceContext& context, const DeviceLock& lock, const DeviceRequest& request, std::string_view command) {
  if (context.device->simulated()) return;
  const auto held = context.device->held();
  if (lock.device_number() != 0 && lock.device_number() != held.device_number)
    refuse(request, command, "the name moved to another device while it was opened (locked " +
                                 probe::dev_number_text(lock.device_number()) + ", opened " +
                                 probe::dev_number_text(held.device_number) + "); nothing was changed");
  // A device that holds no descriptor (a test's fake machine) has nothing the kernel could claim.
  if (request.allow_mounted || held.fd < 0) return;
  probe::UniqueFd claim(::open(held.path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK));
  if (claim) {
    context.claim = std::move(claim);
    return;
  }
  const int err = errno;
  if (err != EBUSY) refuse(request, command, std::string("an exclusive open to hold it failed: ") + std::strerror(err));
  const auto uses = probe::device_uses(probe::kernel_name(held.path));
  refuse(request, command,
         (uses.empty() ? std::string("it became in use after it was checked (an exclusive open is busy)") : probe::joined(uses, "; ")) +
             " (--allow-mounted to " + std::string(command) + " it anyway)");
}

}  // namespace disktune::tuner
