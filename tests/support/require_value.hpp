// SPDX-License-Identifier: GPL-2.0-or-later
// require_value: unwrap a probe::Result inside a Catch2 test, failing the test on an error.
#pragma once

#include "probe/core/error.hpp"

#include <catch2/catch.hpp>

#include <utility>

namespace disktune::testing {

/// The value of `result`; FAILs the test with the error's message otherwise.
/// (Result::value() does not compile: Boost has no throw_exception_from_error for
/// probe::Error; and REQUIRE(result) needs an operator<< for T.)
template <class T>
T require_value(probe::Result<T> result) {
  if (!result) FAIL(result.error());
  return std::move(*result);
}

}  // namespace disktune::testing
