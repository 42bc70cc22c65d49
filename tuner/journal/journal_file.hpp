// SPDX-License-Identifier: GPL-2.0-or-later
// JournalFile: the journal on disk — locked, appended with fsync, set aside on request.
#pragma once

#include "probe/core/error.hpp"

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>

namespace disktune::tuner {

/// How long opening a journal waits for its lock before "another disktune run holds its lock"
/// (milliseconds): a killed run's trial child, dying with it, may hold it a moment longer.
inline constexpr int kJournalLockWaitMs = 3'000;

/// One device's journal file, held open and locked (flock LOCK_EX) for the run so two
/// disktune processes never tune the same device at once (waiting up to kJournalLockWaitMs). Appends reach stable storage
/// before append() returns: fsync of the file, and of its directory when the file is new
/// (docs/architecture.md "Hangs, crashes and reboots").
/// Set-aside journals of one path kept once their settings are back (prune_set_aside).
inline constexpr std::size_t kKeptSetAside = 5;

/// Delete the set-aside journals of `path` ("<path>.<timestamp>[.N]") beyond the newest
/// `keep` of those that hold nothing to restore: an end record saying the settings were
/// restored, or a `disktune restore` recorded, and no apply in effect. Such a tune journal
/// that recorded no measurement (a run refused before its baseline: `--only` naming nothing
/// tunable) is deleted whatever its age and does not count among the `keep`. A journal that may
/// hold unrestored originals (killed, set aside by --fresh, damaged, unreadable) is never deleted.
void prune_set_aside(const std::string& path, std::size_t keep);

class JournalFile {
 public:
  /// Open or create `path` (mode 0600; parent directories created 0700). Refuses a symlink
  /// at `path` (O_NOFOLLOW). Throws RunError: exit 2 naming the path and errno, or when
  /// another process holds the lock.
  explicit JournalFile(std::string path);
  JournalFile(const JournalFile&) = delete;
  JournalFile& operator=(const JournalFile&) = delete;
  ~JournalFile();

  [[nodiscard]] const std::string& path() const { return path_; }
  /// The file's content when it was opened (empty for a new file), without a torn last
  /// record: that is cut off the file when it is opened, so every append starts a line.
  [[nodiscard]] const std::string& existing_text() const { return existing_; }
  /// Bytes of a torn last record cut off when the file was opened (0: none).
  [[nodiscard]] std::size_t torn_bytes() const { return torn_bytes_; }
  /// Append one encoded record and make it durable (write, fsync; the directory's fsync for a
  /// new file). Errors: errno with op "journal PATH: write" or "journal PATH: fsync" (a full
  /// disk: ENOSPC): the record may be partly written, cut off as torn at the next open.
  probe::Result<void> write_record(const boost::json::value& record);
  /// write_record, an error thrown as RunError(exit 3): for commands that end on it.
  void append(const boost::json::value& record);
  /// Rename the current file to "<path>.<its run's start, UTC>" (its start record's
  /// started_at; ".<timestamp>.N" when that name exists: a set-aside journal is never
  /// replaced), continue with an empty one, and prune (prune_set_aside, kKeptSetAside).
  /// Returns the new name of the old file. Throws RunError(exit 2) when it cannot be renamed.
  std::string set_aside();

 private:
  void open_file();
  void cut_torn_tail();

  std::string path_;
  std::string existing_;
  int fd_ = -1;
  std::size_t torn_bytes_ = 0;
  bool fresh_file_ = false;  // created by us: the directory entry needs an fsync
};

/// The default journal path for a device key: host().state_dir/<key>.journal under a fake
/// host; else /var/lib/disktune/<key>.journal when that directory can be created, else
/// $XDG_STATE_HOME/disktune (or ~/.local/state/disktune).
/// Characters outside [A-Za-z0-9._-] in `key` become '_'.
std::string default_journal_path(const std::string& key);

/// A key for default_journal_path naming a journal after `text` (a loop device's backing
/// file path): `prefix`, the last 96 characters of `text`, '-' and the 16 hex digits of the
/// FNV-1a 64-bit hash of all of `text`. Two texts give two keys even where
/// default_journal_path maps their differences to '_' ("/c/a_b.img", "/c/a/b.img"), and the
/// file name fits NAME_MAX (255) however long `text` is. Example:
/// "loop_tmp_disk.img-3c5f1e0a9b2d4e67".
std::string unique_journal_key(const std::string& prefix, const std::string& text);

/// The kernel's boot id (/proc/sys/kernel/random/boot_id), "unknown" if unreadable.
std::string current_boot_id();

}  // namespace disktune::tuner
