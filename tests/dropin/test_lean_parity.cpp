// LeanError<F> against SymbolicError on the same operands, operation by
// operation: + − × ÷, fma, sqrt, negation, fabs, the square x·x (one object),
// sqrt(x·x), division by a square, by a square plus 2^-40 (a divisor whose
// fp − err holds 0 and whose real value does not) and by sqrt(x·x), < and ==,
// FP64 and FP32 (LeanError has no FP16 / BF16), on operand classes that
// reach every rule: exact points, points with an error, ranges straddling 0,
// ranges with errors, powers of two (the exact cases).
//
// The parity (docs/howto-large-kernels.md, "Parity with SymbolicError"):
// * the lean type refuses an operation (std::domain_error) exactly where the
//   full type's result may be special (NaN, ±inf, undefined), and runs it
//   where the full type's result is finite and defined (the square root of a
//   square reaching 0 included: the lean type keeps the square's real value
//   >= 0 in its real enclosure, as the full type's real field does);
// * where both run, the lean fp is inside the full one, at most two ulps of F
//   from it at each end (fma: at the magnitude of its product): the lean type
//   rounds the exact extreme results, the full type an outward enclosure of
//   them;
// * err's ends differ by at most the declared slack: two rounding bounds (an
//   ulp of F at the result's largest magnitude: the lean type bounds every
//   rounding by half of it, the full type by its exactness rules) plus 2^-20
//   of the error's magnitude (the lean operands' real is fp − err, a little
//   wider than the full type's own real); on the derived classes (sqrt of
//   a square, quotients by a square, a square + 2^-40, sqrt of a square) the
//   full type's mixed relative/absolute error makes it tighter: there the
//   lean err is at most kMixedSlack times the full one (a declared gap);
// * a comparison gives the same answer, or the lean type leaves undecided
//   (UndecidedBranch) one that the full type decides (again its real, fp −
//   err, is wider); never the opposite answer.
// A planted divergence (the square's fp not narrowed to [0, +inf), the
// square's real enclosure not kept, or a rounding bound of a whole ulp in
// add) fails it.
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
int declared_undecided = 0;
// Operations that the full type runs and the lean type ran too (each class
// reached: a count that stays 0 would say little).
int ran_both = 0;

// Where the full type's bound comes from its mixed relative/absolute error
// (symerr/symbolic/mixed_error.hpp: the square's relative error carried
// through sqrt, a quotient by such a root), which the lean type does not
// carry: its err may be looser there, by at most this declared factor of the
// full bound plus the rounding slack (a square root near 0 is √|err| on the
// lean type, |err|/(2√r) on the full one); the largest factor met.
double worst_mixed = 0;
constexpr double kMixedSlack = 0x1p39;

template <class F>
void check(const std::string& what, const Outcome& lean, const Outcome& full, double fp_scale = 0,
           bool mixed = false) {
  INFO(what << " on " << (std::is_same_v<F, double> ? "FP64" : "FP32") << std::hexfloat);
  INFO("lean: " << (lean.ran ? "ran" : "refused: " + lean.why) << std::hexfloat << " fp [" << lean.flo << ", " << lean.fhi
                << "] err [" << lean.elo << ", " << lean.ehi << "]");
  INFO("full: " << (full.ran ? "ran" : "special") << std::hexfloat << " fp [" << full.flo << ", " << full.fhi << "] err ["
                << full.elo << ", " << full.ehi << "]");
  CHECK(lean.ran == full.ran);
  if (!lean.ran || !full.ran) return;
  ++ran_both;
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
  if (mixed) {
    const double factor = std::max(std::fabs(lean.elo), std::fabs(lean.ehi)) / (mag + slack);
    worst_mixed = std::max(worst_mixed, factor);
    CHECK(factor <= kMixedSlack);
    return;
  }
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
             full_outcome([&] { return sqrt(sa * sa); }), 0, true);
    check<F>("sqrt(x*x + 2^-40) x " + an, lean_outcome<F>([&] { return sqrt(la * la + 0x1p-40); }),
             full_outcome([&] { return sqrt(sa * sa + SymbolicError::exact_number(0x1p-40)); }), 0, true);
    for (const Box& b : bs) {
      const L lb = lean(b);
      const SymbolicError sb = full(b);
      const std::string ab = an + " and (" + b.name + ")";
      check<F>("+ " + ab, lean_outcome<F>([&] { return la + lb; }), full_outcome([&] { return sa + sb; }));
      check<F>("- " + ab, lean_outcome<F>([&] { return la - lb; }), full_outcome([&] { return sa - sb; }));
      check<F>("* " + ab, lean_outcome<F>([&] { return la * lb; }), full_outcome([&] { return sa * sb; }));
      check<F>("/ " + ab, lean_outcome<F>([&] { return la / lb; }), full_outcome([&] { return sa / sb; }));
      // divisors whose real value the operation knows: a square (0 in its
      // range where b straddles 0: refused on both), a square plus 2^-40
      // (fp − err may hold 0, the real value is >= 2^-40), a root of a square
      check<F>("a / (b*b) " + ab, lean_outcome<F>([&] { return la / (lb * lb); }),
               full_outcome([&] { return sa / (sb * sb); }), 0, true);
      check<F>("a / (b*b + 2^-40) " + ab, lean_outcome<F>([&] { return la / (lb * lb + 0x1p-40); }),
               full_outcome([&] { return sa / (sb * sb + SymbolicError::exact_number(0x1p-40)); }), 0, true);
      check<F>("a / sqrt(b*b) " + ab, lean_outcome<F>([&] { return la / sqrt(lb * lb); }),
               full_outcome([&] { return sa / sqrt(sb * sb); }), 0, true);
      check<F>("fma(a, b, a) " + ab, lean_outcome<F>([&] { return fma(la, lb, la); }),
               full_outcome([&] { return fma(sa, sb, sa); }), 9);  // |a·b| <= 9 on these boxes
      check_compare("< " + ab, [&] { return la < lb; }, [&] { return static_cast<bool>(sa < sb); });
      check_compare("== " + ab, [&] { return la == lb; }, [&] { return static_cast<bool>(sa == sb); });
    }
  }
}

}  // namespace

TEST_CASE("LeanError and SymbolicError agree operation by operation on the same operands", "[dropin][lean][parity]") {
  worst_ratio = worst_mixed = 0;
  declared_undecided = ran_both = 0;
  run_parity<double>();
  run_parity<float>();
  // the slack is approached (a slack never used would say little), and the
  // declared divergence is the known one: comparisons of operands with an error
  CHECK(worst_ratio > 0.1);
  CHECK(declared_undecided <= 16);
  CHECK(ran_both > 1000);
  WARN("largest err difference / declared slack: " << worst_ratio << "; largest lean / full err where the full "
                                                    << "type's mixed error applies: " << worst_mixed
                                                    << "; operations run on both: " << ran_both
                                                    << "; comparisons left undecided: " << declared_undecided);
}

// A whole kernel: an RMS norm y_i = x_i / sqrt(mean(x²) + eps) of values in
// [−1, 1], n = 4 and 64, the sums in FP64 and in FP32, runs on the lean type
// where SymbolicError runs it (sqrt's operand: fp and real >= eps, fp − err
// reaching below eps), refusing where it refuses (a quotient by the RMS
// without eps), with its fp inside SymbolicError's (the full type's is up to
// 13 ulps wider on the FP64 sum of 64 squares), and its err up to the declared factor kRmsSlack: SymbolicError carries the sum
// of squares' relative error (its mixed relative/absolute error) through the
// root and the quotient, the lean type an absolute error divided by the
// root's smallest value (measured below; FP64 sums are within a few percent).
namespace {
constexpr double kRmsSlack = 1024;
template <class F>
void rms_norm_parity(int n, double eps, double& worst) {
  using L = LeanError<F>;
  std::vector<L> x;
  std::vector<SymbolicError> s;
  for (int i = 0; i < n; ++i) {
    const double lo = -1 + i * (0.5 / n), hi = 1 - i * (0.25 / n);  // different ranges, all straddling 0
    x.push_back(L::input(lo, hi, -0x1p-30, 0x1p-30));
    s.push_back(SymbolicError::input(lo, hi, -0x1p-30, 0x1p-30, fmt<F>()));
  }
  L acc = 0;
  SymbolicError sacc = SymbolicError::exact_number(0.0);
  for (int i = 0; i < n; ++i) {
    acc += x[i] * x[i];
    sacc = sacc + s[i] * s[i];
  }
  const auto lean_rms = [&] { return sqrt(acc / n + eps); };
  const auto full_rms = [&] {
    return sqrt(sacc / SymbolicError::exact_number(double(n)) + SymbolicError::exact_number(eps));
  };
  const Outcome lr = lean_outcome<F>(lean_rms), fr = full_outcome(full_rms);
  INFO("n = " << n << ", eps = " << eps << ", " << (std::is_same_v<F, double> ? "FP64" : "FP32"));
  INFO("lean: " << lr.why);
  REQUIRE(fr.ran);
  REQUIRE(lr.ran);
  const L lrms = lean_rms();
  const SymbolicError frms = full_rms();
  for (int i = 0; i < n; ++i) {
    // the RMS itself, then each output (eps = 0: x_i / rms has a divisor reaching 0, refused on both)
    const Outcome ly = i == 0 ? lr : lean_outcome<F>([&] { return x[i] / lrms; });
    const Outcome fy = i == 0 ? fr : full_outcome([&] { return s[i] / frms; });
    INFO("output " << i << " lean: " << ly.why << std::hexfloat << " fp [" << ly.flo << ", " << ly.fhi << "] err ["
                   << ly.elo << ", " << ly.ehi << "]; full fp [" << fy.flo << ", " << fy.fhi << "] err [" << fy.elo
                   << ", " << fy.ehi << "]");
    CHECK(ly.ran == fy.ran);
    if (!ly.ran || !fy.ran) continue;
    CHECK(fy.flo <= ly.flo);
    CHECK(ly.fhi <= fy.fhi);
    // err: the lean bound at most kRmsSlack times the full one (see above)
    const double factor = std::max(std::fabs(ly.elo), std::fabs(ly.ehi)) / std::max(std::fabs(fy.elo), std::fabs(fy.ehi));
    worst = std::max(worst, factor);
    CHECK(factor <= kRmsSlack);
  }
}
}  // namespace

TEST_CASE("The lean type's RMS norm runs where SymbolicError's does, with its bound", "[dropin][lean][parity]") {
  double worst = 0;
  for (const int n : {4, 64}) {
    rms_norm_parity<double>(n, 1e-6, worst);
    rms_norm_parity<float>(n, 1e-6, worst);
    rms_norm_parity<double>(n, 0, worst);  // sqrt(mean(x²)) alone: its operand's range reaches 0
    rms_norm_parity<float>(n, 0, worst);
  }
  WARN("RMS norm: largest lean err bound / SymbolicError's: " << worst);
}
