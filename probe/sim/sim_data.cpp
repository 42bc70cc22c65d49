// SPDX-License-Identifier: GPL-2.0-or-later
// Content generator of the simulated drive.
#include "probe/sim/sim_data.hpp"

#include "probe/sim/sim_state.hpp"

#include <bit>
#include <cstring>

namespace disktune::probe {

void fill_sim_data(std::uint64_t offset, std::span<std::byte> buffer) {
  std::size_t i = 0;
  const auto put_byte = [&] {
    const std::uint64_t position = offset + i;
    buffer[i++] = static_cast<std::byte>(mix64(position / 8) >> (8 * (position % 8)));
  };
  while (i < buffer.size() && (offset + i) % 8 != 0) put_byte();
  for (; i + 8 <= buffer.size(); i += 8) {  // whole words, byte k = bits 8k..8k+7
    const std::uint64_t word = mix64((offset + i) / 8);
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(buffer.data() + i, &word, sizeof word);  // the same bytes, one store
    } else {
      for (std::size_t k = 0; k < 8; ++k) buffer[i + k] = static_cast<std::byte>(word >> (8 * k));
    }
  }
  while (i < buffer.size()) put_byte();
}

void corrupt_sim_data(std::uint64_t offset, std::span<std::byte> buffer) {
  constexpr std::uint64_t kSector = 512;
  constexpr std::uint64_t kVictim = 17;
  std::uint64_t position = offset - offset % kSector + kVictim;
  if (position < offset) position += kSector;
  for (; position < offset + buffer.size(); position += kSector)
    buffer[position - offset] ^= std::byte{0x5A};
}

}  // namespace disktune::probe
