// SPDX-License-Identifier: GPL-2.0-or-later
// sg_io_ata: the SG_IO ioctl for ATA PASS-THROUGH; CDBs and sense are ata_passthrough's.
#include "probe/linux/linux_sg_io.hpp"

#include "probe/core/assert.hpp"

#include <scsi/sg.h>
#include <sys/ioctl.h>

#include <array>
#include <cerrno>
#include <algorithm>
#include <cstdint>

namespace disktune::probe {
namespace {

constexpr unsigned kTimeoutMs = 15000;

}  // namespace

Result<std::optional<AtaStatusReturn>> sg_io_ata(int fd, const std::string& path, const AtaCommand& command,
                                                 int cdb_bytes, std::span<std::byte> data) {
  DT_ASSERT(cdb_bytes == 16 || cdb_bytes == 12);
  DT_ASSERT(data.size() == command.data_bytes);
  const std::string op = "SG_IO ATA_" + std::to_string(cdb_bytes) + " " + command.name;
  std::array<std::uint8_t, 16> cdb{};
  if (cdb_bytes == 16) {
    cdb = build_ata16_cdb(command);
  } else {
    const auto short_cdb = build_ata12_cdb(command);
    std::copy(short_cdb.begin(), short_cdb.end(), cdb.begin());
  }
  std::array<std::uint8_t, 32> sense{};
  sg_io_hdr_t hdr{};
  hdr.interface_id = 'S';
  hdr.cmd_len = static_cast<unsigned char>(cdb_bytes);
  hdr.cmdp = cdb.data();
  hdr.mx_sb_len = static_cast<unsigned char>(sense.size());
  hdr.sbp = sense.data();
  hdr.dxfer_direction = data.empty() ? SG_DXFER_NONE : SG_DXFER_FROM_DEV;
  hdr.dxfer_len = static_cast<unsigned>(data.size());
  hdr.dxferp = data.empty() ? nullptr : data.data();
  hdr.timeout = kTimeoutMs;
  if (::ioctl(fd, SG_IO, &hdr) != 0) return errno_error(errno, "ioctl(" + op + ")", path);
  SgIoOutcome outcome;
  outcome.scsi_status = hdr.status;
  outcome.host_status = hdr.host_status;
  outcome.driver_status = hdr.driver_status;
  outcome.sense = std::span<const std::uint8_t>(sense.data(), hdr.sb_len_wr);
  return interpret_sg_io(outcome, op, path);
}

}  // namespace disktune::probe
