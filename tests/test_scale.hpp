// SYMERR_TEST_SCALE: the factor on the randomized tests' trial counts (the
// sanitizer run of .ci/test.sh sets 0.1; unset means 1). One reading for every
// test program.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>

namespace symerr::test {

// The factor: a positive value (at least 0.001); unset, zero, negative or not
// a number: 1.
inline double test_scale() {
  const char* s = std::getenv("SYMERR_TEST_SCALE");
  if (!s) return 1.0;
  const double v = std::atof(s);
  return v > 0 ? std::max(0.001, v) : 1.0;
}

// Whether the run is scaled down (the sanitizer run).
inline bool scaled_down() { return test_scale() < 1; }

// n trials scaled, and at least `at_least`.
inline std::size_t scaled(std::size_t n, std::size_t at_least) {
  return std::max(at_least, static_cast<std::size_t>(static_cast<double>(n) * test_scale()));
}

}  // namespace symerr::test
