// SPDX-License-Identifier: GPL-2.0-or-later
// blockfuse: a test filesystem with one read-only file whose reads block while a flag file exists.
//
// Usage: blockfuse FLAG_FILE MOUNTPOINT [FUSE options, e.g. -f]
// The mount holds one file, disk.img (64 MiB, deterministic content: every 8-byte word is
// splitmix64 of its index). While FLAG_FILE exists, every read of disk.img waits (polling
// every 10 ms) instead of answering: a loop device over disk.img then leaves its readers in
// uninterruptible sleep (state D) until the flag goes away or the FUSE connection is aborted
// (echo 1 > /sys/fs/fuse/connections/N/abort). Files are opened with direct_io, so no read is
// served from the FUSE page cache. Used by tests/scripts/wedged_fuse.sh (docs/architecture.md "A real
// uninterruptible hang, on demand").
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char kFileName[] = "disk.img";
static const off_t kFileBytes = 64 << 20;
static const char* flag_path;

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static int is_file(const char* path) { return path[0] == '/' && strcmp(path + 1, kFileName) == 0; }

static int bf_getattr(const char* path, struct stat* st, struct fuse_file_info* fi) {
  (void)fi;
  memset(st, 0, sizeof *st);
  if (strcmp(path, "/") == 0) {
    st->st_mode = S_IFDIR | 0555;
    st->st_nlink = 2;
    return 0;
  }
  if (!is_file(path)) return -ENOENT;
  st->st_mode = S_IFREG | 0444;
  st->st_nlink = 1;
  st->st_size = kFileBytes;
  return 0;
}

static int bf_readdir(const char* path, void* buf, fuse_fill_dir_t fill, off_t offset,
                      struct fuse_file_info* fi, enum fuse_readdir_flags flags) {
  (void)offset;
  (void)fi;
  (void)flags;
  if (strcmp(path, "/") != 0) return -ENOENT;
  fill(buf, ".", NULL, 0, 0);
  fill(buf, "..", NULL, 0, 0);
  fill(buf, kFileName, NULL, 0, 0);
  return 0;
}

static int bf_open(const char* path, struct fuse_file_info* fi) {
  if (!is_file(path)) return -ENOENT;
  if ((fi->flags & O_ACCMODE) != O_RDONLY) return -EROFS;
  fi->direct_io = 1;
  return 0;
}

static void wait_while_flagged(void) {
  const struct timespec slice = {0, 10 * 1000 * 1000};
  while (access(flag_path, F_OK) == 0) nanosleep(&slice, NULL);
}

static int bf_read(const char* path, char* buf, size_t size, off_t offset, struct fuse_file_info* fi) {
  (void)fi;
  if (!is_file(path)) return -ENOENT;
  wait_while_flagged();
  if (offset >= kFileBytes) return 0;
  if ((off_t)size > kFileBytes - offset) size = (size_t)(kFileBytes - offset);
  for (size_t i = 0; i < size; ++i) {
    const uint64_t at = (uint64_t)offset + i;
    buf[i] = (char)(splitmix64(at / 8) >> (8 * (at % 8)));
  }
  return (int)size;
}

static const struct fuse_operations kOperations = {
    .getattr = bf_getattr,
    .open = bf_open,
    .read = bf_read,
    .readdir = bf_readdir,
};

int main(int argc, char* argv[]) {
  if (argc < 3) {
    fprintf(stderr, "usage: blockfuse FLAG_FILE MOUNTPOINT [FUSE options]\n");
    return 2;
  }
  flag_path = argv[1];
  argv[1] = argv[0];  // fuse_main sees: blockfuse MOUNTPOINT [options]
  return fuse_main(argc - 1, argv + 1, &kOperations, NULL);
}
