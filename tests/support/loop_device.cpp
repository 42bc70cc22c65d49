// SPDX-License-Identifier: GPL-2.0-or-later
// LoopDevice: losetup over a temp file, with a guaranteed detach.
#include "tests/support/loop_device.hpp"

#include "tests/support/skip.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace disktune::testing {
namespace {

// Runs `command` and returns its stdout (stderr merged) and exit status.
std::pair<std::string, int> run(const std::string& command) {
  std::string output;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {"popen failed", -1};
  std::array<char, 256> chunk{};
  while (std::fgets(chunk.data(), static_cast<int>(chunk.size()), pipe) != nullptr)
    output += chunk.data();
  const int status = ::pclose(pipe);
  while (!output.empty() && output.back() == '\n') output.pop_back();
  return {output, status};
}

bool write_file(const std::string& file, const std::vector<std::byte>& contents) {
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(contents.data()),
            static_cast<std::streamsize>(contents.size()));
  return static_cast<bool>(out);
}

}  // namespace

void fill_pattern(std::span<std::byte> contents, std::uint64_t seed) {
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
  for (std::size_t i = 0; i < contents.size(); ++i) {
    if (i % 8 == 0) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
    }
    contents[i] = static_cast<std::byte>(state >> (8 * (i % 8)));
  }
}

std::uint64_t fnv1a(std::span<const std::byte> bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const auto byte : bytes) {
    hash ^= static_cast<std::uint64_t>(byte);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::unique_ptr<LoopDevice> LoopDevice::create(std::uint64_t size_bytes, std::string& why,
                                               const LoopFill& fill, bool partscan) {
  if (::geteuid() != 0) {
    why = "not root: loop devices need CAP_SYS_ADMIN";
    return nullptr;
  }
  std::string dir_template = "/tmp/disktune-loop-XXXXXX";
  if (::mkdtemp(dir_template.data()) == nullptr) {
    why = "mkdtemp failed";
    return nullptr;
  }
  std::vector<std::byte> contents(size_bytes);
  if (fill)
    fill(contents);
  else
    fill_pattern(contents);
  // From here on the destructor cleans up whatever exists.
  std::unique_ptr<LoopDevice> loop(
      new LoopDevice(dir_template, dir_template + "/backing.img", std::move(contents)));
  if (!write_file(loop->file_, loop->contents_)) {
    why = "cannot write " + loop->file_;
    return nullptr;
  }
  const auto [output, status] =
      run(std::string("losetup -f --show ") + (partscan ? "-P " : "") + loop->file_);
  if (status != 0 || output.rfind("/dev/loop", 0) != 0) {
    why = "losetup failed: " + output;
    return nullptr;
  }
  loop->path_ = output;
  return loop;
}

LoopDevice::~LoopDevice() {
  if (!path_.empty()) (void)run("losetup -d " + path_);
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string LoopDevice::add_partition(int number, std::uint64_t start_sector,
                                      std::uint64_t sectors) const {
  const auto [output, status] = run("addpart " + path_ + " " + std::to_string(number) + " " +
                                    std::to_string(start_sector) + " " + std::to_string(sectors));
  return status == 0 ? std::string() : "addpart failed: " + output;
}

std::uint64_t LoopDevice::file_checksum() const {
  std::ifstream in(file_, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return fnv1a(std::as_bytes(std::span<const char>(bytes)));
}

std::unique_ptr<LoopDevice> loop_device_or_skip(std::uint64_t size_bytes) {
  std::string why;
  auto loop = LoopDevice::create(size_bytes, why);
  if (!loop) skip_test("loop device unavailable: " + why);
  return loop;
}

}  // namespace disktune::testing
