// SPDX-License-Identifier: GPL-2.0-or-later
// Every file of the shared identify corpus, parsed or rejected as its text says it should be.
#include "probe/identify/identify_text.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

using namespace disktune::probe;
namespace fs = std::filesystem;

namespace {

const fs::path corpus = fs::path(DISKTUNE_TEST_DATA) / "identify";

enum class Cable { unchecked, none, yes, no };
constexpr int unset = -1;  // numeric fields: -1 = not checked; multsect/udma: see *_shown

// One corpus file and what its text visibly says. A row either parses (model etc.) or is
// rejected with `reject` in the error. Numbers left at `unset` are not checked (raw dumps:
// their numbers are checked against hdparm itself in identify_hdparm_oracle_test.cpp).
struct Row {
  std::string_view file;
  std::string_view model = {};
  std::string_view firmware = {};
  DeviceType type = DeviceType::ata;
  int max_multsect = unset;
  int multsect = unset;     // -2 = not shown / not valid (nullopt)
  int udma_active = unset;  // -2 = no active UDMA mode
  long long lba_sectors = unset;
  Cable cable = Cable::unchecked;
  std::string_view warning = {};  // a warning that must be present
  std::string_view reject = {};   // non-empty: the file must be rejected with this text
};
constexpr int none = -2;
constexpr std::string_view timings = "no identify data: no raw hex words, no 'Model=' line (hdparm -i) and no 'Model Number:' line (hdparm -I); the text holds hdparm -t/-T timings";
constexpr std::string_view settings = "no identify data: no raw hex words, no 'Model=' line (hdparm -i) and no 'Model Number:' line (hdparm -I); the text holds hdparm settings listing";

const Row rows[] = {
    // hdparm -i
    {.file = "seed_ibm-djna-352500.hdparm-i.txt", .model = "IBM-DJNA-352500", .firmware = "J51OA30K", .max_multsect = 16, .multsect = 16, .udma_active = 2, .lba_sectors = 49981680, .cable = Cable::none},
    {.file = "hdparm-i_atapi-hl-dt-st-gsa-h42n_markdown-bold.txt", .model = "HL-DT-ST DVDRAM GSA-H42N", .firmware = "RL00", .type = DeviceType::atapi, .max_multsect = 0, .multsect = none, .udma_active = 4, .lba_sectors = 0, .cable = Cable::none, .warning = "markup"},
    {.file = "hdparm-i_atapi-polaroid-burnmax48_cdrw.txt", .model = "Polaroid BurnMAX48", .firmware = "VER 482E", .type = DeviceType::atapi, .max_multsect = 0, .multsect = none, .udma_active = 2, .lba_sectors = 0},
    {.file = "hdparm-i_conner-cfs1275a_kernel-geometry.txt", .model = "Conner Peripherals 1275MB - CFS1275A", .firmware = "8.32", .max_multsect = 16, .multsect = 8, .udma_active = none, .lba_sectors = 2496876},
    {.file = "hdparm-i_ibm-ic35l060aver07-0_x4_annotated.txt", .model = "IC35L060AVER07-0", .firmware = "ER6OA44A", .max_multsect = 16, .multsect = 0, .udma_active = 5, .lba_sectors = 120103200, .warning = "3 more drive(s) follow"},
    {.file = "hdparm-i_intel-ssdmceac060b3_msata_garbled-blog-retyped.txt", .model = "INTEL SSDMCEAC060B3", .firmware = "LLLi", .max_multsect = 16, .multsect = none, .udma_active = none, .lba_sectors = 117231408, .warning = "unknown field 'MultSec'"},
    {.file = "hdparm-i_maxtor-53073u6_and_4k040h2_wrapped.txt", .model = "Maxtor 53073U6", .firmware = "DA6207V0", .max_multsect = 16, .multsect = 16, .udma_active = 4, .lba_sectors = 60030432, .warning = "1 more drive(s) follow"},
    {.file = "hdparm-i_seagate-st33232a_segfault-truncated.txt", .model = "ST33232A", .firmware = "3.02", .max_multsect = 16, .multsect = 0, .udma_active = 2, .lba_sectors = 6303024, .warning = "'Segmentation fault'"},
    {.file = "hdparm-i_seagate-st36531a_and_st340824a_hdparm3.9-era.txt", .model = "ST36531A", .firmware = "3.11", .max_multsect = 32, .multsect = 32, .udma_active = 2, .lba_sectors = 12706470, .warning = "1 more drive(s) follow"},
    {.file = "hdparm-i_wdc-wd1600aajb_wd2000jb_libata_padded-model_multsect-q0q.txt", .model = "WDC WD1600AAJB-00PVA0", .firmware = "00.07H00", .max_multsect = 16, .multsect = none, .udma_active = 5, .lba_sectors = 312581808, .warning = "1 more drive(s) follow"},
    {.file = "hdparm-i_wdc-wd300bb-00aua1_wrapped-config.txt", .model = "WDC WD300BB-00AUA1", .firmware = "18.20D18", .max_multsect = 16, .multsect = 0, .udma_active = 5, .lba_sectors = 58633344},
    // hdparm -I
    {.file = "hdparm-I_Istdin_atapi-cd-224e_mail-wrapped.txt", .model = "CD-224E", .firmware = "1.5A", .type = DeviceType::atapi, .max_multsect = 0, .multsect = none, .udma_active = none, .lba_sectors = 0, .cable = Cable::none, .warning = "'cmd.'"},
    {.file = "hdparm-I_atapi-lite-on-ltr-32123s_plus-settings-multcount-failed.txt", .model = "LITE-ON LTR-32123S", .firmware = "XS0R", .type = DeviceType::atapi, .max_multsect = 0, .udma_active = none},
    {.file = "hdparm-I_atapi-philips-spd2413p_sr0-libata.txt", .model = "PHILIPS SPD2413P", .firmware = "GP03", .type = DeviceType::atapi, .udma_active = 2, .cable = Cable::no},
    {.file = "hdparm-I_atapi-samsung-cd-rom-sn-124_sdma.txt", .model = "SAMSUNG CD-ROM SN-124", .firmware = "N103", .type = DeviceType::atapi, .udma_active = 2},
    {.file = "hdparm-I_atapi-sata-hl-dt-st-gh22ns90_trailing-pad_partial.txt", .model = "HL-DT-ST DVDRAM GH22NS90", .firmware = "HN00S300", .type = DeviceType::atapi, .udma_active = none, .cable = Cable::none, .warning = "no DMA:/PIO: lines"},
    {.file = "hdparm-I_atapi-tsst-tsh492b_blank-enabled-marks.txt", .model = "TSST CD-RW/DVD-ROM TSH492B", .firmware = "TB04", .type = DeviceType::atapi, .udma_active = 2, .cable = Cable::yes},
    {.file = "hdparm-I_compactflash-stt-fem16ghdl-netbook-pata-ssd.txt", .model = "STT_FEM16GHDL", .firmware = "Ver2.M1A", .type = DeviceType::cfa, .max_multsect = 1, .multsect = 1, .udma_active = 5, .lba_sectors = 30146256, .cable = Cable::none},
    {.file = "hdparm-I_crucial-ct512m550ssd3-msata_partial-by-author.txt", .model = "Crucial_CT512M550SSD3", .firmware = "MU01", .max_multsect = 16, .multsect = 16, .udma_active = 6, .lba_sectors = 1000215216, .warning = "LBA48 sector count used"},
    {.file = "hdparm-I_garbage-identify-m2-adapter_html-entities.txt", .reject = "line 7: garbage identify data: Model Number holds control characters or HTML entities"},
    {.file = "hdparm-I_ibm-dtta-371440_old-format-hdparm4.txt", .model = "IBM-DTTA-371440", .firmware = "T71OA73A", .max_multsect = 16, .multsect = 0, .udma_active = 2, .lba_sectors = 28229040, .cable = Cable::none},
    {.file = "hdparm-I_maxtor-4a250j0_cur-chs-65535x1_mail-wrapped.txt", .model = "Maxtor 4A250J0", .firmware = "RAMB1TV0", .max_multsect = 16, .multsect = 0, .udma_active = 6, .lba_sectors = 490234752, .cable = Cable::yes},
    {.file = "hdparm-I_nvme-device_questionable-sense_all-zero.txt", .reject = "line 6: no identify data: no Model Number line"},
    {.file = "hdparm-I_samsung-mznln256hchp-m2-sata-ssd_partial.txt", .model = "SAMSUNG MZNLN256HCHP-000L7", .firmware = "EMT22L6Q", .max_multsect = 1, .multsect = 1, .udma_active = 6, .lba_sectors = 500118192},
    {.file = "hdparm-I_sandisk-pssd-1.8in_partial.txt", .model = "SanDisk pSSD", .firmware = "3", .max_multsect = 1, .multsect = 1, .udma_active = 6, .lba_sectors = 61282631},
    {.file = "hdparm-I_seagate-st1000dm003_512e_truncated_japanese-prompt.txt", .model = "ST1000DM003-1ER162", .firmware = "HP51", .udma_active = none, .lba_sectors = 1953525168, .warning = "no DMA:/PIO: lines"},
    {.file = "hdparm-I_toshiba-mg09aca18te-18tb_partial.txt", .model = "TOSHIBA MG09ACA18TE", .firmware = "0105", .udma_active = none, .lba_sectors = 35156656128, .warning = "no DMA:/PIO: lines"},
    {.file = "hdparm-I_usb-nvme-bridge-rtl9210_garbage-identify.txt", .reject = "line 6: no identify data: no Model Number line"},
    {.file = "hdparm-I_wdc-wd400bb_star-without-mode_integrity-0x100a5.txt", .model = "WDC WD400BB-53AUA1", .firmware = "18.20D18", .max_multsect = 16, .multsect = 16, .udma_active = none, .lba_sectors = 78165360, .cable = Cable::yes, .warning = "a '*' marks no mode"},
    {.file = "hdparm-I_wdc-wd60efax-usb-no-ckcond_strace-interleaved_partial.txt", .model = "WDC WD60EFAX-68SHWN0", .firmware = "82.00A82", .udma_active = none, .lba_sectors = 11721045168, .warning = "no DMA:/PIO: lines"},
    {.file = "hdparm-dI_atapi-nec-nd-3500ag_using-dma-plus-identify.txt", .model = "_NEC DVD_RW ND-3500AG", .firmware = "2.C8", .type = DeviceType::atapi, .udma_active = 2},
    // raw words (numbers: see the hdparm oracle test)
    {.file = "hdparm-Istdout_maxtor-6b200m0_with-settings.txt", .model = "Maxtor 6B200M0", .firmware = "BANC1BY0"},
    {.file = "hdparm-Istdout_seagate-st3160023as_with-settings.txt", .model = "ST3160023AS", .firmware = "3.18"},
    {.file = "raw_words_libatasmart_fujitsu-mhy2120bh--0084000d.txt", .model = "FUJITSU MHY2120BH", .firmware = "0084000D"},
    {.file = "raw_words_libatasmart_fujitsu-mhy2120bh--0085000b.txt", .model = "FUJITSU MHY2120BH", .firmware = "0085000B"},
    {.file = "raw_words_libatasmart_fujitsu-mhy2250bh--0085000b.txt", .model = "FUJITSU MHY2250BH", .firmware = "0085000B"},
    {.file = "raw_words_libatasmart_fujitsu-mhz2160bh-g1--0084000a.txt", .model = "FUJITSU MHZ2160BH G1", .firmware = "0084000A"},
    {.file = "raw_words_libatasmart_intel-ssdsa2cw120g3--4pc10302.txt", .model = "INTEL SSDSA2CW120G3", .firmware = "4PC10302"},
    {.file = "raw_words_libatasmart_intel-ssdsa2mh080g1gc--045c8820.txt", .model = "INTEL SSDSA2MH080G1GC", .firmware = "045C8820"},
    {.file = "raw_words_libatasmart_maxtor-96147h8--bac51kj0.txt", .model = "Maxtor 96147H8", .firmware = "BAC51KJ0"},
    {.file = "raw_words_libatasmart_mccoe64gempp--2.9.09.txt", .model = "MCCOE64GEMPP", .firmware = "2.9.09"},
    {.file = "raw_words_libatasmart_samsung-hd501lj--cr100-12.txt", .model = "SAMSUNG HD501LJ", .firmware = "CR100-12", .warning = "reserved mode bits"},
    {.file = "raw_words_libatasmart_samsung-mmcqe28g8mup--0va-vam08l1q.txt", .model = "SAMSUNG MMCQE28G8MUP-0VA", .firmware = "VAM08L1Q"},
    {.file = "raw_words_libatasmart_samsung-mp0804h--ue100-14.txt", .model = "SAMSUNG MP0804H", .firmware = "UE100-14"},
    {.file = "raw_words_libatasmart_st320410a--3.39.txt", .model = "ST320410A", .firmware = "3.39"},
    {.file = "raw_words_libatasmart_st9100821as--3.cme.txt", .model = "ST9100821AS", .firmware = "3.CME"},
    {.file = "raw_words_libatasmart_st9160821as--3.clh.txt", .model = "ST9160821AS", .firmware = "3.CLH"},
    {.file = "raw_words_libatasmart_toshiba-mk1651gsy--ld001d.txt", .model = "TOSHIBA MK1651GSY", .firmware = "LD001D"},
    {.file = "raw_words_libatasmart_wdc-wd2500jb--00rea0-20.00k20.txt", .model = "WDC WD2500JB-00REA0", .firmware = "20.00K20"},
    {.file = "raw_words_libatasmart_wdc-wd2500js-75ncb3--10.02e04.txt", .model = "WDC WD2500JS-75NCB3", .firmware = "10.02E04"},
    {.file = "raw_words_libatasmart_wdc-wd5000aaks--00tma0-12.01c01.txt", .model = "WDC WD5000AAKS-00TMA0", .firmware = "12.01C01"},
    {.file = "raw_words_proc-ide_atapi-lite-on-ltn486.txt", .model = "Lite-On LTN486  48x Max", .firmware = "YD01", .type = DeviceType::atapi},
    {.file = "raw_words_proc-ide_atapi-plextor-px-116a-dvd_commented.txt", .model = "PLEXTOR DVD-ROM PX-116A", .firmware = "1.00", .type = DeviceType::atapi},
    {.file = "raw_words_proc-ide_ibm-ic35l060avva07-0.txt", .model = "IC35L060AVVA07-0", .firmware = "VA3OA52A"},
    {.file = "raw_words_proc-ide_maxtor-6y080p0.txt", .model = "Maxtor 6Y080P0", .firmware = "YAR41BW0", .warning = "text after the 256th word ignored"},
    {.file = "raw_words_proc-ide_seagate-st33232a_minor-rev-ffff_annotated.txt", .model = "ST33232A", .firmware = "3.02", .warning = "line 13: text between the words skipped"},
    // no identify data
    {.file = "hdparm-Tt-direct_nvme_bpi-r3-arm.txt", .reject = timings},
    {.file = "hdparm-Tt-direct_samsung-usb-flash-typec.txt", .reject = timings},
    {.file = "hdparm-Tt_repeated-runs-no-device-header.txt", .reject = timings},
    {.file = "hdparm-Tt_wd-my-book-esata_2008.txt", .reject = timings},
    {.file = "hdparm-t-direct_emmc-and-nvme_jetson.txt", .reject = timings},
    {.file = "hdparm-t-direct_jetson-ssd_no-indent.txt", .reject = timings},
    {.file = "hdparm-tT_and_I-failed_early-libata-2.6.14.txt", .reject = "no identify data: no raw hex words, no 'Model=' line (hdparm -i) and no 'Model Number:' line (hdparm -I); the text holds a failed identify command"},
    {.file = "hdparm-tT_dmraid-mapper_flush-ioctl-errors.txt", .reject = timings},
    {.file = "hdparm-tT_libata-2.6_flush-errors.txt", .reject = timings},
    {.file = "hdparm-tT_wdc-wd300bb_2001-buffer-cache.txt", .reject = timings},
    {.file = "hdparm-t_crucial-m550-on-sata2-adapter.txt", .reject = timings},
    {.file = "hdparm-t_maxtor-53073u6_and_4k040h2_slow-pio.txt", .reject = timings},
    {.file = "hdparm-t_pata-raid5-members_wrapped-errors.txt", .reject = timings},
    {.file = "hdparm-settings_atapi-pioneer-dvr-110d_getgeo-failed.txt", .reject = settings},
    {.file = "hdparm-settings_ibm-dtla-305040_32bit-sync.txt", .reject = settings},
    {.file = "hdparm-settings_libata-2.6_geometry-sectors-bogus-bytes.txt", .reject = settings},
    {.file = "hdparm-settings_wdc-wd300bb_ide-2.4.txt", .reject = settings},
    {.file = "hdparm-settings_wdc-wd400bb-and-hdd_dma-off-vs-on.txt", .reject = settings},
};

std::optional<int> expected_optional(int value) {
  return value == none ? std::nullopt : std::optional<int>(value);
}

void check_parsed(const Row& row, const IdentifyInfo& info) {
  CHECK(info.model == row.model);
  CHECK(info.firmware == row.firmware);
  CHECK(info.device_type == row.type);
  if (row.max_multsect != unset) CHECK(info.max_multsect == row.max_multsect);
  if (row.multsect != unset) CHECK(info.multsect == expected_optional(row.multsect));
  if (row.udma_active != unset) CHECK(info.udma_active == expected_optional(row.udma_active));
  if (row.lba_sectors != unset) CHECK(info.lba_sectors == static_cast<std::uint64_t>(row.lba_sectors));
  if (row.cable == Cable::none) CHECK_FALSE(info.cable_80wire);
  if (row.cable == Cable::yes) CHECK(info.cable_80wire == true);
  if (row.cable == Cable::no) CHECK(info.cable_80wire == false);
  if (!row.warning.empty()) {
    INFO("warnings: " << info.warnings.size());
    CHECK(std::any_of(info.warnings.begin(), info.warnings.end(), [&](const std::string& w) {
      return w.find(row.warning) != std::string::npos;
    }));
  }
}

}  // namespace

TEST_CASE("every identify corpus file parses or is rejected as its table row says", "[probe]") {
  for (const Row& row : rows) {
    const std::string path = (corpus / row.file).string();
    INFO(row.file);
    const auto result = parse_identify_file(path);
    if (!row.reject.empty()) {
      REQUIRE_FALSE(result);
      INFO(result.error().message());
      CHECK(result.error().path == path);
      CHECK(result.error().op.find(row.reject) != std::string::npos);
      continue;
    }
    REQUIRE(result);
    check_parsed(row, *result);
  }
}

TEST_CASE("the corpus table has exactly one row per file in the identify directory", "[probe]") {
  std::multiset<std::string> listed;
  for (const Row& row : rows) listed.insert(std::string(row.file));
  std::multiset<std::string> present;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    if (entry.is_regular_file() && entry.path().filename() != "SOURCES.md") {
      present.insert(entry.path().filename().string());
    }
  }
  CHECK(listed == present);
}
