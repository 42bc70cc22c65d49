// SPDX-License-Identifier: GPL-2.0-or-later
// FakeAtaTransport: a SIMULATED libata or legacy IDE driver behind AtaTransport, recording every call.
#pragma once

#include "probe/linux/ata_transport.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace disktune::testing {

/// Which kernel driver the fake imitates (docs/ata-reference.md §3.1, §3.3).
enum class FakeDriver {
  libata,      ///< HDIO_GET/SET_32BIT and HDIO_GET_IDENTITY only; SG_IO; SET FEATURES 0x03 refused (24/00)
  legacy_ide,  ///< every HDIO knob; no SG_IO (EINVAL); HDIO_DRIVE_CMD reaches the drive
};

/// A SIMULATED ATA driver and drive, shaped like QEMU's "QEMU HARDDISK" (MaxMultSect 16, PIO
/// 0-4, MDMA 0-2, UDMA 0-5). Public state so tests can set it up and inspect it.
class FakeAtaTransport final : public probe::AtaTransport {
 public:
  explicit FakeAtaTransport(FakeDriver driver, std::string path = "/dev/sda");

  [[nodiscard]] const std::string& path() const override { return path_; }
  probe::Result<std::int64_t> hdio_get(probe::HdioKnob knob) override;
  probe::Result<void> hdio_set(probe::HdioKnob knob, std::int64_t value) override;
  probe::Result<std::array<std::byte, 512>> hdio_identity() override;
  probe::Result<std::optional<probe::AtaStatusReturn>> sg_ata(const probe::AtaCommand& command, int cdb_bytes,
                                                              std::span<std::byte> data) override;
  probe::Result<void> drive_cmd(const probe::AtaCommand& command) override;
  probe::Result<std::string> libata_xfer_mode() override;

  /// The 256 identify words the drive would send now (ATA string order, valid checksum).
  [[nodiscard]] std::array<std::uint16_t, 256> identify_words() const;

  FakeDriver driver;
  std::int64_t io_support = 1;        ///< the kernel's 32-bit flag
  bool pio32_change = false;          ///< libata: the port can change 32-bit PIO
  std::set<std::int64_t> legacy_32bit_values{0, 1, 3};  ///< legacy: values HDIO_SET_32BIT takes
  std::int64_t unmaskirq = 0;         ///< legacy only
  std::int64_t using_dma = 1;         ///< legacy only
  int max_multsect = 16;              ///< word 47
  int multsect = 16;                  ///< word 59 (0 = multiple mode off, bit 8 clear)
  std::int64_t xfer_code = 34;        ///< drive's transfer mode, hdparm -X code (mdma2)
  bool answers_identify = true;       ///< false: no HDIO_GET_IDENTITY, SG_IO ENOTTY (like loop)
  bool hdio_identity_works = true;    ///< false: only SG_IO IDENTIFY answers
  bool knows_ata16 = true;            ///< false: ATA_16 is an unknown opcode (sense 20/00), ATA_12 works
  bool atapi = false;                 ///< aborts IDENTIFY DEVICE, answers IDENTIFY PACKET DEVICE
  bool zero_identify = false;         ///< SG_IO IDENTIFY answers GOOD with 512 zero bytes (a bridge)
  std::set<int> aborted_multcounts;   ///< SET MULTIPLE counts the drive aborts (ATA ERR, ABRT)
  /// APM (word 83/86 bit 3, level word 91) and AAM (bit 9, word 94: recommended << 8 | level).
  /// QEMU offers neither (the default); SET FEATURES 05h/85h/42h/C2h for a missing feature
  /// set, or APM level 0, is aborted like a drive does.
  bool apm_supported = false;
  bool apm_enabled = false;
  int apm_level = 0;
  bool aam_supported = false;
  bool aam_enabled = false;
  int aam_level = 0;
  int aam_recommended = 0xFE;
  std::vector<std::string> calls;     ///< "hdio_set HDIO_SET_32BIT 0", "sg_ata 16 IDENTIFY", ...

 private:
  probe::Result<std::optional<probe::AtaStatusReturn>> answer(const probe::AtaCommand& command,
                                                              const std::string& op);
  /// Applies a SET FEATURES APM/AAM subcommand; false when the drive aborts it.
  bool set_power_feature(const probe::AtaCommand& command);
  std::string path_;
};

}  // namespace disktune::testing
