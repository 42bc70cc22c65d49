// SPDX-License-Identifier: GPL-2.0-or-later
// What /proc says about a process: its scheduler state and where in the kernel it sleeps.
#pragma once

#include <string>

namespace disktune::probe {

/// State letter of `pid` ('R', 'S', 'D' = uninterruptible or killable sleep, 'Z', ...);
/// '?' when /proc/PID/stat cannot be read (no such process).
/// Source: proc(5), /proc/[pid]/stat field 3 (after the parenthesised command name).
char process_state(int pid);

/// Kernel function `pid` sleeps in (/proc/PID/wchan, e.g. "blk_mq_freeze_queue_wait");
/// empty when running, unknown or unreadable. Source: proc(5), /proc/[pid]/wchan.
std::string process_wchan(int pid);

}  // namespace disktune::probe
