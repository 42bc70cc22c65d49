// SPDX-License-Identifier: GPL-2.0-or-later
// hdparm 9.65 as the oracle: every raw-word file in the shared corpus is fed to
// `hdparm --Istdin` and what hdparm prints is compared with disktune's decode of it.
#include "probe/identify/identify_text.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

using namespace disktune::probe;
namespace fs = std::filesystem;

namespace {

const fs::path corpus = fs::path(DISKTUNE_TEST_DATA) / "identify";
constexpr const char* hdparm = "/usr/sbin/hdparm";

// Where hdparm prints a quirk rather than the standard's meaning, disktune follows
// docs/ata-reference.md; each such field is listed here with the reason. Keyed by file and field.
struct Exception {
  std::string_view file;
  std::string_view field;
  std::string_view reason;
};
constexpr Exception exceptions[] = {
    {"raw_words_libatasmart_samsung-hd501lj--cr100-12.txt", "udma_modes",
     "word 88 = 0x40ff: bit 7 is reserved (ATA defines UDMA 0-6); hdparm's mode_loop prints "
     "every bit 0-7 and so lists a 'udma7'"},
};

bool excepted(const std::string& file, std::string_view field, std::set<std::string>& used) {
  for (const Exception& e : exceptions) {
    if (e.file == file && e.field == field) {
      used.insert(std::string(e.file) + "/" + std::string(e.field));
      return true;
    }
  }
  return false;
}

struct Run {
  int status = -1;
  std::string out;
};

Run run_hdparm(const fs::path& file) {
  const std::string command = std::string(hdparm) + " --Istdin < '" + file.string() + "' 2>/dev/null";
  Run run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.out.append(buffer, n);
  run.status = pclose(pipe);
  return run;
}

std::string trim(std::string text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// What hdparm -I printed, for the fields compared. Absent optional = not printed.
struct View {
  std::optional<std::string> model, serial, firmware, device;
  std::optional<int> max_mult;
  std::optional<std::optional<int>> cur_mult;  // inner nullopt = "Current = ?"
  std::optional<std::string> dma, pio;         // the text after "DMA:" / "PIO:"
  std::optional<std::uint64_t> chs, lba, lba48;
  std::map<std::string, bool> features;        // row name -> '*'
  bool features_shown = false;
  std::optional<bool> cable;
  std::optional<std::string> checksum;
};

std::optional<std::string> after_label(const std::string& line, std::string_view label) {
  const auto at = line.find(label);
  if (at == std::string::npos) return std::nullopt;
  return trim(line.substr(at + label.size()));
}

void read_multiple(const std::string& line, View& view) {
  if (line.find("not supported") != std::string::npos) {
    view.max_mult = 0;
    return;
  }
  int max = 0;
  char current[16] = {};
  if (std::sscanf(line.c_str(), " R/W multiple sector transfer: Max = %d Current = %15s", &max, current) == 2) {
    view.max_mult = max;
    view.cur_mult = std::string(current) == "?" ? std::optional<int>{} : std::optional<int>{std::stoi(current)};
  }
}

View read_view(const std::string& out) {
  View view;
  std::istringstream in(out);
  std::string section;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line[0] != '\t') {
      if (!view.device) view.device = line;
      if (line.starts_with("Checksum:")) view.checksum = line;
      if (line.ends_with(":")) section = line;
      view.features_shown = view.features_shown || section == "Commands/features:";
      continue;
    }
    if (line.find("Integrity word not set") != std::string::npos) view.checksum = trim(line);
    if (auto v = after_label(line, "\tModel Number:")) view.model = v;
    if (auto v = after_label(line, "\tSerial Number:")) view.serial = v;
    if (auto v = after_label(line, "\tFirmware Revision:")) view.firmware = v;
    if (auto v = after_label(line, "\tDMA:")) view.dma = v;
    if (auto v = after_label(line, "\tPIO:")) view.pio = v;
    if (auto v = after_label(line, "CHS current addressable sectors:")) view.chs = std::stoull(*v);
    if (auto v = after_label(line, "LBA    user addressable sectors:")) view.lba = std::stoull(*v);
    if (auto v = after_label(line, "LBA48  user addressable sectors:")) view.lba48 = std::stoull(*v);
    if (line.find("R/W multiple sector transfer:") != std::string::npos) read_multiple(line, view);
    if (line.find("CBLID-") != std::string::npos) view.cable = line.find("above") != std::string::npos;
    if (section == "Commands/features:" && line.size() > 5 && line[4] != '\t' && line[5] == '\t') {
      view.features[line.substr(6)] = line[4] == '*';
    }
  }
  return view;
}

// hdparm's mode list ("mdma0 mdma1 *udma2 (?)") split by family; marks[family] = starred modes.
struct Modes {
  std::map<std::string, std::vector<int>> modes, marks;
};

Modes split_modes(const std::string& list) {
  Modes result;
  std::istringstream in(list);
  for (std::string token; in >> token;) {
    const bool star = token.front() == '*';
    if (star) token.erase(0, 1);
    const auto digit = token.find_first_of("0123456789");
    if (digit == std::string::npos) continue;
    const std::string family = token.substr(0, digit);
    const int mode = std::stoi(token.substr(digit));
    result.modes[family].push_back(mode);
    if (star) result.marks[family].push_back(mode);
  }
  return result;
}

std::string show(const std::vector<int>& v) {
  std::string s = "[";
  for (const int m : v) s += (s.size() > 1 ? "," : "") + std::to_string(m);
  return s + "]";
}

template <class T>
std::string show(const std::optional<T>& v) {
  if (!v) return "none";
  std::ostringstream out;
  out << *v;
  return out.str();
}

struct Compare {
  std::string file;
  std::set<std::string>& used;
  std::vector<std::string>& mismatches;
  template <class A, class B>
  void field(std::string_view name, const A& ours, const B& theirs) {
    if (ours == theirs || excepted(file, name, used)) return;
    mismatches.push_back(file + ": " + std::string(name) + ": disktune " + show_any(ours) +
                         ", hdparm " + show_any(theirs));
  }
  template <class T>
  static std::string show_any(const T& v) {
    if constexpr (std::is_same_v<T, std::vector<int>>) {
      return show(v);
    } else if constexpr (requires { v.has_value(); }) {
      return show(v);
    } else {
      std::ostringstream out;
      out << std::boolalpha << v;
      return out.str();
    }
  }
};

std::optional<int> only_mark(const Modes& m, const std::string& family) {
  const auto it = m.marks.find(family);
  if (it == m.marks.end() || it->second.size() != 1) return std::nullopt;
  return it->second.front();
}

std::vector<int> family(const Modes& m, const std::string& name) {
  const auto it = m.modes.find(name);
  return it == m.modes.end() ? std::vector<int>{} : it->second;
}

void compare_modes(const IdentifyInfo& info, const View& view, Compare& cmp) {
  if (view.dma) {
    const bool supported = *view.dma != "not supported";
    cmp.field("dma_supported", info.dma_supported, supported);
    const Modes dma = split_modes(*view.dma);
    cmp.field("sdma_modes", info.sdma_modes, family(dma, "sdma"));
    cmp.field("mdma_modes", info.mdma_modes, family(dma, "mdma"));
    cmp.field("udma_modes", info.udma_modes, family(dma, "udma"));
    cmp.field("mdma_active", info.mdma_active, only_mark(dma, "mdma"));
    cmp.field("udma_active", info.udma_active, only_mark(dma, "udma"));
  }
  if (view.pio) {
    const Modes pio = split_modes(*view.pio);
    cmp.field("pio_modes", info.pio_modes, family(pio, "pio"));
  }
}

void compare_features(const IdentifyInfo& info, const View& view, Compare& cmp) {
  if (!view.features_shown) return;
  const auto row = [&](std::string_view name, const Feature& f) {
    const auto it = view.features.find(std::string(name));
    const std::optional<bool> theirs =
        it == view.features.end() ? std::optional<bool>{} : std::optional<bool>{it->second};
    const std::optional<bool> ours = f.supported ? f.enabled : std::optional<bool>{};
    cmp.field(std::string("feature ") + std::string(name), ours, theirs);
  };
  row("Write cache", info.write_cache);
  row("Look-ahead", info.look_ahead);
  row("Advanced Power Management feature set", info.apm);
  row("Automatic Acoustic Management feature set", info.aam);
  row("48-bit Address feature set", info.lba48);
}

// hdparm -I prints capacity lines rather than get_lba_capacity's result: pick the line that
// rule selects (LBA48 when the 48-bit row is starred, else LBA, else CHS).
std::optional<std::uint64_t> hdparm_capacity(const View& view) {
  const auto row = view.features.find("48-bit Address feature set");
  if (view.lba48 && row != view.features.end() && row->second) return view.lba48;
  if (view.lba) return view.lba;
  return view.chs;
}

std::string checksum_name(const std::optional<std::string>& line) {
  if (!line) return "not shown";
  if (line->starts_with("Checksum: correct")) return "valid";
  if (line->starts_with("Checksum: incorrect")) return "invalid";
  return "absent";
}

void compare(const IdentifyInfo& info, const View& view, Compare& cmp) {
  cmp.field("model", std::optional<std::string>(info.model.empty() ? std::optional<std::string>{} : info.model), view.model);
  cmp.field("firmware", std::optional<std::string>(info.firmware.empty() ? std::optional<std::string>{} : info.firmware), view.firmware);
  if (view.serial) cmp.field("serial", info.serial, *view.serial);
  const std::string device = view.device.value_or("");
  const DeviceType theirs = device.starts_with("ATAPI") ? DeviceType::atapi
                            : device.starts_with("CompactFlash") ? DeviceType::cfa
                                                                 : DeviceType::ata;
  cmp.field("device_type", std::string(to_string(info.device_type)), std::string(to_string(theirs)));
  if (view.max_mult) cmp.field("max_multsect", info.max_multsect, *view.max_mult);
  if (view.cur_mult) cmp.field("multsect", info.multsect, *view.cur_mult);
  compare_modes(info, view, cmp);
  compare_features(info, view, cmp);
  if (const auto sectors = hdparm_capacity(view)) cmp.field("lba_sectors", info.lba_sectors, *sectors);
  if (view.checksum) cmp.field("checksum", std::string(to_string(info.checksum)), checksum_name(view.checksum));
  if (!info.is_sata || view.cable) {
    cmp.field("cable_80wire", info.cable_80wire, view.cable);
  }
}

std::vector<fs::path> raw_word_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("raw_words_") || name.starts_with("hdparm-Istdout_")) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("disktune decodes every raw-word corpus file as hdparm 9.65 --Istdin prints it", "[probe]") {
  INFO("hdparm 9.65 is a setup dependency (scripts/setup installs it at " << hdparm << ")");
  REQUIRE(fs::exists(hdparm));
  const auto files = raw_word_files();
  REQUIRE(files.size() >= 20);
  std::set<std::string> used;
  std::vector<std::string> mismatches;
  for (const fs::path& file : files) {
    const std::string name = file.filename().string();
    INFO(name);
    const Run run = run_hdparm(file);
    REQUIRE(run.status == 0);
    const View view = read_view(run.out);
    REQUIRE(view.device);
    const auto info = parse_identify_file(file.string(), IdentifyFormat::raw);
    REQUIRE(info);
    Compare cmp{name, used, mismatches};
    compare(*info, view, cmp);
  }
  std::string report;
  for (const auto& m : mismatches) report += m + "\n";
  INFO(report);
  CHECK(mismatches.empty());
  for (const Exception& e : exceptions) {
    INFO("exception no longer needed: " << e.file << " " << e.field);
    CHECK(used.count(std::string(e.file) + "/" + std::string(e.field)) == 1);
  }
}

TEST_CASE("the hdparm -I parser reads hdparm 9.65's report of every raw file as the decoder reads the words", "[probe]") {
  REQUIRE(fs::exists(hdparm));
  std::set<std::string> used;
  std::vector<std::string> mismatches;
  for (const fs::path& file : raw_word_files()) {
    const std::string name = file.filename().string();
    INFO(name);
    const auto words = parse_identify_file(file.string(), IdentifyFormat::raw);
    const auto text = parse_identify_text(run_hdparm(file).out, IdentifyFormat::hdparm_I, name);
    REQUIRE(words);
    REQUIRE(text);
    Compare cmp{name, used, mismatches};
    cmp.field("model", words->model, text->model);
    cmp.field("firmware", words->firmware, text->firmware);
    cmp.field("device_type", std::string(to_string(words->device_type)),
              std::string(to_string(text->device_type)));
    cmp.field("max_multsect", words->max_multsect, text->max_multsect);
    cmp.field("multsect", words->multsect, text->multsect);
    cmp.field("pio_modes", words->pio_modes, text->pio_modes);
    cmp.field("mdma_modes", words->mdma_modes, text->mdma_modes);
    cmp.field("udma_modes", words->udma_modes, text->udma_modes);
    cmp.field("udma_active", words->udma_active, text->udma_active);
    cmp.field("mdma_active", words->mdma_active, text->mdma_active);
    cmp.field("lba_sectors", words->lba_sectors, text->lba_sectors);
    cmp.field("cable_80wire", words->cable_80wire, text->cable_80wire);
    // Without a Commands/features section (word 83 not valid) the text cannot say.
    if (text->write_cache.enabled) {
      cmp.field("write_cache.enabled", words->write_cache.enabled, text->write_cache.enabled);
      cmp.field("lba48.enabled", words->lba48.enabled, text->lba48.enabled);
    }
  }
  std::string report;
  for (const auto& m : mismatches) report += m + "\n";
  INFO(report);
  CHECK(mismatches.empty());
}
