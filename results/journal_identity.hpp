// SPDX-License-Identifier: GPL-2.0-or-later
// JournalIdentity: who a journal belongs to, as its start record keeps it, and how two compare.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>

namespace disktune::results {

/// Who the journal belongs to: compared on resume so a journal is never applied to another drive.
struct JournalIdentity {
  std::string path;       ///< device as given ("/dev/sdb", "sim:")
  std::string model;      ///< identify words 27-46 (empty without identify)
  std::string serial;
  std::string firmware;
  std::uint64_t size_bytes = 0;
  std::string kernel;     ///< uname -r
  /// A loop device's backing file (loop/backing_file): two same-size loop devices, or one loop
  /// number re-attached to another file, differ only here. Empty for other devices and in
  /// journals that predate it (then not compared).
  std::string backing_file;
  /// The kernel's wwid of the device (sysfs wwid, device/wwid), which tells apart NVMe and
  /// virtio disks without ATA identify whose names swap at boot. Empty when absent (not compared).
  std::string wwid;
  /// A loop device's backing file as held open, "DEV:INODE" (probe::loop_backing_inode): a
  /// file replaced at the same path differs only here. Empty when absent (not compared).
  std::string backing_inode{};
  bool operator==(const JournalIdentity&) const = default;
};

/// What differs between two identities, as "model 'A' (journal) vs 'B' (device); ...";
/// empty when they match.
std::string identity_difference(const JournalIdentity& journal, const JournalIdentity& device);
/// The part of identity_difference that names another drive (model, serial, firmware, size;
/// backing file, its inode and wwid where both sides record one),
/// which --force must never override: the journal's settings belong to that drive. Empty
/// when only the device path or the kernel differ.
std::string drive_difference(const JournalIdentity& journal, const JournalIdentity& device);

/// The start record's "device" object: path, model, serial, firmware, size_bytes, kernel,
/// backing_file, wwid, backing_inode.
boost::json::object identity_to_json(const JournalIdentity& identity);
/// The identity a start record's "device" object holds; backing_file, wwid and backing_inode
/// absent (journals written before they were recorded) read as empty. Throws std::exception
/// (boost::json's) on a missing or mistyped field.
JournalIdentity identity_from_json(const boost::json::object& device);

}  // namespace disktune::results
