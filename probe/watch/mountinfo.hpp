// SPDX-License-Identifier: GPL-2.0-or-later
// /proc/self/mountinfo read into its mounts, and a mount source named as a kernel device.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace disktune::probe {

/// One line of mountinfo: the fields disktune reads.
struct Mount {
  std::string majmin;       ///< field 3, the st_dev of files on it ("8:1"; btrfs shows an anonymous "0:NN")
  std::string mount_point;  ///< field 5, as written (octal escapes such as \040 kept)
  std::string type;         ///< the file system type, first field after " - "
  std::string source;       ///< the mount source after the type ("/dev/sdb1", "tmpfs", "none")
  std::string options;      ///< the super options after the source ("rw,lowerdir=/l,upperdir=/u,workdir=/w")
};

/// The mounts listed in the mountinfo file at `path`, in its order (a later mount on the same
/// point hides the earlier). A line without the " - " separator gets an empty type and source;
/// an unreadable file gives no mounts.
/// Source: Documentation/filesystems/proc.rst, "3.5 /proc/<pid>/mountinfo".
std::vector<Mount> read_mountinfo(const std::filesystem::path& path);

/// The type of the mount whose st_dev is `majmin` ("0:52": "ext4", "tmpfs", "fuse.emudisk");
/// the last matching mount wins. "" when no mount has that device (unmounted, even lazily).
/// Source: Documentation/filesystems/proc.rst, "3.5 /proc/<pid>/mountinfo" (field 3, and the
/// type after " - ").
std::string mount_type(const std::vector<Mount>& mounts, const std::string& majmin);

/// The type of the mount whose st_dev is `majmin` ("0:52") when it is a FUSE file system
/// ("fuse", or "fuse.SUBTYPE": "fuse.emudisk", "fuse.sshfs"): its files' timing is whatever a
/// user-space program makes it, so a loop device over one is EMULATED, not hardware. "" for
/// every other type, fuseblk included (a block device read through FUSE). The last matching
/// mount wins. Source: Documentation/filesystems/fuse.rst ("fuse.<subtype>" in mountinfo).
std::string fuse_mount_type(const std::vector<Mount>& mounts, const std::string& majmin);

/// A mount source that names a device node ("/dev/sdb1", "/dev/mapper/vg-root") as a kernel
/// name ("sdb1", "dm-0"): the node resolved when `resolve` (the real /dev), its last component
/// as written otherwise (a test's fake tree). "" for a source outside /dev ("tmpfs", "none").
std::string source_kernel_name(const std::string& source, bool resolve);

}  // namespace disktune::probe
