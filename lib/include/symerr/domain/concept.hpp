// The abstract-domain concept: a domain D is a set of enclosures of real
// numbers (closed intervals, possibly unbounded, never empty, never NaN).
//
// Contract (x ranges over the set enclosed by a, y over b; every result is a
// sound enclosure of the stated set, outward-rounded):
//
// | operation                  | encloses / answers                                    | valid where                      |
// |----------------------------|-------------------------------------------------------|----------------------------------|
// | D::point(v)                | {v}                                                   | v finite double                  |
// | D::between(lo, hi)         | [lo, hi]                                              | lo <= hi, ±inf allowed, no NaN   |
// | D::from_rational(q)        | {q}                                                   | always                           |
// | D::whole()                 | the real line                                         | always                           |
// | a + b, a - b, a * b        | {x+y}, {x-y}, {x*y}                                   | always (0 * inf endpoints -> 0)  |
// | a / b                      | {x/y : y != 0}; whole() if b may be 0                 | always; whole() if b ⊆ {0}       |
// | -a, abs(a)                 | {-x}, {|x|}                                           | always                           |
// | sqrt(a)                    | {sqrt(x) : x >= 0}; point 0 if a ⊆ (-inf, 0]          | always                           |
// | hull(a, b)                 | the smallest enclosure of a ∪ b                       | always                           |
// | intersect(a, b)            | a ∩ b, std::nullopt if disjoint                       | always                           |
// | a.lower(), a.upper()       | doubles with lower() <= inf a, upper() >= sup a       | always (may be ±inf)             |
// | contains(a, v), contains(a, q) | v ∈ a (exact test)                                | v double / q rational            |
// | subset(a, b)               | a ⊆ b (exact test)                                    | always                           |
// | width(a)                   | a double >= sup a - inf a                             | +inf when unbounded              |
// | mag(a), mig(a)             | doubles >= sup |x|, <= inf |x|                        | always                           |
// | is_point(a), is_bounded(a) | exact tests                                           | always                           |
// | sign_of(a)                 | Tri answers: certainly_positive etc. via cmp with 0   | always                           |
// | cmp_lt/le/gt/ge/eq/ne(a,b) | Tri: True if it holds for all x∈a,y∈b, False if none  | always                           |
//
// Arithmetic never changes the caller's floating-point rounding mode
// observably and never throws on infinite endpoints.
//
// Conventions of the models (Interval, MpfrInterval, RationalInterval):
// * an infinite endpoint stands for a limit; the degenerate [+inf, +inf] and
//   [-inf, -inf] are accepted (between(v, v) with v infinite): endpoint
//   products 0 * inf are 0, and the undefined inf - inf, inf / inf widen to
//   the outward infinity;
// * constructing from NaN, or with lo > hi, throws std::invalid_argument;
// * contains(a, ±inf) compares in the extended reals; is_point(a) requires a
//   finite point;
// * sign queries as Tri: sign_positive(a), sign_negative, sign_zero,
//   sign_nonnegative, sign_nonpositive in <symerr/domains/sign.hpp> (the Interval-family domains).
#pragma once

#include <concepts>
#include <optional>

#include <gmpxx.h>

#include <symerr/tribool.hpp>

namespace symerr {

/// The abstract-domain concept: D is a set of enclosures of real numbers (closed
/// intervals, possibly unbounded, never empty, never NaN) with the operations of
/// the contract table of this header's opening comment, each result a sound,
/// outward-rounded enclosure (Interval, Affine, MpfrInterval, RationalInterval).
template <class D>
concept RealDomain = std::copyable<D> &&
    requires(const D a, const D b, double v, const mpq_class& q) {
  { D::point(v) } -> std::same_as<D>;
  { D::between(v, v) } -> std::same_as<D>;
  { D::from_rational(q) } -> std::same_as<D>;
  { D::whole() } -> std::same_as<D>;
  { a + b } -> std::same_as<D>;
  { a - b } -> std::same_as<D>;
  { a * b } -> std::same_as<D>;
  { a / b } -> std::same_as<D>;
  { -a } -> std::same_as<D>;
  { abs(a) } -> std::same_as<D>;
  { sqrt(a) } -> std::same_as<D>;
  { hull(a, b) } -> std::same_as<D>;
  { intersect(a, b) } -> std::same_as<std::optional<D>>;
  { a.lower() } -> std::same_as<double>;
  { a.upper() } -> std::same_as<double>;
  { contains(a, v) } -> std::same_as<bool>;
  { contains(a, q) } -> std::same_as<bool>;
  { subset(a, b) } -> std::same_as<bool>;
  { width(a) } -> std::same_as<double>;
  { mag(a) } -> std::same_as<double>;
  { mig(a) } -> std::same_as<double>;
  { is_point(a) } -> std::same_as<bool>;
  { is_bounded(a) } -> std::same_as<bool>;
  { cmp_lt(a, b) } -> std::same_as<Tri>;
  { cmp_le(a, b) } -> std::same_as<Tri>;
  { cmp_gt(a, b) } -> std::same_as<Tri>;
  { cmp_ge(a, b) } -> std::same_as<Tri>;
  { cmp_eq(a, b) } -> std::same_as<Tri>;
  { cmp_ne(a, b) } -> std::same_as<Tri>;
};

}  // namespace symerr
