// SPDX-License-Identifier: GPL-2.0-or-later
// The current host: the real machine's defaults, or a test's fake.
#include "tuner/host/host.hpp"

#include <utility>

namespace disktune::tuner {
namespace {

Host& current() {
  static Host host;
  return host;
}

}  // namespace

const Host& host() { return current(); }

ScopedHost::ScopedHost(Host fake) : previous_(std::exchange(current(), std::move(fake))) {}

ScopedHost::~ScopedHost() { current() = std::move(previous_); }

}  // namespace disktune::tuner
