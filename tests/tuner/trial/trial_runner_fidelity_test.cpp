// SPDX-License-Identifier: GPL-2.0-or-later
// TrialRunner against a SIMULATED recording device: what each measurement opens under, reads
// back and issues (readahead at open, settings changed behind its back, bench's I/O, checksums).
#include "tests/support/confirm_round.hpp"
#include "tuner/trial/trial_runner.hpp"

#include "tests/support/measure_baseline.hpp"
#include "tests/support//fake_block_io.hpp"
#include "tests/support/trial_settings.hpp"
#include "tests/support/sim_fixture.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <utility>
#include <map>

using namespace disktune;
using probe::SettingId;
using probe::SettingValue;
using strategies::TrialStatus;
using testing::FakeIoEvent;

namespace {

constexpr std::uint64_t kMib = 1u << 20;

probe::SettingValue number(std::int64_t value) { return SettingValue(value); }

// A BlockIo over a FakeBlockIo whose data is flipped when `dirty` is set (a file system
// writing to the device between two checksums).
class WrittenBlockIo final : public probe::BlockIo {
 public:
  WrittenBlockIo(testing::FakeBlockIo& fake, bool dirty) : fake_(fake), dirty_(dirty) {}
  probe::Result<void> read_at(std::uint64_t offset, std::span<std::byte> buffer) override {
    auto read = fake_.read_at(offset, buffer);
    if (read && dirty_ && !buffer.empty()) buffer[0] = ~buffer[0];
    return read;
  }
  probe::Result<void> flush_cache() override { return fake_.flush_cache(); }
  probe::Result<void> drop_cached(std::uint64_t offset, std::uint64_t length) override {
    return fake_.drop_cached(offset, length);
  }
  probe::Result<probe::Seconds> settle(probe::Seconds bound) override { return fake_.settle(bound); }
  std::optional<std::uint64_t> completed_bytes() override { return fake_.completed_bytes(); }
  [[nodiscard]] std::uint64_t size_bytes() const override { return fake_.size_bytes(); }
  probe::Clock& clock() override { return fake_.clock(); }

 private:
  testing::FakeBlockIo& fake_;
  bool dirty_;
};

// A SIMULATED device with queue settings only. open_io records the readahead in force when
// it is opened (the kernel fixes a file's readahead window at open); every BlockIo it opens
// shares one recording FakeBlockIo. `on_open` runs at each open (another process acting).
class RecordingDevice final : public probe::Device {
 public:
  probe::Settings values{{SettingId::read_ahead_kb, number(128)}, {SettingId::nr_requests, number(64)}};
  std::vector<std::int64_t> readahead_at_open;
  std::function<void(RecordingDevice&)> on_open;
  bool data_written = false;  // from the next open on, the data reads back changed
  testing::FakeBlockIo fake{{.size_bytes = 1024 * kMib, .disk_mib_s = 100.0}};

  [[nodiscard]] const std::string& path() const override { return path_; }
  [[nodiscard]] bool simulated() const override { return true; }
  probe::Result<probe::IdentifyInfo> identify() override {
    return probe::Error{std::make_error_code(std::errc::not_supported), "identify", path_};
  }
  std::vector<probe::Capability> capabilities() override { return {}; }
  probe::Result<SettingValue> read(SettingId id) override { return values.at(id); }
  probe::Result<void> apply(SettingId id, const SettingValue& value) override {
    values[id] = value;
    return {};
  }
  probe::Result<probe::Settings> snapshot() override { return values; }
  probe::Result<std::unique_ptr<probe::BlockIo>> open_io(probe::IoMode) override {
    readahead_at_open.push_back(values.at(SettingId::read_ahead_kb).number());
    if (on_open) on_open(*this);
    return std::unique_ptr<probe::BlockIo>(std::make_unique<WrittenBlockIo>(fake, data_written));
  }

 private:
  std::string path_ = "sim:recording";
};

// Kernel-log evidence a test injects: each logged line is reported by the next new_errors().
class InjectedKernelErrors final : public tuner::KernelErrors {
 public:
  explicit InjectedKernelErrors(std::vector<std::string>& logged) : logged_(logged) {}
  void start() override { logged_.clear(); }
  std::vector<std::string> new_errors() override { return std::exchange(logged_, {}); }

 private:
  std::vector<std::string>& logged_;
};

tuner::TrialSettings in_process(double duration_s = 0.1) {
  return testing::in_process_trial_settings(bench::disk_read_workload(probe::Seconds(duration_s), false),
                                            bench::SamplingPlan{2, 2, 0.02, true}, 3);
}

probe::Settings with_readahead(const probe::Settings& original, std::int64_t kb) {
  auto config = original;
  config[SettingId::read_ahead_kb] = number(kb);
  return config;
}

}  // namespace

TEST_CASE("the confirmation round opens the device after applying each contender", "[tuner]") {
  RecordingDevice device;
  const auto original = device.values;
  tuner::TrialRunner runner(device, original, in_process());
  const auto results = testing::confirm_round(runner, {original, with_readahead(original, 0), with_readahead(original, 4096)});
  REQUIRE(results.has_value());
  for (const auto& r : *results) REQUIRE(r.status == TrialStatus::ok);
  // One open per unit, each under its own contender's readahead: base, 0, 4096, three rounds.
  REQUIRE(device.readahead_at_open == std::vector<std::int64_t>{128, 0, 4096, 128, 0, 4096, 128, 0, 4096});
  REQUIRE(device.values == original);
}

TEST_CASE("the SIMULATED drive reads with the readahead in force when it was opened", "[probe]") {
  // The class guard: a simulator whose BlockIo saw a readahead applied after it was opened
  // hid the confirmation round's open-before-apply defect (the kernel fixes it at open).
  auto device = testing::make_sim(testing::seed_identify());
  testing::apply_all(*device, testing::settings_of({{"readahead", "0"}}));
  auto opened_before = device->open_io(probe::IoMode::buffered);
  REQUIRE(opened_before.has_value());
  testing::apply_all(*device, testing::settings_of({{"readahead", "256"}}));
  auto opened_after = device->open_io(probe::IoMode::buffered);
  REQUIRE(opened_after.has_value());
  const double with_readahead_0 = testing::buffered_mib_s(**opened_before, 1.0);
  const double with_readahead_256 = testing::buffered_mib_s(**opened_after, 1.0);
  REQUIRE(with_readahead_0 < with_readahead_256);
}

TEST_CASE("a search trial opens the device after applying its settings", "[tuner]") {
  RecordingDevice device;
  const auto original = device.values;
  tuner::TrialRunner runner(device, original, in_process());
  const auto trial = runner.run(with_readahead(original, 0)).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::ok);
  REQUIRE(device.readahead_at_open == std::vector<std::int64_t>{0});
}

TEST_CASE("a setting the trial does not change, changed during it, makes the trial unstable naming it",
          "[tuner]") {
  RecordingDevice device;
  const auto original = device.values;
  bool changed = false;  // once: the read check after the trial opens the device again
  device.on_open = [&changed](RecordingDevice& d) {
    if (!std::exchange(changed, true)) d.values[SettingId::nr_requests] = number(32);
  };
  tuner::TrialRunner runner(device, original, in_process());
  const auto trial = runner.run(with_readahead(original, 0)).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::unstable);
  REQUIRE_THAT(trial->detail, Catch::StartsWith(std::string(tuner::kChangedPrefix)) &&
                                  Catch::Contains("nr_requests reads back 32 instead of 64 after measuring"));
  REQUIRE(device.values == original);  // restored, the other process's value included
}

TEST_CASE("a setting changed before the measurement starts is caught before measuring", "[tuner]") {
  RecordingDevice device;
  const auto original = device.values;
  device.values[SettingId::nr_requests] = number(16);  // changed after disktune's snapshot
  tuner::TrialRunner runner(device, original, in_process());
  const auto trial = runner.run(with_readahead(original, 0)).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::unstable);
  REQUIRE_THAT(trial->detail, Catch::Contains("nr_requests reads back 16 instead of 64 before measuring"));
  // Nothing measured under the wrong settings (only the read check opens, after the restore).
  REQUIRE(std::count(device.readahead_at_open.begin(), device.readahead_at_open.end(), 0) == 0);
}

TEST_CASE("the confirmation round marks a contender unstable when another setting changes under it",
          "[tuner]") {
  RecordingDevice device;
  const auto original = device.values;
  int opens = 0;
  device.on_open = [&opens](RecordingDevice& d) {
    if (++opens == 2) d.values[SettingId::nr_requests] = number(8);  // during contender 1's first unit
  };
  tuner::TrialRunner runner(device, original, in_process());
  const auto results = testing::confirm_round(runner, {original, with_readahead(original, 0)});
  REQUIRE(results.has_value());
  REQUIRE((*results)[1].status == TrialStatus::unstable);
  REQUIRE_THAT((*results)[1].detail, Catch::Contains("nr_requests reads back 8 instead of 64"));
  // The baseline's next unit restores the original first and reads everything back.
  REQUIRE((*results)[0].status == TrialStatus::ok);
  REQUIRE(device.values == original);
}

TEST_CASE("a trial issues the same reads, flushes and drops as disktune bench", "[tuner]") {
  // 1 s at 100 MiB/s: 50 chunks of 2 MiB per sample, a drop behind every 32 MiB.
  const bench::Workload workload = bench::disk_read_workload(probe::Seconds(1.0), false);
  testing::FakeBlockIo bench_io({.size_bytes = 1024 * kMib, .disk_mib_s = 100.0});
  REQUIRE(bench::run_samples(bench_io, workload, 1).has_value());  // run_bench's path
  const auto& one_sample = bench_io.events();

  RecordingDevice device;
  tuner::TrialRunner runner(device, device.values, in_process(1.0));
  const auto trial = runner.run(with_readahead(device.values, 0)).result;
  REQUIRE(trial.has_value());
  REQUIRE(trial->status == TrialStatus::ok);
  // The warm-up: bench's sample a third as long (bench::ReadSampler).
  bench::Workload third = workload;
  third.duration = probe::Seconds(workload.duration.count() / 3.0);
  testing::FakeBlockIo warmup_io({.size_bytes = 1024 * kMib, .disk_mib_s = 100.0});
  REQUIRE(bench::run_samples(warmup_io, third, 1).has_value());
  const auto& warmup = warmup_io.events();
  // The trial: the warm-up and its samples, each exactly bench's, then integrity reads.
  const auto& events = device.fake.events();
  const std::size_t samples = trial->samples.size();
  REQUIRE(events.size() > warmup.size() + samples * one_sample.size());
  auto same = [](const FakeIoEvent& a, const FakeIoEvent& b) {
    return a.kind == b.kind && a.offset_bytes == b.offset_bytes && a.length_bytes == b.length_bytes;
  };
  for (std::size_t i = 0; i < warmup.size(); ++i) {
    INFO("warm-up, call " << i);
    REQUIRE(same(events[i], warmup[i]));
  }
  std::size_t drops = 0;
  for (std::size_t s = 0; s < samples; ++s)
    for (std::size_t i = 0; i < one_sample.size(); ++i) {
      INFO("sample " << s << ", call " << i);
      REQUIRE(same(events[warmup.size() + s * one_sample.size() + i], one_sample[i]));
      drops += one_sample[i].kind == FakeIoEvent::Kind::drop ? 1 : 0;
    }
  REQUIRE(drops > 0);
}

TEST_CASE("data checksums are not compared when the data is in use; otherwise a change is corruption",
          "[tuner]") {
  for (const bool in_use : {false, true}) {
    RecordingDevice device;
    auto settings = in_process();
    settings.data_in_use = in_use;
    tuner::TrialRunner runner(device, device.values, settings);
    REQUIRE(testing::measure_baseline(runner).has_value());
    device.data_written = true;  // the file system wrote between the baseline and the trial
    const auto trial = runner.run(with_readahead(device.values, 0)).result;
    REQUIRE(trial.has_value());
    INFO("data in use: " << in_use);
    REQUIRE(trial->status == (in_use ? TrialStatus::ok : TrialStatus::unstable));
  }
}

TEST_CASE("a baseline repeat that reads other data than the first baseline stops the run, saying so", "[tuner]") {
  for (const bool in_use : {false, true}) {
    RecordingDevice device;
    // The first repeat's open: the disk was written after the first baseline's checksum.
    device.on_open = [](RecordingDevice& d) { d.data_written = d.readahead_at_open.size() >= 2; };
    auto settings = in_process();
    settings.data_in_use = in_use;
    tuner::TrialRunner runner(device, device.values, settings);
    const auto baseline = testing::measure_baseline(runner);
    INFO("data in use: " << in_use);
    REQUIRE(device.readahead_at_open.size() >= 2);
    if (in_use) {  // its file system writes: a difference proves nothing
      REQUIRE(baseline.has_value());
      continue;
    }
    REQUIRE_FALSE(baseline.has_value());
    REQUIRE_THAT(baseline.error().message(), Catch::Contains("measure the baseline (unstable: ") &&
                                                 Catch::Contains("CRC-32 mismatch"));
  }
}

TEST_CASE("a kernel error logged during any baseline trial stops the run as unstable, naming it", "[tuner]") {
  for (const std::size_t trial : {1u, 2u, 3u}) {  // the first baseline trial, then each repeat
    RecordingDevice device;
    std::vector<std::string> logged;
    device.on_open = [&logged, trial](RecordingDevice& d) {
      if (d.readahead_at_open.size() == trial) logged.push_back("blk_update_request: I/O error, dev loop7, sector 8");
    };
    tuner::TrialRunner runner(device, device.values, in_process(), std::make_unique<InjectedKernelErrors>(logged));
    const auto baseline = testing::measure_baseline(runner);
    INFO("baseline trial " << trial);
    REQUIRE_FALSE(baseline.has_value());
    REQUIRE_THAT(baseline.error().message(),
                 Catch::Contains("measure the baseline (unstable: kernel logged errors during the trial: "
                                 "blk_update_request: I/O error, dev loop7"));
  }
}

TEST_CASE("a kernel error or other data during a confirmation unit makes that contender unstable", "[tuner]") {
  for (const bool kernel_error : {true, false}) {
    RecordingDevice device;
    const auto original = device.values;
    std::vector<std::string> logged;
    tuner::TrialRunner runner(device, original, in_process(), std::make_unique<InjectedKernelErrors>(logged));
    REQUIRE(testing::measure_baseline(runner).has_value());
    const std::size_t before = device.readahead_at_open.size();
    // The round's fifth unit: round 2, contender 1 (readahead 0).
    device.on_open = [&, before](RecordingDevice& d) {
      const bool fifth = d.readahead_at_open.size() == before + 5;
      if (fifth && kernel_error) logged.push_back("ata1.00: failed command: READ DMA EXT");
      d.data_written = fifth && !kernel_error;
    };
    const auto results = testing::confirm_round(runner, {original, with_readahead(original, 0), with_readahead(original, 4096)});
    INFO("kernel error: " << kernel_error);
    REQUIRE(results.has_value());
    REQUIRE((*results)[1].status == TrialStatus::unstable);
    REQUIRE_THAT((*results)[1].detail, Catch::Contains(kernel_error ? "kernel logged errors during the trial: ata1.00"
                                                                    : "CRC-32 mismatch"));
    REQUIRE((*results)[0].status == TrialStatus::ok);
    REQUIRE((*results)[2].status == TrialStatus::ok);
    REQUIRE((*results)[2].samples.size() == 3);
    REQUIRE(device.values == original);
  }
}
