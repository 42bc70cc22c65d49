// SPDX-License-Identifier: GPL-2.0-or-later
// JournalIdentity: to and from the start record, and the differences between two.
#include "results/journal_identity.hpp"

#include <boost/json.hpp>

namespace disktune::results {

namespace json = boost::json;

json::object identity_to_json(const JournalIdentity& id) {
  return {{"path", id.path},       {"model", id.model},     {"serial", id.serial},
          {"firmware", id.firmware}, {"size_bytes", id.size_bytes}, {"kernel", id.kernel},
          {"backing_file", id.backing_file}, {"wwid", id.wwid}, {"backing_inode", id.backing_inode}};
}

JournalIdentity identity_from_json(const json::object& o) {
  auto text = [&o](const char* key) { return std::string(o.at(key).as_string()); };
  // backing_file and wwid are absent from journals written before they were recorded.
  auto optional_text = [&o](const char* key) {
    const auto* field = o.if_contains(key);
    return field ? std::string(field->as_string()) : std::string();
  };
  return {text("path"), text("model"), text("serial"), text("firmware"),
          o.at("size_bytes").to_number<std::uint64_t>(), text("kernel"), optional_text("backing_file"),
          optional_text("wwid"), optional_text("backing_inode")};
}

namespace {

void compare_field(std::string& text, const char* what, const std::string& a, const std::string& b) {
  if (a != b) text += (text.empty() ? "" : "; ") + std::string(what) + " '" + a + "' (journal) vs '" + b + "' (now)";
}

}  // namespace

std::string drive_difference(const JournalIdentity& journal, const JournalIdentity& device) {
  std::string text;
  compare_field(text, "model", journal.model, device.model);
  compare_field(text, "serial", journal.serial, device.serial);
  compare_field(text, "firmware", journal.firmware, device.firmware);
  compare_field(text, "size", std::to_string(journal.size_bytes), std::to_string(device.size_bytes));
  if (!journal.backing_file.empty()) compare_field(text, "backing file", journal.backing_file, device.backing_file);
  if (!journal.wwid.empty() && !device.wwid.empty()) compare_field(text, "wwid", journal.wwid, device.wwid);
  // "Replaced at the same path" only when the path is the same: another path is another file anyway.
  if (!journal.backing_inode.empty() && !device.backing_inode.empty())
    compare_field(text,
                  journal.backing_file == device.backing_file ? "backing file inode (replaced at the same path)"
                                                              : "backing file inode",
                  journal.backing_inode, device.backing_inode);
  return text;
}

std::string identity_difference(const JournalIdentity& journal, const JournalIdentity& device) {
  std::string text;
  compare_field(text, "device", journal.path, device.path);
  const std::string drive = drive_difference(journal, device);
  if (!drive.empty()) text += (text.empty() ? "" : "; ") + drive;
  compare_field(text, "kernel", journal.kernel, device.kernel);
  return text;
}

}  // namespace disktune::results
