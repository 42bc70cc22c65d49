// SPDX-License-Identifier: GPL-2.0-or-later
// Hand-built Reports for the emitter and JSON tests (seed drive, loop device, keep-baseline).
#pragma once

#include "results/report.hpp"

namespace disktune::test_support {

/// The seed walkthrough as a simulated run ("sim:", IBM-DJNA-352500, docs/architecture.md
/// "The simulated drive"): baseline 3.83 MB/s (settings as the walkthrough lists them,
/// PIO4), six trials (ok, unstable, hang, error), winner trial 3 with changes
/// {using_dma 1, xfermode udma2 (66), unmaskirq 1, multcount 16, io_support 3} at 14.85 MB/s.
results::Report seed_report();

/// A real loop device (/dev/loop0 over /srv/images/disk.img, 64 MiB, no identify, no by-id
/// name, ATA knobs unsupported): the
/// winner changes read_ahead_kb 128->1024, scheduler none->mq-deadline, nr_requests 128->64.
results::Report loop_report();

/// A SATA disk with a by-id name where no trial beat the baseline beyond the noise:
/// keep_baseline, changes empty, winner settings = baseline.
results::Report keep_baseline_report();

/// keep_baseline_report() with a winner that changes read_ahead_kb and readahead, to show
/// the by-id path in the hdparm line and the boot-time kernel-name lookup.
results::Report by_id_report();

}  // namespace disktune::test_support
