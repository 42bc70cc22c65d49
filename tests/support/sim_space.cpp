// SPDX-License-Identifier: GPL-2.0-or-later
// Brute force over a simulated drive's legal configurations.
#include "tests/support/sim_space.hpp"

#include "tests/support/sim_fixture.hpp"

#include <utility>

namespace disktune::testing {
namespace {

using probe::SettingId;
using probe::SettingValue;

// The values of `id` the device accepts, among `candidates`, applied alone from its start.
std::vector<SettingValue> accepted(const probe::IdentifyInfo& identify,
                                   const probe::SimProfile& profile, SettingId id,
                                   const std::vector<std::int64_t>& candidates) {
  std::vector<SettingValue> values;
  for (const std::int64_t candidate : candidates) {
    auto device = make_sim(identify, profile);
    if (device->apply(id, SettingValue(candidate))) values.emplace_back(candidate);
  }
  return values;
}

std::vector<std::int64_t> range(std::int64_t low, std::int64_t high) {
  std::vector<std::int64_t> values;
  for (std::int64_t v = low; v <= high; ++v) values.push_back(v);
  return values;
}

}  // namespace

Optimum brute_force(const probe::IdentifyInfo& identify, const probe::SimProfile& profile,
                    const Rating& rate) {
  const std::vector<std::int64_t> ladder{0, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  std::vector<std::pair<SettingId, std::vector<SettingValue>>> dims{
      {SettingId::multcount, accepted(identify, profile, SettingId::multcount, range(0, 64))},
      {SettingId::io_support, accepted(identify, profile, SettingId::io_support, range(0, 4))},
      {SettingId::unmaskirq, accepted(identify, profile, SettingId::unmaskirq, range(0, 2))},
      {SettingId::using_dma, accepted(identify, profile, SettingId::using_dma, range(0, 2))},
      {SettingId::xfermode, accepted(identify, profile, SettingId::xfermode, range(8, 71))},
      {SettingId::readahead, accepted(identify, profile, SettingId::readahead, ladder)}};
  auto device = make_sim(identify, profile);
  Optimum best;
  std::vector<std::size_t> index(dims.size(), 0);
  for (;;) {
    probe::Settings config;
    for (std::size_t d = 0; d < dims.size(); ++d) config[dims[d].first] = dims[d].second[index[d]];
    if (device->restore(config)) {
      const double score = rate(*device, config);
      if (score > best.score * (1 + 1e-12)) best = Optimum{score, {}};
      if (score >= best.score * (1 - 1e-12)) best.configs.push_back(config);
    }
    std::size_t d = 0;
    while (d < dims.size() && ++index[d] == dims[d].second.size()) index[d++] = 0;
    if (d == dims.size()) break;
  }
  return best;
}

}  // namespace disktune::testing
