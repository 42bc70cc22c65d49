// SPDX-License-Identifier: GPL-2.0-or-later
// KernelErrors of a real device (the kernel log) and of a simulated one (none).
#include "tuner/trial/kernel_errors.hpp"

#include "probe/linux/device_names.hpp"
#include "probe/watch/kernel_log.hpp"

#include <optional>

namespace disktune::tuner {
namespace {

// A fresh watch per start(): /dev/kmsg read from its end then.
class KmsgErrors final : public KernelErrors {
 public:
  explicit KmsgErrors(std::string kernel_name) : kernel_name_(std::move(kernel_name)) {}
  void start() override { watch_.emplace(kernel_name_); }
  std::vector<std::string> new_errors() override { return watch_ ? watch_->new_errors() : std::vector<std::string>{}; }

 private:
  std::string kernel_name_;
  std::optional<probe::KernelLogWatch> watch_;
};

class NoErrors final : public KernelErrors {
 public:
  void start() override {}
  std::vector<std::string> new_errors() override { return {}; }
};

}  // namespace

std::unique_ptr<KernelErrors> kernel_errors_of(const probe::Device& device) {
  if (device.simulated()) return std::make_unique<NoErrors>();
  return std::make_unique<KmsgErrors>(probe::kernel_name(device.held().path));
}

}  // namespace disktune::tuner
