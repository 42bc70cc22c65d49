// SPDX-License-Identifier: GPL-2.0-or-later
// Emitter registry: output format name -> emitter (boot-local, hdparm-conf, udev, tuned, table, json).
#pragma once

#include "probe/core/error.hpp"
#include "results/emitter.hpp"

#include <memory>
#include <span>
#include <string_view>

namespace disktune::results {

/// The registered names, in --help order: "boot-local", "hdparm-conf", "udev", "tuned",
/// "table", "json".
std::span<const std::string_view> emitter_names();

/// A new emitter for `name`. Errors: errc::invalid_argument for an unknown name; the
/// message lists the valid names.
probe::Result<std::unique_ptr<Emitter>> make_emitter(std::string_view name);

}  // namespace disktune::results
