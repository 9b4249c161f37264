// SymbolicDomainError over the four domains (Interval, MpfrInterval,
// RationalInterval, Affine), compiled once in the library: its members, the
// arithmetic, conversions, comparisons, the rules of <symerr/symbolic.hpp> and
// the elementary functions of <symerr/elementary.hpp> are declared here as
// explicit instantiations (`extern template`), defined in
// domains/src/symbolic_instances_*.cpp. A translation unit that includes this
// header (through <symerr/domains/symbolic_interval.hpp>, <symerr/substitute.hpp>,
// <symerr/lean.hpp>, ...) calls them instead of compiling its own copies of
// the templates: the library's tests and every substituted C kernel compile
// in a fraction of the time (docs/build-and-test-time.md). The templates stay
// in the headers: another domain, or a function of these domains not listed
// here, is instantiated where it is used, as before.
#pragma once

#include <iosfwd>
#include <optional>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/elementary.hpp>
#include <symerr/symbolic.hpp>

// SYMERR_SYMBOLIC_INSTANCES(extern template, D) declares them,
// SYMERR_SYMBOLIC_INSTANCES(template, D) defines them (in the library).
#define SYMERR_SYMBOLIC_INSTANCES(PREFIX, D)                                                           \
  namespace symerr {                                                                                   \
  PREFIX class SymbolicDomainError<D>;                                                                 \
  PREFIX SymbolicDomainError<D> arithmetic<D>(ArithOp, const SymbolicDomainError<D>&,                  \
                                              const SymbolicDomainError<D>&, std::optional<IntegerDivision>); \
  PREFIX SymbolicDomainError<D> convert<D>(const SymbolicDomainError<D>&, const Format&, RoundingMode); \
  PREFIX SymbolicDomainError<D> operator-<D>(const SymbolicDomainError<D>&);                           \
  PREFIX SymbolicDomainError<D> abs<D>(const SymbolicDomainError<D>&);                                 \
  PREFIX SymbolicDomainError<D> sqrt<D>(const SymbolicDomainError<D>&);                                \
  PREFIX SymbolicDomainError<D> fma<D>(const SymbolicDomainError<D>&, const SymbolicDomainError<D>&,   \
                                       const SymbolicDomainError<D>&);                                 \
  PREFIX SymbolicDomainError<D> detail::modulo<D>(const SymbolicDomainError<D>&,                       \
                                                  const SymbolicDomainError<D>&, bool);                \
  PREFIX SymbolicDomainError<D> detail::integral<D>(const SymbolicDomainError<D>&, detail::Integral,   \
                                                    const char*);                                      \
  PREFIX Truth detail::compare<D>(const SymbolicDomainError<D>&, const SymbolicDomainError<D>&,        \
                                  Tri (*)(const D&, const D&), const char*, Relation);                 \
  PREFIX SymbolicDomainError<D> detail::extremum<D>(const SymbolicDomainError<D>&,                     \
                                                    const SymbolicDomainError<D>&, bool);              \
  PREFIX SymbolicDomainError<D> select<D>(const Truth&, const SymbolicDomainError<D>&,                 \
                                          const SymbolicDomainError<D>&);                              \
  PREFIX Truth detail::signbit_of<D>(const SymbolicDomainError<D>&);                                   \
  PREFIX std::ostream& operator<< <D>(std::ostream&, const SymbolicDomainError<D>&);                   \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, exp)                                                      \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, expm1)                                                    \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, exp2)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, log)                                                      \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, log1p)                                                    \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, log2)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, log10)                                                    \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, sin)                                                      \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, cos)                                                      \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, tan)                                                      \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, asin)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, acos)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, atan)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, sinh)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, cosh)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, tanh)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, asinh)                                                    \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, acosh)                                                    \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, atanh)                                                    \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, erf)                                                      \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, erfc)                                                     \
  SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, cbrt)                                                     \
  PREFIX SymbolicDomainError<D> elementary::sigmoid_operation<D>(const SymbolicDomainError<D>&,        \
                                                                 const AccuracyModel&);                \
  PREFIX SymbolicDomainError<D> pow<D>(const SymbolicDomainError<D>&, double, const AccuracyModel&);   \
  PREFIX SymbolicDomainError<D> pow<D>(const SymbolicDomainError<D>&, const SymbolicDomainError<D>&,   \
                                       const AccuracyModel&);                                          \
  PREFIX SymbolicDomainError<D> hypot<D>(const SymbolicDomainError<D>&, const SymbolicDomainError<D>&, \
                                         const AccuracyModel&);                                        \
  PREFIX SymbolicDomainError<D> atan2<D>(const SymbolicDomainError<D>&, const SymbolicDomainError<D>&, \
                                         const AccuracyModel&);                                        \
  PREFIX SymbolicDomainError<D> ldexp<D>(const SymbolicDomainError<D>&, int);                          \
  PREFIX SymbolicDomainError<D> frexp<D>(const SymbolicDomainError<D>&, int*);                         \
  PREFIX SymbolicDomainError<D> modf<D>(const SymbolicDomainError<D>&, SymbolicDomainError<D>*);       \
  }

#define SYMERR_SYMBOLIC_INSTANCES_UNARY(PREFIX, D, fn) \
  PREFIX SymbolicDomainError<D> fn<D>(const SymbolicDomainError<D>&, const AccuracyModel&);

#ifndef SYMERR_SYMBOLIC_INSTANCES_DEFINE
SYMERR_SYMBOLIC_INSTANCES(extern template, ::symerr::Interval)
SYMERR_SYMBOLIC_INSTANCES(extern template, ::symerr::MpfrInterval)
SYMERR_SYMBOLIC_INSTANCES(extern template, ::symerr::RationalInterval)
SYMERR_SYMBOLIC_INSTANCES(extern template, ::symerr::Affine)
#endif
