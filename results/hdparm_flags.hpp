// SPDX-License-Identifier: GPL-2.0-or-later
// The one place that knows the seed's hdparm flag order (-X -d -u -m -c -a) and splits changes.
#pragma once

#include "probe/settings.hpp"

#include <span>
#include <string>
#include <vector>

namespace disktune::results {

/// The ATA (hdparm-flag) settings in the order the seed's boot.local line writes them:
/// xfermode, using_dma, unmaskirq, multcount, io_support, readahead
/// (`hdparm -X66 -d1 -u1 -m16 -c3 /dev/hdb`, docs/architecture.md "The simulated drive").
std::span<const probe::SettingId> hdparm_flag_order();

/// One hdparm flag with its value glued on, as hdparm takes it: "-X66" (xfermode as its
/// decimal SET FEATURES 0x03 code, docs/ata-reference.md §3.4), "-d1", "-m16", "-a256".
/// DT_ASSERT: `id` has an hdparm flag and `value` is a number.
std::string hdparm_flag(probe::SettingId id, const probe::SettingValue& value);

/// The hdparm flags of the ATA settings in `changes`, in hdparm_flag_order(); settings without
/// a flag (the sysfs queue knobs) are left out. Empty when there are none.
std::vector<std::string> hdparm_flag_list(const probe::Settings& changes);

/// hdparm_flag_list joined with single spaces: "-X66 -d1 -u1 -m16 -c3". Empty when none.
std::string changes_as_hdparm_flags(const probe::Settings& changes);

/// The settings of `changes` that live in sysfs queue/ (read_ahead_kb, scheduler,
/// nr_requests, max_sectors_kb), in apply order (scheduler before nr_requests).
probe::Settings queue_changes(const probe::Settings& changes);

/// Human form of a change set for tables and logs: the hdparm flags, then the queue
/// settings as name=value ("-X66 -d1 read_ahead_kb=1024"). Empty when `changes` is empty.
std::string describe_changes(const probe::Settings& changes);

/// The settings of `settings` whose value differs from (or is missing in) `baseline`.
probe::Settings changed_settings(const probe::Settings& settings, const probe::Settings& baseline);

}  // namespace disktune::results
