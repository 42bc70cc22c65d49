// SPDX-License-Identifier: GPL-2.0-or-later
// Content generator of the simulated drive.
#include "probe/sim/sim_data.hpp"

#include "probe/sim/sim_state.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>

namespace disktune::probe {

namespace {

// The content computed word by word (mix64 per 8 bytes: the costly part).
void compute_sim_data(std::uint64_t offset, std::span<std::byte> buffer) {
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

// The first kTableBytes of the content, computed once per 2 MiB block on first use. Why: a
// simulated tune reads the same region from offset 0 in every sample (tens of MB each,
// hundreds of samples), and copying it is several times cheaper than computing it again;
// that made the simulated quick start (`disktune tune`) mostly mix64.
constexpr std::uint64_t kBlockBytes = 2u << 20;
constexpr std::size_t kTableBlocks = 32;
constexpr std::uint64_t kTableBytes = kBlockBytes * kTableBlocks;

class ContentTable {
 public:
  // The table's bytes [offset, offset + length) when they lie in one block, else nullptr.
  const std::byte* find(std::uint64_t offset, std::uint64_t length) {
    if (offset >= kTableBytes || length > kTableBytes - offset) return nullptr;
    const std::size_t first = offset / kBlockBytes;
    const std::size_t last = (offset + length - 1) / kBlockBytes;
    std::call_once(allocated_, [this] { bytes_ = std::make_unique<std::byte[]>(kTableBytes); });
    for (std::size_t b = first; b <= last; ++b)
      std::call_once(filled_[b], [this, b] {
        compute_sim_data(b * kBlockBytes, {bytes_.get() + b * kBlockBytes, kBlockBytes});
      });
    return bytes_.get() + offset;
  }

 private:
  std::once_flag allocated_;
  std::unique_ptr<std::byte[]> bytes_;
  std::array<std::once_flag, kTableBlocks> filled_;
};

}  // namespace

ContentTable& content_table() {
  static ContentTable table;
  return table;
}

void prepare_sim_data() { content_table().find(0, kTableBytes); }

void fill_sim_data(std::uint64_t offset, std::span<std::byte> buffer) {
  if (const std::byte* known = content_table().find(offset, buffer.size())) {
    std::memcpy(buffer.data(), known, buffer.size());
    return;
  }
  compute_sim_data(offset, buffer);
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
