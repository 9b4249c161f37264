// Comparisons of non-const lvalues: the same answer as the const overloads,
// with the operands exposed as modifiable objects (ComparisonInfo::lhs_target,
// rhs_target), so that a branch driver can tighten `v` in `if (v < 0)` to the
// outcome taken without ever modifying a const object (a const operand, or a
// temporary, binds to the const overloads and is not exposed).
#pragma once

#include <utility>

#include <symerr/symbolic.hpp>

namespace symerr {

#define SYMERR_TARGET_CMP(op)                                                              \
  template <RealDomain D>                                                                  \
  Truth operator op(SymbolicDomainError<D>& a, SymbolicDomainError<D>& b) {                \
    return (std::as_const(a) op std::as_const(b)).with_targets(&a, &b);                    \
  }                                                                                        \
  template <RealDomain D>                                                                  \
  Truth operator op(SymbolicDomainError<D>& a, const SymbolicDomainError<D>& b) {          \
    return (std::as_const(a) op b).with_targets(&a, nullptr);                              \
  }                                                                                        \
  template <RealDomain D>                                                                  \
  Truth operator op(const SymbolicDomainError<D>& a, SymbolicDomainError<D>& b) {          \
    return (a op std::as_const(b)).with_targets(nullptr, &b);                              \
  }                                                                                        \
  template <RealDomain D, DropInNumber A>                                                  \
  Truth operator op(SymbolicDomainError<D>& a, A y) {                                      \
    return (std::as_const(a) op y).with_targets(&a, nullptr);                              \
  }                                                                                        \
  template <RealDomain D, DropInNumber A>                                                  \
  Truth operator op(A x, SymbolicDomainError<D>& b) {                                      \
    return (x op std::as_const(b)).with_targets(nullptr, &b);                              \
  }
///@{
/// Comparisons with non-const lvalue operands: the answer of the const overloads,
/// with the operands exposed as modifiable so that a branch driver can tighten them
/// to the outcome taken.
SYMERR_TARGET_CMP(<)
SYMERR_TARGET_CMP(<=)
SYMERR_TARGET_CMP(>)
SYMERR_TARGET_CMP(>=)
SYMERR_TARGET_CMP(==)
SYMERR_TARGET_CMP(!=)
///@}
#undef SYMERR_TARGET_CMP

}  // namespace symerr
