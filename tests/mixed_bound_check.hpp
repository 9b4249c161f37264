// The mixed relative/absolute bound of a value (SymbolicDomainError::mixed,
// <symerr/symbolic/mixed_error.hpp>) checked exactly against one execution:
// |f − r| ≤ rel·|r| + abs, in rationals (the two floats are exact there).
#pragma once

#include <gmpxx.h>

#include <symerr/symbolic/mixed_error.hpp>

namespace symerr::test {

inline bool mixed_holds(const MixedError& m, const mpq_class& err, const mpq_class& real) {
  if (!m.known()) return true;
  return abs(err) <= mpq_class(static_cast<double>(m.rel)) * abs(real) + mpq_class(static_cast<double>(m.abs));
}

}  // namespace symerr::test
