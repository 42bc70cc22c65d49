// SPDX-License-Identifier: GPL-2.0-or-later
// The emulated hard disk: seek over distance, rotation over wall time, zones, NCQ, a read-ahead buffer.
#pragma once

#include "tests/emudisk/drive_model.hpp"

#include <cstdint>

namespace disktune::emudisk {

/// The physical constants of an emulated hard disk. Defaults: a 7200 rpm desktop SATA disk of
/// the late 2000s (datasheet class: 8.5 ms average seek, 160 -> 80 MiB/s from the outer to the
/// inner zone, NCQ depth 32, an 8 MiB segment of its cache used for read-ahead).
struct HddProfile {
  double rpm = 7200;                 ///< spindle speed; one revolution takes 60 / rpm s
  double min_seek_ms = 1.0;          ///< a one-track seek, settle included
  double full_seek_ms = 15.0;        ///< a full-stroke seek
  double overhead_us = 100;          ///< command processing per read, hit or miss
  double outer_mib_s = 160;          ///< media rate at byte 0 (the outer zone)
  double inner_mib_s = 80;           ///< media rate at the last byte (the inner zone)
  double interface_mib_s = 300;      ///< SATA 3 Gb/s: how fast buffered data reaches the host
  std::uint64_t queue_depth = 32;    ///< NCQ: commands held and reordered; 1 = one at a time, FIFO
  std::uint64_t cache_kib = 8192;    ///< read-ahead buffer; 0 = none (every read positions)
  std::uint64_t capacity_bytes = std::uint64_t{64} << 30;
};

/// An emulated hard disk's timing.
/// - Seek over a distance d (tracks crossed over all tracks, 0 < d <= 1): min_seek +
///   (full_seek - min_seek) * sqrt(d), the square-root curve of Ruemmler & Wilkes ("An
///   Introduction to Disk Drive Modeling", IEEE Computer 27(3), 1994); over two uniformly
///   random tracks its mean is min_seek + (full_seek - min_seek) * 8/15 (E sqrt|x-y| = 8/15).
///   The same track: no seek.
/// - Rotation over wall time: the head's angle at time t is frac(t * rpm / 60); a byte's angle
///   and track follow from the zones, so a read waits for its first byte to come round.
/// - Zones: the media rate falls linearly with the byte offset from outer_mib_s to inner_mib_s,
///   so a track (one revolution) holds rate * 60 / rpm bytes.
/// - NCQ: of the queue_depth oldest commands, the next served is the one with the shortest
///   positioning time (seek plus rotational wait; a buffered one costs none): SPTF; but of
///   held reads that follow one another (one ends where the next starts) the first goes
///   first, as firmware's sequential detection does: the kernel and FUSE hand over the pieces
///   of one readahead window in any order.
/// - Read-ahead: after a read from the media the head reads on into a buffer until it holds
///   cache_kib beyond what the host has taken, then stops (and reads on, once the host takes
///   more, when the sector it stopped at comes round). A read that starts in the buffer's last
///   cache_kib is served from it; one ahead of the head is read on to when that is quicker
///   than a seek and rotational wait, or, once the host has read two reads along the stream
///   (sequential detection), when it is within cache_kib ahead; a read elsewhere moves the
///   head and restarts the stream.
/// Errors: none (programmer errors abort).
class HddModel final : public DriveModel {
 public:
  explicit HddModel(const HddProfile& profile);

  [[nodiscard]] double ready_at(double now) const override;
  [[nodiscard]] std::size_t choose(std::span<const Request> held, double now) const override;
  double start(const Request& request, double now) override;
  [[nodiscard]] std::size_t queue_depth() const override { return profile_.queue_depth; }
  [[nodiscard]] std::uint64_t capacity_bytes() const override { return profile_.capacity_bytes; }

  /// Revolutions the head passes from byte 0 to byte `offset` (fractional; its integer part is
  /// the track, the fraction the byte's angle).
  [[nodiscard]] double revolutions_to(double offset_bytes) const;
  /// Seek time [s] from byte `from` to byte `to`: 0 on the same track.
  [[nodiscard]] double seek_s(double from_bytes, double to_bytes) const;
  /// Time [s] from `now` until the drive could transfer `request`'s first byte: 0 when the
  /// read-ahead stream holds or is about to pass it, else overhead, seek and rotational wait.
  [[nodiscard]] double positioning_s(const Request& request, double now) const;
  /// One revolution [s].
  [[nodiscard]] double revolution_s() const { return 60.0 / profile_.rpm; }

 private:
  [[nodiscard]] bool in_stream(const Request& request, double now) const;
  [[nodiscard]] double miss_positioning_s(const Request& request, double now) const;
  [[nodiscard]] double unbounded_head(double now) const;
  [[nodiscard]] double stream_limit() const;
  [[nodiscard]] double stream_head(double now) const;
  [[nodiscard]] double resume_at(double now) const;
  [[nodiscard]] double stream_time_of(double offset_bytes, double now) const;
  [[nodiscard]] double offset_at(double revolutions) const;

  HddProfile profile_;
  double outer_bytes_s_;
  double slope_;            // media rate lost per byte of offset [bytes/s per byte]
  double total_tracks_;
  double head_bytes_ = 0;   // where the last media read ended
  double busy_until_ = 0;
  bool streaming_ = false;  // the read-ahead stream: from stream_origin_ at stream_since_
  double stream_start_ = 0;  // its first byte
  double stream_origin_ = 0;
  double stream_since_ = 0;
  double stream_taken_ = 0;  // the end of what the host has read from it
  int stream_reads_ = 0;     // reads served from it: from 2 on the host is reading along it
};

}  // namespace disktune::emudisk
