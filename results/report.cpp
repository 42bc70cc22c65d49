// SPDX-License-Identifier: GPL-2.0-or-later
// Report helpers shared by the emitters.
#include "results/report.hpp"
