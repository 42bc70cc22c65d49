// SPDX-License-Identifier: GPL-2.0-or-later
// DT_ASSERT: programmer errors abort with file and line (as google/benchmark's BM_CHECK).
#pragma once

#include <cstdio>
#include <cstdlib>

/// Abort with "file:line: assertion failed: expr" when `expr` is false. For broken
/// invariants only; expected failures are probe::Result values.
#define DT_ASSERT(expr)                                                                 \
  do {                                                                                  \
    if (!(expr)) {                                                                      \
      std::fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #expr); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (false)
