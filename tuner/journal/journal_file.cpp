// SPDX-License-Identifier: GPL-2.0-or-later
// JournalFile: locking, durable appends, setting aside; default locations and the boot id.
#include "tuner/journal/journal_file.hpp"

#include "probe/linux/sysfs.hpp"
#include "results/journal.hpp"
#include "tuner/host/clock_text.hpp"
#include "tuner/host/flock_wait.hpp"
#include "tuner/host/host.hpp"
#include "tuner/host/input_file.hpp"
#include "tuner/host/output_file.hpp"
#include "tuner/run_error.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <vector>

namespace disktune::tuner {
namespace {

[[noreturn]] void fail(ExitCode code, const std::string& what, const std::string& path, int errnum) {
  throw RunError(code, "journal " + path + ": " + what + ": " + std::strerror(errnum));
}

std::string parent_dir(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// mkdir -p with mode 0700 for the directories it creates.
bool make_dirs(const std::string& dir) {
  if (dir.empty() || ::access(dir.c_str(), F_OK) == 0) return true;
  if (!make_dirs(parent_dir(dir))) return false;
  return ::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST;
}

void fsync_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

std::string read_all(int fd) {
  std::string text;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace

JournalFile::JournalFile(std::string path) : path_(std::move(path)) { open_file(); }

JournalFile::~JournalFile() {
  if (fd_ >= 0) ::close(fd_);
}

void JournalFile::open_file() {
  if (!make_dirs(parent_dir(path_))) fail(kExitUsage, "create directory", path_, errno);
  fresh_file_ = ::access(path_.c_str(), F_OK) != 0;
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd_ < 0 && errno == ELOOP)  // O_NOFOLLOW: a link planted at the path could point anywhere
    throw RunError(kExitUsage, "journal " + path_ + ": a symbolic link (refused: a journal is never written through "
                               "one); name the file itself");
  if (fd_ < 0) fail(kExitUsage, "open", path_, errno);
  try {  // a constructor that throws runs no destructor: the descriptor (and its lock) is closed here
    check_input_fd(fd_, "journal", path_);  // a FIFO, device or huge file is no journal
    struct stat st {};
    if (::fstat(fd_, &st) == 0) refuse_disk_image(path_, st);
    if (!flock_within(fd_, kJournalLockWaitMs))
      fail(kExitUsage, "another disktune run holds its lock", path_, errno);
    existing_ = read_all(fd_);
    // A file that is no journal (named by mistake: a text file, a disk image, a sysfs attribute)
    // is refused before anything is cut or written: its whole content would read as one torn record.
    if (!existing_.empty() && !results::starts_like_record(existing_))
      throw RunError(kExitUsage, "journal " + path_ + ": not a disktune journal (it does not start with a journal "
                                 "record); nothing read, cut or written: name another --journal");
    cut_torn_tail();
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

// A record torn by a crash is cut off before anything is appended: appended to the torn
// bytes, the next record would share its line and turn the tail into damage.
// Damage before the last record is left for the reader to refuse (and --fresh to set aside).
void JournalFile::cut_torn_tail() {
  torn_bytes_ = 0;
  const auto decoded = results::decode_journal(existing_, path_);
  if (!decoded || !decoded->torn_tail) return;
  // Only a record's own torn end is cut; anything else after the last record (another
  // program's bytes) is left, and the journal refused, rather than thrown away.
  const std::string_view tail = std::string_view(existing_).substr(decoded->valid_bytes);
  if (!results::starts_like_record(tail))
    throw RunError(kExitUsage, "journal " + path_ + ": " + std::to_string(tail.size()) + " bytes after its last record "
                               "are no journal record; nothing cut or written: --fresh sets it aside");
  if (::ftruncate(fd_, static_cast<off_t>(decoded->valid_bytes)) != 0) fail(kExitDevice, "cut a torn record", path_, errno);
  if (::fsync(fd_) != 0) fail(kExitDevice, "fsync", path_, errno);
  torn_bytes_ = existing_.size() - decoded->valid_bytes;
  existing_.resize(decoded->valid_bytes);
}

probe::Result<void> JournalFile::write_record(const boost::json::value& record) {
  const std::string line = results::encode_record(record);
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return probe::errno_error(errno, "journal " + path_ + ": write", "");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd_) != 0) return probe::errno_error(errno, "journal " + path_ + ": fsync", "");
  if (fresh_file_) {
    fsync_dir(parent_dir(path_));
    fresh_file_ = false;
  }
  return {};
}

void JournalFile::append(const boost::json::value& record) {
  if (const auto written = write_record(record); !written) throw RunError(kExitDevice, written.error().message());
}

namespace {

// The run's start (the start record's started_at) for the set-aside name; now without one.
std::string run_stamp(const std::string& path) {
  const auto text = read_whole_file(path);
  const auto decoded = results::decode_journal(text.value_or(""), path);
  if (decoded && !decoded->records.empty())
    if (const auto* started = decoded->records.front().if_contains("started_at"); started && started->is_string()) {
      std::string stamp(started->as_string());
      if (!stamp.empty() && stamp.find_first_not_of("0123456789-:TZ.") == std::string::npos) return stamp;
    }
  return utc_timestamp();
}

// A set-aside journal nothing needs: its settings were put back (an end record saying so, or a
// `disktune restore`) and no apply of it is in effect. Any other one may hold originals.
// What pruning may do with a set-aside journal.
enum class Aside {
  held,   // may hold unrestored originals (or cannot be read): never deleted
  spent,  // its settings are back: kept among the newest kKeptSetAside
  empty,  // spent, and its run measured nothing (refused before its baseline): no history to keep
};

Aside aside_kind(const std::string& path) {
  const auto text = read_whole_file(path);
  if (!text) return Aside::held;
  const auto state = results::read_journal(*text, path);
  if (!state || state->apply.in_effect || !state->settings_back)
    return Aside::held;
  const auto& tune = state->tune;
  const bool measured = tune.baseline || !tune.results.empty() || !tune.pending.empty() || !tune.rounds.empty() ||
                        !tune.pending_rounds.empty();
  return state->kind == results::JournalKind::tune && !measured ? Aside::empty : Aside::spent;
}

}  // namespace

void prune_set_aside(const std::string& path, std::size_t keep) {
  const std::string dir = parent_dir(path);
  const std::string prefix = path.substr(path.rfind('/') + 1) + ".";
  std::vector<std::string> names;  // "<prefix><UTC timestamp>[.N]": their order is their runs'
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > prefix.size() && name.starts_with(prefix) && std::isdigit(static_cast<unsigned char>(name[prefix.size()])))
      names.push_back(name);
  }
  std::sort(names.rbegin(), names.rend());
  std::size_t kept = 0;
  for (const auto& name : names) {
    const std::string file = dir + "/" + name;
    const Aside kind = aside_kind(file);
    if (kind == Aside::held) continue;  // never pruned: `disktune restore` may need it
    // A refused run's journal must not push a measured run's history out of the five.
    if (kind == Aside::empty || ++kept > keep) ::unlink(file.c_str());
  }
}

std::string JournalFile::set_aside() {
  // link() never replaces a file (rename() would): two set-asides of one run's timestamp get
  // names of their own (".1", ".2", ...), so no recorded journal is lost.
  const std::string stamped = path_ + "." + run_stamp(path_);
  std::string aside = stamped;
  for (int n = 1; ::link(path_.c_str(), aside.c_str()) != 0; ++n) {
    if (errno != EEXIST || n > 1000) fail(kExitUsage, "set aside", path_, errno);
    aside = stamped + "." + std::to_string(n);
  }
  if (::unlink(path_.c_str()) != 0) fail(kExitUsage, "set aside", path_, errno);
  fsync_dir(parent_dir(path_));
  ::close(fd_);
  fd_ = -1;
  open_file();
  prune_set_aside(path_, kKeptSetAside);
  return aside;
}

std::string default_journal_path(const std::string& key) {
  std::string name = key;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  name += ".journal";
  if (host().state_dir) return *host().state_dir + "/" + name;  // a fake host's (JournalFile makes the directory)
  if (make_dirs("/var/lib/disktune") && ::access("/var/lib/disktune", W_OK) == 0) return "/var/lib/disktune/" + name;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) return std::string(state) + "/disktune/" + name;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.local/state/disktune/" + name;
}

std::string unique_journal_key(const std::string& prefix, const std::string& text) {
  constexpr std::size_t kReadable = 96;
  std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a 64
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  const std::string tail = text.size() > kReadable ? text.substr(text.size() - kReadable) : text;
  return prefix + tail + "-" + hex;
}

std::string current_boot_id() {
  const auto id = probe::read_sysfs("/proc/sys/kernel/random/boot_id");
  return id && !id->empty() ? *id : "unknown";
}

}  // namespace disktune::tuner
