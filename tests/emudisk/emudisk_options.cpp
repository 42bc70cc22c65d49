// SPDX-License-Identifier: GPL-2.0-or-later
// emudisk's command line (Boost.Program_options); FUSE's own options pass through unparsed.
#include "tests/emudisk/emudisk_options.hpp"

#include <boost/program_options.hpp>

#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace disktune::emudisk {
namespace po = boost::program_options;
namespace {

void require(bool ok, const std::string& option, const std::string& reason) {
  if (!ok) throw std::invalid_argument("emudisk: --" + option + ": " + reason);
}

po::options_description describe_options(EmudiskOptions& o, double& capacity_gib, double& overhead_us,
                                          std::uint64_t& queue_depth) {
  po::options_description d("emudisk options (the rest goes to FUSE: MOUNTPOINT [-f] [-o ...])");
  d.add_options()("help,h", "show this help")(
      "profile", po::value(&o.profile)->default_value("hdd"), "hdd (a rotating disk) or ssd")(
      "capacity-gib", po::value(&capacity_gib)->default_value(64), "size of the emulated disk [GiB]")(
      "overhead-us", po::value(&overhead_us), "command processing per read [us] (hdd 100, ssd 10)")(
      "queue-depth", po::value(&queue_depth)->default_value(32), "commands the drive holds (NCQ); 1 = FIFO")(
      "rpm", po::value(&o.hdd.rpm)->default_value(o.hdd.rpm), "hdd: spindle speed")(
      "min-seek-ms", po::value(&o.hdd.min_seek_ms)->default_value(o.hdd.min_seek_ms), "hdd: one-track seek")(
      "full-seek-ms", po::value(&o.hdd.full_seek_ms)->default_value(o.hdd.full_seek_ms), "hdd: full-stroke seek")(
      "outer-mib-s", po::value(&o.hdd.outer_mib_s)->default_value(o.hdd.outer_mib_s), "hdd: media rate, outer zone")(
      "inner-mib-s", po::value(&o.hdd.inner_mib_s)->default_value(o.hdd.inner_mib_s), "hdd: media rate, inner zone")(
      "interface-mib-s", po::value(&o.hdd.interface_mib_s)->default_value(o.hdd.interface_mib_s),
      "hdd: buffer to host")("cache-kib", po::value(&o.hdd.cache_kib)->default_value(o.hdd.cache_kib),
                             "hdd: read-ahead buffer; 0 = none")(
      "read-us", po::value(&o.ssd.read_us)->default_value(o.ssd.read_us), "ssd: flash read, mean")(
      "spread-pct", po::value(&o.ssd.spread_pct)->default_value(o.ssd.spread_pct), "ssd: +- spread of a read")(
      "units", po::value(&o.ssd.units)->default_value(o.ssd.units), "ssd: reads served at once")(
      "bandwidth-mib-s", po::value(&o.ssd.bandwidth_mib_s)->default_value(o.ssd.bandwidth_mib_s),
      "ssd: link ceiling")("seed", po::value(&o.ssd.seed)->default_value(o.ssd.seed), "ssd: seed of the spread")(
      "trace", po::value(&o.trace_path), "write one line per read to FILE: arrival, start, done [s], offset, size, waiting")(
      "max-threads", po::value(&o.max_threads)->default_value(o.max_threads), "FUSE worker threads")(
      "max-background", po::value(&o.max_background)->default_value(o.max_background),
      "outstanding asynchronous reads the kernel sends");
  return d;
}

void check_hdd(const HddProfile& p) {
  require(p.rpm >= 1000 && p.rpm <= 20000, "rpm", "must be 1000-20000");
  require(p.min_seek_ms >= 0 && p.min_seek_ms <= p.full_seek_ms, "min-seek-ms", "must be 0 to --full-seek-ms");
  require(p.full_seek_ms <= 100, "full-seek-ms", "must be at most 100");
  // Rates from 0.01 MiB/s: a slower one makes a read's time overflow the clock (1e-300 did).
  require(p.inner_mib_s >= 0.01 && p.inner_mib_s <= p.outer_mib_s, "inner-mib-s", "must be 0.01 to --outer-mib-s");
  require(p.outer_mib_s <= 10000, "outer-mib-s", "must be at most 10000");
  require(p.interface_mib_s >= 0.01 && p.interface_mib_s <= 100000, "interface-mib-s", "must be 0.01-100000");
  require(p.overhead_us >= 0 && p.overhead_us <= 100000, "overhead-us", "must be 0-100000");
  require(p.cache_kib <= (1u << 20), "cache-kib", "must be at most 1048576");
}

void check_ssd(const SsdProfile& p) {
  require(p.read_us > 0 && p.read_us <= 1e6, "read-us", "must be above 0, at most 1000000");
  require(p.spread_pct >= 0 && p.spread_pct < 100, "spread-pct", "must be 0 to under 100");
  require(p.units >= 1 && p.units <= 1024, "units", "must be 1-1024");
  require(p.bandwidth_mib_s >= 0.01 && p.bandwidth_mib_s <= 100000, "bandwidth-mib-s", "must be 0.01-100000");
  require(p.overhead_us >= 0 && p.overhead_us <= 100000, "overhead-us", "must be 0-100000");
}

// The mount point, FUSE's first argument that is neither an option nor -o's value, must be a
// directory: FUSE mounts over a regular file too, and every access to it then fails.
void check_mount_point(const std::vector<std::string>& fuse_args) {
  for (std::size_t i = 0; i < fuse_args.size(); ++i) {
    if (fuse_args[i] == "-o") {
      ++i;
      continue;
    }
    if (fuse_args[i].starts_with("-")) continue;
    std::error_code ec;
    if (!std::filesystem::is_directory(fuse_args[i], ec))
      throw std::invalid_argument("emudisk: " + fuse_args[i] + ": the mount point is not a directory");
    return;
  }
}

}  // namespace

EmudiskOptions parse_emudisk_options(int argc, const char* const argv[]) {
  EmudiskOptions o;
  double capacity_gib = 64, overhead_us = -1;
  std::uint64_t queue_depth = 32;
  const auto description = describe_options(o, capacity_gib, overhead_us, queue_depth);
  po::variables_map vm;
  po::parsed_options parsed = [&] {
    try {
      return po::command_line_parser(argc, argv).options(description).allow_unregistered().run();
    } catch (const po::error& e) {
      throw std::invalid_argument(std::string("emudisk: ") + e.what());
    }
  }();
  try {
    po::store(parsed, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw std::invalid_argument(std::string("emudisk: ") + e.what());
  }
  o.fuse_args = po::collect_unrecognized(parsed.options, po::include_positional);
  // FUSE's own options are short (-f, -d, -s, -o OPT): a long one left over is a mistyped ours.
  for (const auto& arg : o.fuse_args)
    if (arg.starts_with("--")) throw std::invalid_argument("emudisk: " + arg + ": unknown option (see --help)");
  if (vm.count("help")) {
    std::ostringstream text;
    text << "usage: emudisk [options] MOUNTPOINT [-f] [-o FUSE_OPTION,...]\n" << description;
    o.help = true, o.help_text = text.str();
    return o;
  }
  require(o.profile == "hdd" || o.profile == "ssd", "profile", "'" + o.profile + "' is not hdd or ssd");
  require(capacity_gib >= 1.0 / 1024 && capacity_gib <= 1 << 20, "capacity-gib", "must be 1/1024 to 1048576");
  require(queue_depth >= 1 && queue_depth <= 1024, "queue-depth", "must be 1-1024");
  require(o.max_threads >= 1 && o.max_threads <= 100000, "max-threads", "must be 1-100000");
  require(o.max_background >= 1 && o.max_background <= 65535, "max-background", "must be 1-65535");
  if (o.fuse_args.empty()) throw std::invalid_argument("emudisk: no mount point given (see --help)");
  require(!vm.count("overhead-us") || overhead_us >= 0, "overhead-us", "must be 0-100000");
  check_mount_point(o.fuse_args);
  const auto capacity = static_cast<std::uint64_t>(capacity_gib * 1024) << 20;
  o.hdd.capacity_bytes = o.ssd.capacity_bytes = capacity;
  o.hdd.queue_depth = o.ssd.queue_depth = queue_depth;
  if (overhead_us >= 0) o.hdd.overhead_us = o.ssd.overhead_us = overhead_us;
  o.profile == "hdd" ? check_hdd(o.hdd) : check_ssd(o.ssd);
  return o;
}

std::unique_ptr<DriveModel> make_model(const EmudiskOptions& options) {
  if (options.profile == "ssd") return std::make_unique<SsdModel>(options.ssd);
  return std::make_unique<HddModel>(options.hdd);
}

}  // namespace disktune::emudisk
