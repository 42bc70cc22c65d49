// SPDX-License-Identifier: GPL-2.0-or-later
// SimCore and SimBlockIo: the shared state of a SIMULATED drive and its timed data access.
#pragma once

#include "probe/core/clock.hpp"
#include "probe/block_io.hpp"
#include "probe/identify/identify.hpp"
#include "probe/sim/shared_counts.hpp"
#include "probe/sim/sim_page_cache.hpp"
#include "probe/sim/sim_profile.hpp"
#include "probe/sim/sim_rules.hpp"
#include "probe/sim/sim_state.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace disktune::probe {

/// Everything one simulated drive is: shared by its SimDevice and every BlockIo it opened,
/// so a BlockIo sees settings applied after it was opened, as on a real device, except the
/// readahead: as in the kernel, a BlockIo reads with the readahead in force when it was
/// opened (a file's readahead window is set at open).
struct SimCore {
  std::string path;              ///< "sim:" or "sim:FILE"
  IdentifyInfo identify;         ///< as parsed; identify() reflects `state` on a copy
  SimLimits limits;
  SimProfile profile;
  double media_mib_s = 0.0;      ///< profile value or default_media_mib_s
  std::uint64_t seed = 1;
  std::uint64_t size_bytes = 0;  ///< lba_sectors * 512
  SimState state;
  /// APM and AAM levels (power_level_of) of a drive whose identify offers them; not in
  /// `state`: they do not change the modelled read times or the noise.
  std::map<SettingId, std::int64_t> power_levels;
  VirtualClock clock;     ///< advanced only by modelled I/O and small per-call costs
  SimPageCache page_cache;       ///< shared by all buffered BlockIos of the drive
  std::uint64_t head_bytes = ~std::uint64_t{0};  ///< where the last drive read ended
  /// Opens so far, per sim_state_hash of the settings at open (noise input: the n-th open
  /// of a configuration), shared with forked trial children (SharedCounts): a configuration
  /// measured again in another child draws new noise.
  SharedCounts opens;
};

/// A BlockIo over a simulated drive. read_at fills the buffer with fill_sim_data (corrupted
/// under a matching "corrupt" fault) and advances the core's clock by the modelled time:
/// cached_read_time for page-cache hits (buffered only), uncached_read_time (x4 under "slow")
/// for the rest (with the readahead captured at open), both times noise_factor(seed,
/// settings, flush_cache() count mixed with the open's ordinal among the opens under the
/// same settings, read count).
/// "hang" / "eio" / "corrupt" / "slow" act on reads that reach the drive (a full page-cache
/// hit never does). drop_cached drops the range from the page cache. Errors: EINVAL for a misaligned O_DIRECT read, errc::io_error for a read
/// past the end (a short read), EIO under an "eio" fault. A "hang" fault never returns.
std::unique_ptr<BlockIo> make_sim_block_io(std::shared_ptr<SimCore> core, IoMode mode);

}  // namespace disktune::probe
