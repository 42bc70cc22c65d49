// SPDX-License-Identifier: GPL-2.0-or-later
// The emulator's command line: a profile, its constants, and the FUSE options passed on.
#pragma once

#include "tests/emudisk/drive_model.hpp"
#include "tests/emudisk/hdd_model.hpp"
#include "tests/emudisk/ssd_model.hpp"

#include <memory>
#include <string>
#include <vector>

namespace disktune::emudisk {

/// The parsed command line of emudisk.
struct EmudiskOptions {
  std::string profile = "hdd";  ///< hdd or ssd
  HddProfile hdd;
  SsdProfile ssd;
  /// FUSE worker threads (libfuse's -o max_threads, default 10) and the kernel's limit on
  /// outstanding asynchronous reads (conn->max_background, default 12): both bound how many
  /// reads reach the model at once, so both default here to 128, the loop driver's fixed
  /// hw_queue_depth.
  unsigned max_threads = 128;
  unsigned max_background = 128;
  std::string trace_path;  ///< --trace FILE: one line per read (DriveQueue's trace)
  std::vector<std::string> fuse_args;  ///< everything else: the mount point, -f, -o ...
  bool help = false;
  std::string help_text;
};

/// Parse emudisk's arguments (argv[0] included): --profile hdd|ssd, each profile constant as
/// --NAME VALUE (hdd: --rpm --min-seek-ms --full-seek-ms --overhead-us --outer-mib-s
/// --inner-mib-s --interface-mib-s --queue-depth --cache-kib; ssd: --read-us --spread-pct
/// --units --bandwidth-mib-s --overhead-us --queue-depth --seed; both: --capacity-gib),
/// --max-threads, --max-background; the rest goes to FUSE. Throws std::invalid_argument naming
/// the option and the reason for an unknown profile, a value out of range or a missing mount
/// point.
EmudiskOptions parse_emudisk_options(int argc, const char* const argv[]);

/// The model the options describe.
std::unique_ptr<DriveModel> make_model(const EmudiskOptions& options);

}  // namespace disktune::emudisk
