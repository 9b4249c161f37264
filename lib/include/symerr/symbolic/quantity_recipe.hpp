// How a branch driver's numbered quantity was made: its operation, its
// operands (numbered quantities, or exact constants) and its result's format
// and rounding mode (symerr::detail::QuantityRecipe). A driver that installs
// a recipe table (QuantityNumbering::recipes) gets one entry per number it
// hands out during a run; two runs of one program then show which of their
// results are the same function of the inputs even when the runs follow
// different paths (an unstable pair: y = x1 * x2 computed after a branch on
// x0 is one quantity on both paths, and its error is its own, not the
// difference of two paths' enclosures).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <symerr/format.hpp>
#include <symerr/tribool.hpp>

namespace symerr::detail {

// Operation codes of recipes (0: a quantity of unknown making, equal to
// nothing but itself). Plain integer constants, not an unscoped enum: an
// enumerator would meet the operator templates of mixed_ops.hpp in
// `kRecipeArith + op` (clang rejects the ambiguity).
inline constexpr std::uint32_t kRecipeUnknown = 0;
inline constexpr std::uint32_t kRecipeArith = 1;  // + ArithOp (Add, Sub, Mul, Div)
inline constexpr std::uint32_t kRecipeNeg = 16;
inline constexpr std::uint32_t kRecipeAbs = 17;
inline constexpr std::uint32_t kRecipeSqrt = 18;
inline constexpr std::uint32_t kRecipeConvert = 19;
inline constexpr std::uint32_t kRecipeMax = 20;
inline constexpr std::uint32_t kRecipeMin = 21;
inline constexpr std::uint32_t kRecipeIntegral = 32;      // + Integral (Floor, Ceil, …)
inline constexpr std::uint32_t kRecipeElementary = 1024;  // + OpId of the function (elementary::finish, the binary rules)

struct QuantityRecipe {
  std::uint32_t number = 0;
  std::uint32_t op = kRecipeUnknown;
  std::int32_t operand[2] = {-1, -1};  // the operands' source tags (this generation), or -1: constant[i]
  double constant[2] = {0, 0};         // an operand that is no numbered quantity: its exact value
  Format constant_format[2] = {};
  std::uint64_t parameter[3] = {0, 0, 0};  // the operation's parameters (pow's exponent, the accuracy model, …)
  Format format = {};                   // the result's
  RoundingMode mode = RoundingMode::NearestEven;
};

// Same making: the same operation, parameters, result format and mode, and
// the same constants where an operand is one (compared bit for bit: -0 is not
// +0). The operands' tags are compared by the caller (they may stand for the
// same quantity under two numbers).
inline bool same_making(const QuantityRecipe& a, const QuantityRecipe& b) noexcept {
  if (a.op == kRecipeUnknown || a.op != b.op || a.mode != b.mode || !(a.format == b.format)) return false;
  for (int i = 0; i < 3; ++i)
    if (a.parameter[i] != b.parameter[i]) return false;
  for (int i = 0; i < 2; ++i) {
    if ((a.operand[i] < 0) != (b.operand[i] < 0)) return false;
    if (a.operand[i] < 0 && (std::memcmp(&a.constant[i], &b.constant[i], sizeof(double)) != 0 ||
                             !(a.constant_format[i] == b.constant_format[i])))
      return false;
  }
  return true;
}

inline std::uint64_t recipe_bits(double v) noexcept {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// Records operand i of recipe r: a quantity of this run (its tag), or an
// exact finite constant (its value); anything else (an untagged value that
// is not one point: a join, a value of another run) makes the recipe
// unknown.
template <class V>
void recipe_operand(QuantityRecipe& r, int i, const V& x, std::int32_t generation) {
  if (x.source >= 0x10000 && (x.source >> 16) == generation) {
    r.operand[i] = x.source;
    return;
  }
  const double v = x.fp.lower();
  const auto& s = x.specials;
  const bool point = x.real.lower() == x.real.upper() && x.fp.lower() == x.fp.upper() && x.real.lower() == v;
  if (!point || !(v - v == 0) || !s.may_be_finite || !s.may_be_defined || s.may_be_undefined || s.may_be_nan ||
      s.may_be_pos_inf || s.may_be_neg_inf) {
    r.op = kRecipeUnknown;
    return;
  }
  r.constant[i] = v;
  r.constant_format[i] = x.format;
}

// The tag of z, the result of operation `op` on x (and y): a new number when
// an operand is a quantity of the driver's current run (derived_source), and
// then, where the driver keeps recipes, its recipe. z's format and mode must
// be set.
template <class V>
std::int32_t number_result(const V& z, std::uint32_t op, const V& x, std::type_identity_t<const V*> y = nullptr,
                           std::uint64_t p0 = 0,
                           std::uint64_t p1 = 0, std::uint64_t p2 = 0) {
  const std::int32_t tag = derived_source(x.source, y ? y->source : -1);
  QuantityNumbering& n = quantity_numbering();
  if (tag < 0 || !n.recipes) return tag;
  QuantityRecipe r;
  r.number = static_cast<std::uint32_t>(tag) & 0xFFFFu;
  r.op = op;
  r.parameter[0] = p0;
  r.parameter[1] = p1;
  r.parameter[2] = p2;
  r.format = z.format;
  r.mode = z.mode;
  recipe_operand(r, 0, x, n.generation);
  if (y) recipe_operand(r, 1, *y, n.generation);
  n.recipes->push_back(r);
  return tag;
}

}  // namespace symerr::detail
