// SPDX-License-Identifier: GPL-2.0-or-later
// The watchdog's pipes (probe/watch/watchdog.cpp only): payload and heartbeat reads that never block.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace disktune::probe::watch_detail {

/// Longest single sleep of the parent while it watches or reaps a child [ms].
inline constexpr int kPollSliceMs = 10;

/// Write all of `data` to `fd` (retrying EINTR and short writes); false on an error.
bool write_all(int fd, std::string_view data);

/// pipe2 with both ends close-on-exec and non-blocking; false on an error (errno set).
bool make_pipe(int fds[2]);

/// Append what the non-blocking pipe `fd` holds now to `payload`; clears `open` at EOF or
/// on a read error.
void drain(int fd, std::string& payload, bool& open);

/// Read whatever heartbeats are queued on `fd`; returns how many bytes (beats) arrived.
int drain_beats(int fd);

/// Sleep until `fd`, `beat_fd` or `note_fd` is readable or `slice` passes (fd < 0: not watched).
void wait_readable(int fd, int beat_fd, std::chrono::milliseconds slice, int note_fd = -1);

/// The child's notes (Heartbeat::note): reads what the pipe holds and hands every complete
/// line (without its newline) to `on_note`, in order; a partial line waits for its end.
class NoteReader {
 public:
  NoteReader(int fd, const std::function<void(std::string_view)>& on_note) : fd_(fd), on_note_(on_note) {}
  /// The pipe to poll, or -1 once it reached EOF.
  [[nodiscard]] int fd() const { return open_ ? fd_ : -1; }
  /// Read what is there and deliver the complete lines.
  void read_lines();

 private:
  int fd_;
  const std::function<void(std::string_view)>& on_note_;
  std::string pending_;
  bool open_ = true;
};

}  // namespace disktune::probe::watch_detail
