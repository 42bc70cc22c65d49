// SPDX-License-Identifier: GPL-2.0-or-later
// The one Catch2 main for the unit_tests binary.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
