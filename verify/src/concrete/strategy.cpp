// Input strategies: special-value grids, boundary values, seeded random values.
#include <symerr/verify/concrete/strategy.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace symerr::verify {

InputClass operand_class(double x, const FloatFormat& F) noexcept {
  if (std::isnan(x)) return InputClass::NaN;
  if (std::isinf(x)) return InputClass::Inf;
  if (x == 0) return InputClass::Zero;
  if (std::fabs(x) < F.min_normal()) return InputClass::Subnormal;
  return InputClass::Normal;
}

InputClass operand_class(__int128 x) noexcept {
  return x == 0 ? InputClass::Zero : InputClass::Normal;
}

std::vector<double> special_values(const FloatFormat& F) {
  const double one_up = next_up(1.0, F), one_down = next_down(1.0, F);
  std::vector<double> v;
  for (double x : {0.0, F.min_subnormal(), F.max_subnormal(), F.min_normal(), 1.0, one_up, one_down,
                   F.max_finite(), double(INFINITY)}) {
    v.push_back(x);
    v.push_back(-x);
  }
  v.push_back(NAN);
  return v;
}

FloatInputs special_grid(const FloatFormat& F) {
  FloatInputs in{"special_grid", {}};
  const auto v = special_values(F);
  for (double a : v)
    for (double b : v) in.pairs.push_back({a, b});
  return in;
}

namespace {

double random_sign(SplitMix64& g, double x) { return (g.next() & 1) ? -x : x; }

// A uniformly random encoding of F: sign, exponent field, trailing significand.
double random_encoding(SplitMix64& g, const FloatFormat& F) {
  const int fields = F.emax - F.emin + 3;  // 0: subnormal/zero, 1..: normal binades, last: inf/NaN
  const int field = static_cast<int>(g.below(static_cast<std::uint64_t>(fields)));
  const std::uint64_t m = g.next() & ((std::uint64_t{1} << (F.precision - 1)) - 1);
  double x;
  if (field == 0) x = std::ldexp(static_cast<double>(m), F.emin - F.precision + 1);
  else if (field == fields - 1) x = m == 0 ? INFINITY : NAN;
  else {
    const int e = F.emin + field - 1;
    x = std::ldexp(static_cast<double>(m | (std::uint64_t{1} << (F.precision - 1))), e - F.precision + 1);
  }
  return random_sign(g, x);
}

// |x| in [2^lo, 2^hi), a value of F (exponents inside F's normal range assumed).
double random_magnitude(SplitMix64& g, const FloatFormat& F, int lo, int hi) {
  const int e = lo + static_cast<int>(g.below(static_cast<std::uint64_t>(hi - lo)));
  const std::uint64_t m = (g.next() & ((std::uint64_t{1} << (F.precision - 1)) - 1)) |
                          (std::uint64_t{1} << (F.precision - 1));
  return std::ldexp(static_cast<double>(m), e - F.precision + 1);
}

double round_q(const mpq_class& q, const FloatFormat& F) {
  return round_to(q, F, RoundingMode::NearestEven).value;
}

// Move x by k steps of F (k may be negative); stays at ±inf once reached.
double step(double x, int k, const FloatFormat& F) {
  for (; k > 0 && std::isfinite(x); --k) x = next_up(x, F);
  for (; k < 0 && std::isfinite(x); ++k) x = next_down(x, F);
  return x;
}

}  // namespace

FloatInputs boundary_inputs(OpId op, const FloatFormat& F, std::size_t count,
                            std::uint64_t seed) {
  SplitMix64 g(seed ^ 0xB0B0B0B0ull);
  FloatInputs in{"boundary", {}};
  in.pairs.reserve(count);
  const double max = F.max_finite();
  const double targets[] = {max,
                            std::ldexp(2.0 - std::ldexp(1.0, -F.precision), F.emax),  // the overflow threshold
                            next_down(max, F),
                            F.min_normal(),
                            next_down(F.min_normal(), F),
                            F.max_subnormal(),
                            F.min_subnormal(),
                            1.5 * F.min_subnormal(),
                            0.5 * F.min_subnormal(),
                            1.0};
  const std::size_t n_targets = std::size(targets);
  const int span = std::min(8, F.emax / 2);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t kind = g.below(5);
    double a = 0, b = 0;
    if (kind <= 2) {  // a target result, scaled by a random operand, then jittered
      double t = random_sign(g, targets[g.below(n_targets)]);
      if (!std::isfinite(t)) t = std::copysign(max, t);  // FP64: the threshold is not a double
      const bool big = std::fabs(t) >= 1;
      const mpq_class qt = exact_value(t);
      switch (op) {
        case OpId::Div:
          b = random_sign(g, big ? random_magnitude(g, F, -span, 0) : random_magnitude(g, F, 0, span));
          a = round_q(qt * exact_value(b), F);
          break;
        case OpId::Mul:
          b = random_sign(g, big ? random_magnitude(g, F, 0, span) : random_magnitude(g, F, -span, 0));
          a = round_q(qt / exact_value(b), F);
          break;
        case OpId::Add:
        case OpId::Sub: {
          const double mag = std::fabs(t) >= F.min_normal() ? std::fabs(t) / 4 : F.min_normal();
          b = random_sign(g, round_q(exact_value(mag) * (1 + static_cast<double>(g.below(1024)) / 1024), F));
          a = round_q(op == OpId::Add ? mpq_class(qt - exact_value(b)) : mpq_class(qt + exact_value(b)), F);
          break;
        }
        default:  // no inverse known: random operands around the target
          a = t;
          b = random_sign(g, random_magnitude(g, F, -span, span));
          break;
      }
      a = step(a, static_cast<int>(g.below(5)) - 2, F);
    } else if (kind == 3) {
      if (op == OpId::Div) {  // near-zero divisor
        const double subs[] = {0.0, F.min_subnormal(), F.max_subnormal(), 2 * F.min_subnormal()};
        b = random_sign(g, subs[g.below(std::size(subs))]);
        a = (g.next() & 1) ? random_encoding(g, F) : random_sign(g, random_magnitude(g, F, -span, span));
      } else {  // near cancellation: a and ±b within a few ulps
        b = random_sign(g, random_magnitude(g, F, -span, span));
        const double nb = op == OpId::Add ? -b : b;
        a = step(nb, static_cast<int>(g.below(9)) - 4, F);
      }
    } else {  // operands at the edges of the range
      const double edges[] = {max, next_down(max, F), F.min_normal(), F.max_subnormal(),
                              F.min_subnormal(), 1.0};
      a = random_sign(g, edges[g.below(std::size(edges))]);
      b = (g.next() & 1) ? random_sign(g, edges[g.below(std::size(edges))]) : random_encoding(g, F);
    }
    if (g.next() & 1) std::swap(a, b);
    in.pairs.push_back({a, b});
  }
  return in;
}

FloatInputs random_inputs(const FloatFormat& F, std::size_t count, std::uint64_t seed) {
  SplitMix64 g(seed);
  FloatInputs in{"random", {}};
  in.pairs.reserve(count);
  const int span = std::min(8, F.emax / 2);
  for (std::size_t i = 0; i < count; ++i) {
    if (i % 2 == 0) {
      const double a = random_encoding(g, F);
      in.pairs.push_back({a, random_encoding(g, F)});
    } else {
      const double a = random_sign(g, random_magnitude(g, F, -span, span));
      in.pairs.push_back({a, random_sign(g, random_magnitude(g, F, -span, span))});
    }
  }
  return in;
}

// ---- integers -------------------------------------------------------------------

std::vector<__int128> special_values(const IntFormat& I) {
  const __int128 lo = I.min_value(), hi = I.max_value();
  std::vector<__int128> v;
  for (__int128 x : {__int128{0}, __int128{1}, __int128{-1}, __int128{2}, __int128{-2}, lo, lo + 1,
                     hi, hi - 1, hi / 2, hi / 2 + 1})
    if (I.contains(x) && std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  return v;
}

IntInputs special_grid(const IntFormat& I) {
  IntInputs in{"special_grid", {}};
  const auto v = special_values(I);
  for (auto a : v)
    for (auto b : v) in.pairs.push_back({a, b});
  return in;
}

IntInputs random_inputs(const IntFormat& I, std::size_t count, std::uint64_t seed) {
  SplitMix64 g(seed);
  IntInputs in{"random", {}};
  in.pairs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    // half uniform over the encodings, half small magnitudes (|x| < 2^(bits/2))
    auto draw = [&](bool small) -> __int128 {
      const std::uint64_t r = g.next();
      const int bits = small ? std::max(2, I.bits / 2) : I.bits;
      const auto v = static_cast<__int128>(bits >= 64 ? r : r & ((std::uint64_t{1} << bits) - 1));
      __int128 x = I.wrap(v);
      if (small && I.is_signed) x = I.wrap(v - (static_cast<__int128>(1) << (bits - 1)));
      return x;
    };
    const bool small = (i % 2) == 1;
    const __int128 a = draw(small);
    in.pairs.push_back({a, draw(small)});
  }
  return in;
}

IntInputs exhaustive_inputs(const IntFormat& I) {
  if (I.bits > 12)
    throw std::invalid_argument("exhaustive_inputs: " + std::string(I.name) +
                                " has too many pairs for an input list; use check_exhaustive");
  IntInputs in{"exhaustive", {}};
  const __int128 n = static_cast<__int128>(1) << I.bits;
  in.pairs.reserve(static_cast<std::size_t>(n * n));
  for (__int128 i = 0; i < n; ++i)
    for (__int128 j = 0; j < n; ++j)
      in.pairs.push_back({I.min_value() + i, I.min_value() + j});
  return in;
}

}  // namespace symerr::verify
