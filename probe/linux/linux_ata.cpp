// SPDX-License-Identifier: GPL-2.0-or-later
// LinuxAtaTransport: HDIO_GET/SET ioctls, HDIO_GET_IDENTITY, HDIO_DRIVE_CMD, SG_IO, xfer_mode.
#include "probe/linux/linux_ata.hpp"

#include "probe/linux/linux_sg_io.hpp"
#include "probe/linux/sysfs.hpp"

#include <linux/hdreg.h>
#include <sys/ioctl.h>

#include <filesystem>

namespace disktune::probe {
namespace {

// The word ranges of the identify strings: serial, firmware, model (docs/ata-reference.md §1.2).
constexpr std::array<std::pair<std::size_t, std::size_t>, 3> kStringWords{{{10, 19}, {23, 26}, {27, 46}}};

unsigned long get_request(HdioKnob knob) {
  switch (knob) {
    case HdioKnob::multcount: return HDIO_GET_MULTCOUNT;
    case HdioKnob::io_support: return HDIO_GET_32BIT;
    case HdioKnob::unmaskirq: return HDIO_GET_UNMASKINTR;
    case HdioKnob::using_dma: return HDIO_GET_DMA;
  }
  return 0;
}

unsigned long set_request(HdioKnob knob) {
  switch (knob) {
    case HdioKnob::multcount: return HDIO_SET_MULTCOUNT;
    case HdioKnob::io_support: return HDIO_SET_32BIT;
    case HdioKnob::unmaskirq: return HDIO_SET_UNMASKINTR;
    case HdioKnob::using_dma: return HDIO_SET_DMA;
  }
  return 0;
}

class LinuxAtaTransport final : public AtaTransport {
 public:
  LinuxAtaTransport(int fd, std::string path, std::string sysfs_dir)
      : fd_(fd), path_(std::move(path)), sysfs_dir_(std::move(sysfs_dir)) {}

  [[nodiscard]] const std::string& path() const override { return path_; }

  Result<std::int64_t> hdio_get(HdioKnob knob) override {
    long value = 0;
    if (::ioctl(fd_, get_request(knob), &value) != 0)
      return errno_error(errno, "ioctl(" + std::string(hdio_get_name(knob)) + ")", path_);
    return static_cast<std::int64_t>(value);
  }

  Result<void> hdio_set(HdioKnob knob, std::int64_t value) override {
    if (::ioctl(fd_, set_request(knob), static_cast<unsigned long>(value)) != 0)
      return errno_error(errno, "ioctl(" + std::string(hdio_set_name(knob)) + " " + std::to_string(value) + ")",
                         path_);
    return {};
  }

  Result<std::array<std::byte, 512>> hdio_identity() override { return read_hdio_identity(fd_, path_); }

  Result<std::optional<AtaStatusReturn>> sg_ata(const AtaCommand& command, int cdb_bytes,
                                                std::span<std::byte> data) override {
    return sg_io_ata(fd_, path_, command, cdb_bytes, data);
  }

  // Non-data only: [0] command, [1] count, [2] feature, [3] sectors to read = 0.
  Result<void> drive_cmd(const AtaCommand& command) override {
    std::array<unsigned char, 4> args{command.command, command.count, command.feature, 0};
    if (::ioctl(fd_, HDIO_DRIVE_CMD, args.data()) != 0)
      return errno_error(errno, "ioctl(HDIO_DRIVE_CMD " + command.name + ")", path_);
    return {};
  }

  Result<std::string> libata_xfer_mode() override {
    std::error_code ec;
    const auto device = std::filesystem::canonical(sysfs_dir_ + "/device", ec);
    const auto name = ec ? std::nullopt : libata_device_name(device.string());
    if (!name) return errno_error(ENOENT, "find libata device", sysfs_dir_ + "/device");
    return read_sysfs("/sys/class/ata_device/" + *name + "/xfer_mode");
  }

 private:
  int fd_;
  std::string path_;
  std::string sysfs_dir_;
};

}  // namespace

void hdio_identity_to_ata_order(std::span<std::byte, 512> block) {
  for (const auto& [first, last] : kStringWords)
    for (std::size_t word = first; word <= last; ++word) std::swap(block[2 * word], block[2 * word + 1]);
}

Result<std::array<std::byte, 512>> read_hdio_identity(int fd, const std::string& path) {
  std::array<std::byte, 512> block{};
  if (::ioctl(fd, HDIO_GET_IDENTITY, block.data()) != 0) return errno_error(errno, "ioctl(HDIO_GET_IDENTITY)", path);
  hdio_identity_to_ata_order(block);
  return block;
}

std::unique_ptr<AtaTransport> make_linux_ata_transport(int fd, std::string path, std::string sysfs_dir) {
  return std::make_unique<LinuxAtaTransport>(fd, std::move(path), std::move(sysfs_dir));
}

}  // namespace disktune::probe
