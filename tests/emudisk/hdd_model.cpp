// SPDX-License-Identifier: GPL-2.0-or-later
// The emulated hard disk's timing (see hdd_model.hpp for the model and its sources).
#include "tests/emudisk/hdd_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace disktune::emudisk {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double fraction(double x) { return x - std::floor(x); }

}  // namespace

HddModel::HddModel(const HddProfile& profile)
    : profile_(profile),
      outer_bytes_s_(profile.outer_mib_s * kMiB),
      slope_((profile.outer_mib_s - profile.inner_mib_s) * kMiB / static_cast<double>(profile.capacity_bytes)) {
  if (!(profile.rpm > 0 && profile.inner_mib_s > 0 && profile.outer_mib_s >= profile.inner_mib_s &&
        profile.full_seek_ms >= profile.min_seek_ms && profile.min_seek_ms >= 0 && profile.queue_depth >= 1 &&
        profile.capacity_bytes > 0 && profile.interface_mib_s > 0))
    std::abort();  // emudisk_options checks every value before a model is built
  total_tracks_ = revolutions_to(static_cast<double>(profile.capacity_bytes));
}

double HddModel::revolutions_to(double offset_bytes) const {
  const double t = revolution_s();
  if (slope_ == 0) return offset_bytes / (outer_bytes_s_ * t);
  // The integral of 1 / (rate(x) * T) with rate(x) = outer - slope * x.
  return std::log(outer_bytes_s_ / (outer_bytes_s_ - slope_ * offset_bytes)) / (t * slope_);
}

double HddModel::offset_at(double revolutions) const {
  const double t = revolution_s();
  if (slope_ == 0) return revolutions * outer_bytes_s_ * t;
  return outer_bytes_s_ / slope_ * (1.0 - std::exp(-revolutions * t * slope_));
}

double HddModel::seek_s(double from_bytes, double to_bytes) const {
  const double tracks = std::abs(std::floor(revolutions_to(to_bytes)) - std::floor(revolutions_to(from_bytes)));
  if (tracks == 0) return 0.0;
  const double d = std::min(1.0, tracks / total_tracks_);
  return (profile_.min_seek_ms + (profile_.full_seek_ms - profile_.min_seek_ms) * std::sqrt(d)) / 1e3;
}

// The read-ahead stream reads on from stream_origin_ (since stream_since_) at the media rate
// into a buffer holding cache_kib beyond what the host has taken (stream_taken_); full, it stops.
double HddModel::unbounded_head(double now) const {
  const double passed = std::max(0.0, now - stream_since_) / revolution_s();
  return std::min(offset_at(revolutions_to(stream_origin_) + passed), static_cast<double>(profile_.capacity_bytes));
}

double HddModel::stream_limit() const {
  return std::min(stream_taken_ + static_cast<double>(profile_.cache_kib) * 1024.0,
                  static_cast<double>(profile_.capacity_bytes));
}

double HddModel::stream_head(double now) const { return std::min(unbounded_head(now), stream_limit()); }

double HddModel::resume_at(double now) const {
  const double limit = stream_limit();
  if (unbounded_head(now) < limit) return -1;  // still reading
  // Stopped at the limit: it reads on when the limit's sector next comes round.
  return now + fraction(fraction(revolutions_to(limit)) - fraction(now / revolution_s())) * revolution_s();
}

double HddModel::stream_time_of(double offset_bytes, double now) const {
  const double resume = resume_at(now);
  if (resume < 0) return stream_since_ + (revolutions_to(offset_bytes) - revolutions_to(stream_origin_)) * revolution_s();
  return resume + (revolutions_to(offset_bytes) - revolutions_to(stream_limit())) * revolution_s();
}

bool HddModel::in_stream(const Request& request, double now) const {
  if (!streaming_) return false;
  const double head = stream_head(now);
  const double oldest = std::max(stream_start_, head - static_cast<double>(profile_.cache_kib) * 1024.0);
  const auto offset = static_cast<double>(request.offset_bytes);
  if (offset < oldest) return false;
  if (offset <= head) return true;
  // Ahead of the head. A stream the host has been reading along (sequential detection) is
  // read on through a gap of up to cache_kib: the pieces of a readahead window reach the
  // drive out of order, and the one skipped is asked for a moment later. Otherwise read on
  // only when that is quicker than seeking there.
  if (stream_reads_ >= 2 && offset - head <= static_cast<double>(profile_.cache_kib) * 1024.0) return true;
  return stream_time_of(offset, now) - now <= miss_positioning_s(request, now);
}

double HddModel::miss_positioning_s(const Request& request, double now) const {
  const auto offset = static_cast<double>(request.offset_bytes);
  const double head = streaming_ ? stream_head(now) : head_bytes_;
  const double positioned = now + profile_.overhead_us / 1e6 + seek_s(head, offset);
  const double wait = fraction(fraction(revolutions_to(offset)) - fraction(positioned / revolution_s()));
  return positioned + wait * revolution_s() - now;
}

double HddModel::positioning_s(const Request& request, double now) const {
  if (in_stream(request, now)) {
    const auto offset = static_cast<double>(request.offset_bytes);
    return offset <= stream_head(now) ? 0.0 : stream_time_of(offset, now) - now;
  }
  return miss_positioning_s(request, now);
}

double HddModel::ready_at(double now) const { return std::max(now, busy_until_); }

std::size_t HddModel::choose(std::span<const Request> held, double now) const {
  std::size_t best = 0;
  double best_s = positioning_s(held[0], now);
  for (std::size_t i = 1; i < held.size(); ++i) {
    const double s = positioning_s(held[i], now);
    if (s < best_s) best = i, best_s = s;  // ties go to the oldest
  }
  if (in_stream(held[best], now)) return best;
  // Sequential detection, as drive firmware does: of a run of held reads that follow one
  // another, the first is served first (then the rest stream), whichever SPTF would pick.
  for (std::size_t step = 0; step < held.size(); ++step) {
    const auto predecessor = std::find_if(held.begin(), held.end(), [&](const Request& r) {
      return r.offset_bytes + r.size_bytes == held[best].offset_bytes;
    });
    if (predecessor == held.end()) break;
    best = static_cast<std::size_t>(predecessor - held.begin());
  }
  return best;
}

double HddModel::start(const Request& request, double now) {
  const auto end = static_cast<double>(request.offset_bytes + request.size_bytes);
  const double to_host_s = static_cast<double>(request.size_bytes) / (profile_.interface_mib_s * kMiB);
  double done = now + profile_.overhead_us / 1e6 + to_host_s;
  if (in_stream(request, now)) {
    // From the buffer, once the stream has read the last byte; a stopped stream reads on.
    if (end > stream_head(now)) {
      const double resume = resume_at(now);
      done = std::max(done, stream_time_of(end, now));
      if (resume >= 0) stream_origin_ = stream_limit(), stream_since_ = resume;
    }
    stream_taken_ = std::max(stream_taken_, end);
    stream_reads_ += 1;
  } else {
    const double first_byte = now + miss_positioning_s(request, now);
    done = first_byte + (revolutions_to(end) - revolutions_to(static_cast<double>(request.offset_bytes))) * revolution_s();
    head_bytes_ = end;
    streaming_ = profile_.cache_kib > 0;
    stream_start_ = stream_origin_ = stream_taken_ = end;
    stream_reads_ = 0;
    stream_since_ = done;
  }
  busy_until_ = done;
  return done;
}

}  // namespace disktune::emudisk
