// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxDevice: a real whole-disk block device (queue settings, ATA knobs through HDIO and SG_IO).
#include "probe/linux/linux_device.hpp"

#include "probe/linux/ata_knobs.hpp"
#include "probe/configuration.hpp"
#include "probe/linux/linux_ata.hpp"
#include "probe/linux/linux_block_io.hpp"
#include "probe/linux/linux_queue.hpp"
#include "probe/linux/sysfs.hpp"
#include "probe/core/unique_fd.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>

namespace disktune::probe {
namespace {

class LinuxDevice final : public Device {
 public:
  LinuxDevice(HeldName held, UniqueFd fd, const std::string& sysfs_dir)
      : path_(held.shown),
        held_(std::move(held)),
        fd_(std::move(fd)),
        queue_(SysfsQueue(sysfs_dir + "/queue"), fd_.get(), path_),
        transport_(make_linux_ata_transport(fd_.get(), path_, sysfs_dir)),
        ata_(*transport_) {}

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return false; }
  [[nodiscard]] HeldName held() const override { return held_; }

  // Not cached: the kernel's copy changes when it revalidates the drive.
  Result<IdentifyInfo> identify() override { return ata_.identify(); }

  std::vector<Capability> capabilities() override {
    std::vector<Capability> result;
    for (const auto id : all_settings())
      result.push_back(LinuxQueue::handles(id) ? queue_.capability(id) : ata_.capability(id));
    return result;
  }

  Result<SettingValue> read(SettingId id) override {
    return LinuxQueue::handles(id) ? queue_.read(id) : ata_.read(id);
  }

  Result<void> apply(SettingId id, const SettingValue& value) override {
    return LinuxQueue::handles(id) ? queue_.apply(id, value) : ata_.apply(id, value);
  }

  // Only settings this backend can change: a snapshot must be restorable.
  Result<Settings> snapshot() override {
    Settings settings;
    for (const auto id : all_settings()) {
      if (!changeable(id)) continue;
      auto value = read(id);
      if (!value) return value.error();
      settings.emplace(id, *value);
    }
    return settings;
  }

  // ATA settings are always re-sent when asked for: a drive's read-back can lie (QEMU keeps
  // IDENTIFY word 59 at 16 after SET MULTIPLE 0, measured in the lab), and skipping the
  // command would leave a drive that fails every read. A queue setting is written only if it
  // differs when its turn comes: restoring the scheduler also resets nr_requests to the
  // elevator's default, which may be a value (below 4) that a write cannot produce.
  [[nodiscard]] bool read_back_trusted(SettingId id) const override { return LinuxQueue::handles(id); }

  Result<SchedulerTunables> scheduler_tunables() override { return queue_.active_tunables(); }
  void keep_tunables(const SchedulerTunables& tunables) override { queue_.keep_tunables(tunables); }

  // The settings, then the scheduler's own tunables (which no Settings entry holds).
  Result<void> restore(const Settings& settings) override {
    if (auto restored = apply_configuration(*this, settings); !restored) return restored;
    return queue_.restore_kept_tunables();
  }

  Result<std::unique_ptr<BlockIo>> open_io(IoMode mode) override {
    // Through the held descriptor: the user's name may point elsewhere by now.
    if (auto same = check_held(held_); !same) return same.error();
    return open_linux_block_io(held_.path, mode, path_);
  }

 private:
  bool changeable(SettingId id) {
    if (LinuxQueue::handles(id)) return queue_.support(id).support == Support::supported;
    return ata_.capability(id).support == Support::supported;
  }

  std::string path_;
  HeldName held_;
  UniqueFd fd_;
  LinuxQueue queue_;
  std::unique_ptr<AtaTransport> transport_;
  AtaKnobs ata_;
};

Error partition_error(const std::string& path, const std::string& sysfs_dir) {
  std::error_code ec;
  const auto disk = std::filesystem::canonical(sysfs_dir, ec).parent_path().filename().string();
  return Error{std::make_error_code(std::errc::invalid_argument),
               "open: is a partition; settings belong to the whole disk (use /dev/" +
                   (ec || disk.empty() ? std::string("<disk>") : disk) + ")",
               path};
}

// The user's name refused with the reason a person needs (a typo, a file that is no disk),
// before anything is opened: opening a FIFO would wait for a writer.
Result<void> check_named_block_device(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT)
      return errno_error(ENOENT, "open: no such device (lsblk -d lists the whole disks, /dev/disk/by-id their stable names)", path);
    return errno_error(errno, "stat", path);
  }
  if (!S_ISBLK(info.st_mode))
    return errno_error(ENOTBLK, "open: not a block device (expected a whole disk such as /dev/sda)", path);
  return {};
}

}  // namespace

Result<std::unique_ptr<Device>> make_linux_device(const std::string& path) {
  if (auto named = check_named_block_device(path); !named) return named.error();
  // Then every fact is taken from the descriptor: a name re-pointed between the stat and the
  // open must not have the checks judge one device and the run hold another. O_NONBLOCK, so
  // that a FIFO swapped in meanwhile cannot block the open (the S_ISBLK check below refuses it).
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd) return errno_error(errno, "open", path);
  auto held = held_name(fd.get(), path);
  if (!held) return held.error();
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0 || !S_ISBLK(info.st_mode))
    return errno_error(ENOTBLK, "open: not a block device (expected a whole disk such as /dev/sda)", path);
  const auto sysfs_dir = sysfs_block_dir(major(held->device_number), minor(held->device_number));
  if (::access((sysfs_dir + "/partition").c_str(), F_OK) == 0)
    return partition_error(path, sysfs_dir);
  return std::unique_ptr<Device>(std::make_unique<LinuxDevice>(std::move(*held), std::move(fd), sysfs_dir));
}

}  // namespace disktune::probe
