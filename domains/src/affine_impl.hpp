// Private to domains/src (not installed): the storage of an AffineContext and
// the upward-rounding scope its operations run in. Compiled with -frounding-math.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>


#include <symerr/domains/affine.hpp>

#include "interval_rounding.hpp"

namespace symerr::affine_detail {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Bounded: a form (center, terms) intersected with [lo, hi]; radius = Σ|coef|
// rounded up, and [lo, hi] ⊆ [center − radius, center + radius].
// Fresh: a Bounded form made of one new symbol by between()/hull() (an
// independent quantity: intersect() prefers any other form to it).
// Unbounded: no form, only the interval [lo, hi] (an infinite endpoint, or a
// form whose coefficients overflowed).
enum class Kind : std::uint8_t { Bounded, Fresh, Unbounded };

struct Header {
  double center;
  double lo, hi;
  double radius;
  std::uint32_t offset, len;
  Kind kind;
};

enum class Op : std::uint8_t {
  Add, Sub, Mul, Div, Inv, Neg, Abs, Sqrt, Intersect, FunctionOf, Point, Restrict
};

struct Key {
  std::uint64_t tag;
  std::uint32_t a, b;
  Op op;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const noexcept {
    std::uint64_t h = k.tag * 0x9E3779B97F4A7C15ULL;
    h ^= (static_cast<std::uint64_t>(k.a) << 32 | k.b) + 0x632BE59BD9B4E019ULL + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(k.op) * 0xBF58476D1CE4E5B9ULL;
    return static_cast<std::size_t>(h ^ (h >> 31));
  }
};

}  // namespace symerr::affine_detail

namespace symerr {

struct AffineContext::Impl {
  std::vector<affine_detail::Header> forms;
  std::vector<std::uint32_t> syms;
  std::vector<double> coefs;
  std::uint32_t next_symbol = 0;
  std::unordered_map<affine_detail::Key, std::uint32_t, affine_detail::KeyHash> memo;
  // scratch of the form under construction
  std::vector<std::uint32_t> s_sym;
  std::vector<double> s_coef;
  std::vector<std::uint32_t> s_order;
};

namespace affine_detail {
namespace {

// Directed rounding for the whole operation: FE_UPWARD set on entry, the
// caller's mode restored on exit (also on exceptions). Operands of every
// rounded operation pass the value barrier opaque() and results
// force_rounding(), as in interval_batch.cpp, so no operation is scheduled
// outside the scope.
struct AffineControl {
  static double force_rounding(double r) noexcept { return opaque(r); }
  static void upward() noexcept { std::fesetround(FE_UPWARD); }
  static void downward() noexcept { std::fesetround(FE_DOWNWARD); }
};
using R = UpwardOppArith<AffineControl>;

// Through fesetround (x87 and SSE together), not MXCSR alone: the clips are
// computed by Interval's operations, whose save_state reads the mode with
// fegetround (the x87 control word) and restores it into both units.
class UpwardScope {
 public:
  UpwardScope() noexcept : saved_(std::fegetround()) { std::fesetround(FE_UPWARD); }
  ~UpwardScope() { std::fesetround(saved_); }
  UpwardScope(const UpwardScope&) = delete;
  UpwardScope& operator=(const UpwardScope&) = delete;

 private:
  int saved_;
};

}  // namespace
}  // namespace affine_detail
}  // namespace symerr
