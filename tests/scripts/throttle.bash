# SPDX-License-Identifier: GPL-2.0-or-later
# A disk-speed loop device (docs/architecture.md "A disk-speed device on demand"): a cgroup-v1 blkio
# throttle for the processes a test runs in it. Sourced after lib.bash.

# throttle_loop DEVICE BYTES_PER_S IOPS: set `cg` to a new blkio cgroup capping reads of
# DEVICE; it is emptied and removed on every exit path. Skips without cgroup-v1 blkio.
throttle_loop() {
  local root=/sys/fs/cgroup/blkio
  [ -w "$root/cgroup.procs" ] && [ -e "$root/blkio.throttle.read_iops_device" ] || skip "no cgroup-v1 blkio throttle at $root"
  local mm
  mm=$(lsblk -dno MAJ:MIN "$1" | tr -d ' ')
  cg=$root/disktune-test-$$
  mkdir "$cg" || skip "cannot create $cg"
  cleanup_steps+=("for p in \$(cat '$cg/cgroup.procs'); do kill -9 \$p; echo \$p > '$root/cgroup.procs'; done; rmdir '$cg'")
  echo "$mm $2" >"$cg/blkio.throttle.read_bps_device"
  echo "$mm $3" >"$cg/blkio.throttle.read_iops_device"
}

# throttled COMMAND...: run COMMAND inside the cgroup `cg` (its exit status is returned).
throttled() {
  (echo "$BASHPID" >"$cg/cgroup.procs" && exec "$@")
}
