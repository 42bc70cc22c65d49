// SPDX-License-Identifier: GPL-2.0-or-later
// disktune entry point: parse the command line, run it, map the outcome to an exit code.
#include <cstdio>

int main() {
  std::puts("disktune " DISKTUNE_VERSION);
  return 0;
}
