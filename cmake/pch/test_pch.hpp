// The headers most test programs include, precompiled once and shared by the
// test programs (tests/CMakeLists.txt): Catch2, the standard library, GMP and
// MPFR, and the value types on the four domains with the elementary functions
// and the library's explicit instantiations. Parsing them costs about 2.5 s of
// CPU per test file; loading the precompiled header a tenth of that
// (docs/build-and-test-time.md). Nothing here defines a macro a test relies on
// not being defined: <symerr/substitute.hpp> (which renames float) stays out.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gmpxx.h>
#include <mpfr.h>

#include <symerr/domains/symbolic_interval.hpp>
