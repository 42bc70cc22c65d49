// SPDX-License-Identifier: GPL-2.0-or-later
// results::Emitter: turns a Report into text (boot.local, hdparm.conf, udev, table). Pure.
#pragma once

#include "results/report.hpp"

#include <string>

namespace disktune::results {

/// A pure renderer of a Report. Emitters never touch the filesystem; tuner/ writes files.
class Emitter {
 public:
  virtual ~Emitter() = default;
  /// The rendered text, newline-terminated.
  [[nodiscard]] virtual std::string render(const Report& report) const = 0;
};

}  // namespace disktune::results
