// The binary arithmetic operators of SymbolicDomainError and the extension
// point by which a domain supplies a faster arithmetic() (one rounding-mode
// scope per operation instead of one per interval operation, say).
//
// A domain with a fast path specialises FastArithmetic next to its own
// definition (so that every translation unit that sees the domain sees the
// specialisation), e.g. <symerr/domains/interval.hpp>:
//
//   template <> struct FastArithmetic<Interval> {
//     static constexpr bool enabled = true;
//     static SymbolicDomainError<Interval> apply(ArithOp, const SymbolicDomainError<Interval>&,
//                                                const SymbolicDomainError<Interval>&,
//                                                std::optional<IntegerDivision>);
//   };
//
// Contract of apply(): the same result as the generic path
// (detail::arithmetic_impl under FpGuardFor<D>) — the fast path changes how
// the rounding mode is managed, never what is computed — and the library's
// floating-point environment for its duration. arithmetic() merges the
// origin lanes afterwards.
#pragma once

#include <optional>

#include <symerr/domain/concept.hpp>
#include <symerr/operators.hpp>
#include <symerr/ops/semantics.hpp>

namespace symerr {

/// The binary arithmetic operators: the first four entries of the operator table.
enum class ArithOp { Add, Sub, Mul, Div };

/// The operator-table id of an arithmetic operator.
constexpr OpId op_id(ArithOp op) noexcept { return static_cast<OpId>(op); }
static_assert(op_id(ArithOp::Add) == OpId::Add && op_id(ArithOp::Sub) == OpId::Sub &&
              op_id(ArithOp::Mul) == OpId::Mul && op_id(ArithOp::Div) == OpId::Div);

template <RealDomain D>
class SymbolicDomainError;

/// No fast path: arithmetic() runs the generic rule driver.
template <class D>
struct FastArithmetic {
  /// Whether the domain has a fast path (false: the generic rule driver runs).
  static constexpr bool enabled = false;
};

}  // namespace symerr
