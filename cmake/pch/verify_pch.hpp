// The headers most sources of symerr_verify and of the symerr program include,
// precompiled once per target (verify/CMakeLists.txt, verify/cli/CMakeLists.txt):
// the standard library, GMP and MPFR, nlohmann::json and the value types on the
// four domains (docs/build-and-test-time.md).
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gmpxx.h>
#include <mpfr.h>
#include <nlohmann/json.hpp>

#include <symerr/domains/symbolic_interval.hpp>
