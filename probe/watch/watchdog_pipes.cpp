// SPDX-License-Identifier: GPL-2.0-or-later
// The watchdog's pipes: payload and heartbeat reads that never block, polls bounded by a slice.
#include "probe/watch/watchdog_pipes.hpp"

#include <cerrno>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace disktune::probe::watch_detail {

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

bool make_pipe(int fds[2]) { return ::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0; }

void drain(int fd, std::string& payload, bool& open) {
  char chunk[65536];
  while (open) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got > 0) {
      payload.append(chunk, static_cast<std::size_t>(got));
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return;
    } else {
      open = false;
    }
  }
}

int drain_beats(int fd) {
  char chunk[4096];
  int beats = 0;
  for (;;) {
    const ssize_t got = ::read(fd, chunk, sizeof chunk);
    if (got > 0) {
      beats += static_cast<int>(got);
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      return beats;  // EAGAIN (nothing more), EOF or an error
    }
  }
}

void wait_readable(int fd, int beat_fd, std::chrono::milliseconds slice, int note_fd) {
  pollfd entries[3] = {{fd, POLLIN, 0}, {beat_fd, POLLIN, 0}, {note_fd, POLLIN, 0}};
  ::poll(entries, 3, static_cast<int>(slice.count()));  // EINTR: the caller loops anyway
}

void NoteReader::read_lines() {
  drain(fd_, pending_, open_);
  std::size_t start = 0;
  for (std::size_t end; (end = pending_.find('\n', start)) != std::string::npos; start = end + 1)
    if (on_note_) on_note_(std::string_view(pending_).substr(start, end - start));
  pending_.erase(0, start);
}

}  // namespace disktune::probe::watch_detail
