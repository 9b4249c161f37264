// LeanError<F> against SymbolicError on the same operands, operation by
// operation: + − × ÷, fma, sqrt, negation, fabs, the square x·x (one object),
// sqrt(x·x), < and ==, FP64 and FP32 (LeanError has no FP16 / BF16), on
// operand classes that reach every rule: exact points, points with an error,
// ranges straddling 0, ranges with errors, powers of two (the exact cases).
//
// The parity (docs/howto-large-kernels.md, "Parity with SymbolicError"):
// * the lean type refuses an operation (std::domain_error) only where the
//   full type's result may be special (NaN, ±inf, undefined), and runs it
//   where the full type's result is finite and defined — except the square
//   root of a square whose computed range reaches 0 (sqrt(x·x), an RMS norm):
//   the lean type's real value is fp − err, which cannot say that the real
//   square is >= 0 (a declared divergence, counted and checked below);
// * where both run, the lean fp is inside the full one, at most two ulps of F
//   from it at each end (fma: at the magnitude of its product): the lean type
//   rounds the exact extreme results, the full type an outward enclosure of
//   them;
// * err's ends differ by at most the declared slack: two rounding bounds (an
//   ulp of F at the result's largest magnitude: the lean type bounds every
//   rounding by half of it, the full type by its exactness rules) plus 2^-20
//   of the error's magnitude (the lean operands' real is fp − err, a little
//   wider than the full type's own real);
// * a comparison gives the same answer, or the lean type leaves undecided
//   (UndecidedBranch) one that the full type decides (again its real, fp −
//   err, is wider); never the opposite answer.
// A planted divergence (the square's fp not narrowed to [0, +inf), or a
// rounding bound of a whole ulp in add) fails it.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <ios>
#include <string>
#include <vector>

#include <symerr/lean.hpp>

using namespace symerr;

namespace {

struct Box {
  double lo, hi, elo, ehi;
  const char* name;
};

// The operand classes, with values of F (an input's range must hold one).
template <class F>
std::vector<Box> boxes() {
  const double ulp = std::is_same_v<F, double> ? 0x1p-52 : 0x1p-23;
  return {
      {1.5, 1.5, 0, 0, "exact point 1.5"},
      {-0.75, -0.75, 0, 0, "exact point -0.75"},
      {2, 2, 0, 0, "exact power of two"},
      {3, 3, -4 * ulp, 4 * ulp, "point 3 with error"},
      {0.1, 0.1, -1e-9, 2e-9, "point 0.1 (inexact) with error"},
      {-1, 1, 0, 0, "range straddling 0"},
      {-0.5, 2, -ulp, ulp, "range straddling 0 with error"},
      {0.5, 2, -1e-9, 1e-9, "positive range with error"},
      {-3, -1, 0, 0x1p-40, "negative range with one-sided error"},
      {0.25, 0.5, 0, 0, "range of powers of two"},
  };
}

template <class F>
constexpr Format fmt() {
  return std::is_same_v<F, double> ? Format(FP64) : Format(FP32);
}

// The outcome of one operation on one type: its fp and err, or a refusal.
struct Outcome {
  bool ran = false;
  double flo = 0, fhi = 0, elo = 0, ehi = 0;
  std::string why;
};

template <class F>
Outcome lean_outcome(const std::function<LeanError<F>()>& op) {
  Outcome o;
  try {
    const LeanError<F> z = op();
    o.ran = true;
    o.flo = z.fp().lo, o.fhi = z.fp().hi, o.elo = z.err().lo, o.ehi = z.err().hi;
  } catch (const std::domain_error& e) {
    o.why = e.what();
  }
  return o;
}

Outcome full_outcome(const std::function<SymbolicError()>& op) {
  const SymbolicError z = op();
  Outcome o;
  o.ran = z.is_finite().tri() == Tri::True && z.is_undef().tri() == Tri::False;
  if (!o.ran) o.why = "may be special";
  o.flo = z.fp.lower(), o.fhi = z.fp.upper(), o.elo = z.err.lower(), o.ehi = z.err.upper();
  return o;
}

template <class F>
double half_ulp_at(double m) {
  constexpr int p = std::numeric_limits<F>::digits;
  constexpr int emin = std::numeric_limits<F>::min_exponent - 1;
  int e = 0;
  std::frexp(m, &e);
  return std::ldexp(1.0, std::max(e - 1, emin) - p);
}

// The largest difference of err's ends seen, relative to the slack (<= 1 passes).
double worst_ratio = 0;

// Declared divergences met (each checked to be the declared one).
int declared_refusals = 0, declared_undecided = 0;

template <class F>
void check(const std::string& what, const Outcome& lean, const Outcome& full, bool square_root_of_square = false,
           double fp_scale = 0) {
  INFO(what << " on " << (std::is_same_v<F, double> ? "FP64" : "FP32") << std::hexfloat);
  INFO("lean: " << (lean.ran ? "ran" : "refused: " + lean.why) << std::hexfloat << " fp [" << lean.flo << ", " << lean.fhi
                << "] err [" << lean.elo << ", " << lean.ehi << "]");
  INFO("full: " << (full.ran ? "ran" : "special") << std::hexfloat << " fp [" << full.flo << ", " << full.fhi << "] err ["
                << full.elo << ", " << full.ehi << "]");
  if (square_root_of_square && !lean.ran && full.ran && full.flo == 0) {
    ++declared_refusals;  // sqrt of a square reaching 0: real = fp − err may be < 0 on the lean type
    return;
  }
  CHECK(lean.ran == full.ran);
  if (!lean.ran || !full.ran) return;
  // fp: the lean type's ends are F's roundings of the exact extreme results;
  // the full type rounds an outward enclosure of them, one ulp of F wider
  // where that enclosure's end crosses a rounding boundary
  CHECK(full.flo <= lean.flo);
  CHECK(lean.fhi <= full.fhi);
  // (fma: two ulps at the magnitude of its product, fp_scale)
  CHECK(lean.flo - full.flo <= 4 * half_ulp_at<F>(std::max(std::fabs(full.flo), fp_scale)));
  CHECK(full.fhi - lean.fhi <= 4 * half_ulp_at<F>(std::max(std::fabs(full.fhi), fp_scale)));
  const double mag = std::max(std::fabs(full.elo), std::fabs(full.ehi));
  const double slack =
      2 * half_ulp_at<F>(std::max(std::fabs(full.flo), std::fabs(full.fhi))) + 0x1p-20 * mag + 0x1p-1074;
  const double d = std::max(std::fabs(lean.elo - full.elo), std::fabs(lean.ehi - full.ehi));
  worst_ratio = std::max(worst_ratio, d / slack);
  CHECK(d <= slack);
}

// A comparison: the same bool, or both undecided.
template <class L, class S>
void check_compare(const std::string& what, L lean, S full) {
  int l = -1, s = -1;  // -1: undecided
  try {
    l = lean() ? 1 : 0;
  } catch (const UndecidedBranch&) {
  }
  try {
    s = full() ? 1 : 0;
  } catch (const UndecidedBranch&) {
  }
  INFO(what << ": lean " << l << ", full " << s << " (-1: undecided)");
  if (l == -1 && s != -1) {
    ++declared_undecided;
    return;
  }
  CHECK(l == s);
}

template <class F>
void run_parity() {
  using L = LeanError<F>;
  const auto bs = boxes<F>();
  const auto lean = [](const Box& b) { return L::input(b.lo, b.hi, b.elo, b.ehi); };
  const auto full = [](const Box& b) { return SymbolicError::input(b.lo, b.hi, b.elo, b.ehi, fmt<F>()); };
  for (const Box& a : bs) {
    const L la = lean(a);
    const SymbolicError sa = full(a);
    const std::string an = std::string("(") + a.name + ")";
    check<F>("-" + an, lean_outcome<F>([&] { return -la; }), full_outcome([&] { return -sa; }));
    check<F>("fabs" + an, lean_outcome<F>([&] { return fabs(la); }), full_outcome([&] { return fabs(sa); }));
    check<F>("sqrt" + an, lean_outcome<F>([&] { return sqrt(la); }), full_outcome([&] { return sqrt(sa); }));
    check<F>(an + "^2", lean_outcome<F>([&] { return la * la; }), full_outcome([&] { return sa * sa; }));
    check<F>("sqrt(x*x) x " + an, lean_outcome<F>([&] { return sqrt(la * la); }),
             full_outcome([&] { return sqrt(sa * sa); }), true);
    for (const Box& b : bs) {
      const L lb = lean(b);
      const SymbolicError sb = full(b);
      const std::string ab = an + " and (" + b.name + ")";
      check<F>("+ " + ab, lean_outcome<F>([&] { return la + lb; }), full_outcome([&] { return sa + sb; }));
      check<F>("- " + ab, lean_outcome<F>([&] { return la - lb; }), full_outcome([&] { return sa - sb; }));
      check<F>("* " + ab, lean_outcome<F>([&] { return la * lb; }), full_outcome([&] { return sa * sb; }));
      check<F>("/ " + ab, lean_outcome<F>([&] { return la / lb; }), full_outcome([&] { return sa / sb; }));
      check<F>("fma(a, b, a) " + ab, lean_outcome<F>([&] { return fma(la, lb, la); }),
               full_outcome([&] { return fma(sa, sb, sa); }), false, 9);  // |a·b| <= 9 on these boxes
      check_compare("< " + ab, [&] { return la < lb; }, [&] { return static_cast<bool>(sa < sb); });
      check_compare("== " + ab, [&] { return la == lb; }, [&] { return static_cast<bool>(sa == sb); });
    }
  }
}

}  // namespace

TEST_CASE("LeanError and SymbolicError agree operation by operation on the same operands", "[dropin][lean][parity]") {
  worst_ratio = 0;
  declared_refusals = declared_undecided = 0;
  run_parity<double>();
  run_parity<float>();
  // the slack is approached (a slack never used would say little), and the
  // declared divergences are the known ones: sqrt(x·x) of the two ranges
  // straddling 0, per format; the comparisons of operands with an error
  CHECK(worst_ratio > 0.1);
  CHECK(declared_refusals == 4);
  CHECK(declared_undecided <= 16);
  WARN("largest err difference / declared slack: " << worst_ratio << "; lean refusals of sqrt(x*x): "
                                                    << declared_refusals << "; comparisons left undecided: "
                                                    << declared_undecided);
}

// The declared divergence on a whole kernel: an RMS norm of values in
// [−1, 1] runs on SymbolicError and is refused on LeanDouble (sqrt's operand
// has fp [0, 1] and real fp − err reaching below 0). Expected to fail until
// the lean type carries the square's sign (docs/howto-large-kernels.md).
TEST_CASE("The lean type's root mean square runs where SymbolicError's does, with its bound",
          "[dropin][lean][parity][!shouldfail]") {
  constexpr int n = 16;
  std::vector<LeanDouble> x;
  std::vector<SymbolicError> s;
  for (int i = 0; i < n; ++i) {
    x.push_back(LeanDouble::input(-1, 1, -0x1p-30, 0x1p-30));
    s.push_back(SymbolicError::input(-1, 1, -0x1p-30, 0x1p-30, FP64));
  }
  LeanDouble acc = 0;
  SymbolicError sacc = SymbolicError::exact_number(0.0);
  for (int i = 0; i < n; ++i) {
    acc += x[i] * x[i];
    sacc = sacc + s[i] * s[i];
  }
  const Outcome lean = lean_outcome<double>([&] { return sqrt(acc / n); });
  const Outcome full = full_outcome([&] { return sqrt(sacc / SymbolicError::exact_number(double(n))); });
  INFO("lean: " << lean.why);
  REQUIRE(full.ran);
  REQUIRE(lean.ran);
  CHECK(lean.flo == full.flo);
  CHECK(lean.fhi == full.fhi);
  // sqrt near 0: the bound is √|err| on both types
  CHECK(std::max(-lean.elo, lean.ehi) <= 1.01 * std::max(-full.elo, full.ehi));
}
