// SPDX-License-Identifier: GPL-2.0-or-later
// emudisk: a FUSE filesystem with one read-only file, disk.img, whose reads take an emulated drive's time.
//
// Usage: emudisk --profile hdd|ssd [constants] MOUNTPOINT [-f] [-o FUSE_OPTION,...] (--help)
// disk.img is capacity bytes of a fixed pattern (every 8-byte word is splitmix64 of its index);
// nothing can be written. Each read is handed to the drive model (tests/emudisk/drive_queue.hpp)
// and answered when the model says its data has reached the host. Files open with direct_io,
// so the FUSE page cache never answers for the model. A loop device with --direct-io=on over
// disk.img puts the emulated disk under the host's block layer (docs/emulated-disk.md). The
// mount's type is fuse.emudisk: disktune names a device over it EMULATED. At unmount it
// prints to stderr what it served.
#define FUSE_USE_VERSION 31

#include "tests/emudisk/drive_queue.hpp"
#include "tests/emudisk/emudisk_options.hpp"

#include <fuse.h>
#include <sys/prctl.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using disktune::emudisk::DriveQueue;

constexpr char kFileName[] = "disk.img";
DriveQueue* g_drive = nullptr;  // fuse_main's callbacks are plain functions
unsigned g_max_background = 128;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void fill_pattern(char* buffer, std::uint64_t offset, std::size_t size) {
  for (std::size_t i = 0; i < size;) {
    const std::uint64_t at = offset + i;
    const std::uint64_t word = splitmix64(at / 8);
    const std::size_t skip = at % 8, take = std::min<std::size_t>(8 - skip, size - i);
    std::memcpy(buffer + i, reinterpret_cast<const char*>(&word) + skip, take);  // little-endian bytes
    i += take;
  }
}

bool is_file(const char* path) { return path[0] == '/' && std::strcmp(path + 1, kFileName) == 0; }

void* ed_init(fuse_conn_info* conn, fuse_config* config) {
  config->direct_io = 1;
  config->kernel_cache = 0;
  conn->max_background = g_max_background;
  conn->congestion_threshold = g_max_background;
  return nullptr;
}

int ed_getattr(const char* path, struct stat* st, fuse_file_info* /*fi*/) {
  std::memset(st, 0, sizeof *st);
  if (std::strcmp(path, "/") == 0) {
    st->st_mode = S_IFDIR | 0555;
    st->st_nlink = 2;
    return 0;
  }
  if (!is_file(path)) return -ENOENT;
  st->st_mode = S_IFREG | 0444;
  st->st_nlink = 1;
  st->st_size = static_cast<off_t>(g_drive->capacity_bytes());
  return 0;
}

int ed_readdir(const char* path, void* buffer, fuse_fill_dir_t fill, off_t /*offset*/, fuse_file_info* /*fi*/,
               fuse_readdir_flags /*flags*/) {
  if (std::strcmp(path, "/") != 0) return -ENOENT;
  fill(buffer, ".", nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  fill(buffer, "..", nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  fill(buffer, kFileName, nullptr, 0, static_cast<fuse_fill_dir_flags>(0));
  return 0;
}

int ed_open(const char* path, fuse_file_info* fi) {
  if (!is_file(path)) return -ENOENT;
  if ((fi->flags & O_ACCMODE) != O_RDONLY) return -EROFS;
  fi->direct_io = 1;
  return 0;
}

int ed_read(const char* path, char* buffer, std::size_t size, off_t offset, fuse_file_info* /*fi*/) {
  if (!is_file(path)) return -ENOENT;
  const std::uint64_t capacity = g_drive->capacity_bytes();
  if (offset < 0) return -EINVAL;
  if (static_cast<std::uint64_t>(offset) >= capacity) return 0;
  size = static_cast<std::size_t>(std::min<std::uint64_t>(size, capacity - static_cast<std::uint64_t>(offset)));
  g_drive->serve(static_cast<std::uint64_t>(offset), size,
                 [&] { fill_pattern(buffer, static_cast<std::uint64_t>(offset), size); });
  return static_cast<int>(size);
}

}  // namespace

int main(int argc, char* argv[]) {
  disktune::emudisk::EmudiskOptions options;
  try {
    options = disktune::emudisk::parse_emudisk_options(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  if (options.help) {
    std::fputs(options.help_text.c_str(), stdout);
    return 0;
  }
  // Sleeps end within microseconds of the model's times, not the default 50 us slack.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
  std::FILE* trace = nullptr;
  if (!options.trace_path.empty() && !(trace = std::fopen(options.trace_path.c_str(), "w"))) {
    std::fprintf(stderr, "emudisk: --trace %s: %s\n", options.trace_path.c_str(), std::strerror(errno));
    return 2;
  }
  DriveQueue drive(disktune::emudisk::make_model(options), trace);
  g_drive = &drive;
  g_max_background = options.max_background;

  std::vector<std::string> args{argv[0]};
  args.insert(args.end(), options.fuse_args.begin(), options.fuse_args.end());
  // max_idle_threads too: libfuse 3.14 warns of an unset one ("Ignoring invalid max threads").
  const std::string threads = std::to_string(options.max_threads);
  args.insert(args.end(), {"-o", "ro,fsname=emudisk-" + options.profile +
                                     ",subtype=emudisk,max_threads=" + threads + ",max_idle_threads=" + threads});
  std::vector<char*> fuse_argv;
  for (auto& a : args) fuse_argv.push_back(a.data());
  fuse_argv.push_back(nullptr);

  fuse_operations operations{};
  operations.init = ed_init;
  operations.getattr = ed_getattr;
  operations.readdir = ed_readdir;
  operations.open = ed_open;
  operations.read = ed_read;
  const int code = fuse_main(static_cast<int>(args.size()), fuse_argv.data(), &operations, nullptr);
  std::fprintf(stderr, "emudisk: %s\n", disktune::emudisk::describe(drive.stats()).c_str());
  g_drive = nullptr;
  if (trace) std::fclose(trace);
  return code;
}
