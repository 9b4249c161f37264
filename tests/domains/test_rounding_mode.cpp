// Every domain gives the same results whatever the caller's rounding mode
// (FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO set around the call), and leaves
// that mode as it found it after each call. The results under
// FE_TONEAREST are checked for soundness and tightness elsewhere
// (test_random_ops.cpp); identical means sound here too.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <symerr/domains/interval.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>

using namespace symerr;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// Endpoint values whose operations round (1/3, 0.1, sqrt 2), overflow,
// underflow into subnormals, or involve zeros and infinities.
const double values[] = {-inf, -1e308, -3.0, -1.0, -0.1, -0x1p-1074, -0.0, 0.0, 0x1p-1070,
                         1e-300, 0.1, 1.0, 2.0, 3.0, 1.7976931348623157e308, inf};

template <class D> std::vector<D> operands() {
  std::vector<D> v;
  for (double lo : values)
    for (double hi : values)
      if (lo <= hi) v.push_back(D::between(lo, hi));
  v.push_back(D::from_rational(mpq_class(1, 3)));
  return v;
}

// Everything observable about one result, as text: bitwise endpoints
// (signed zeros included) via %a, plus the printed form.
std::string fingerprint(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%a ", d);
  return buf;
}
template <class D> std::string fingerprint(const D& r) {
  return fingerprint(r.lower()) + fingerprint(r.upper()) + to_string(r) + " ";
}

// All operations on (a, b) with their results in one string; after each call,
// `mode_kept` is cleared if the rounding mode changed.
template <class D> std::string run_all(const D& a, const D& b, int mode, bool& mode_kept) {
  std::string s;
  auto note = [&](const std::string& part) {
    if (std::fegetround() != mode) mode_kept = false;
    s += part;
  };
  note(fingerprint(a + b));
  note(fingerprint(a - b));
  note(fingerprint(a * b));
  note(fingerprint(a / b));
  note(fingerprint(sqrt(a)));
  note(fingerprint(-a));
  note(fingerprint(abs(a)));
  note(fingerprint(hull(a, b)));
  const auto i = intersect(a, b);
  note(i ? fingerprint(*i) : "none ");
  note(fingerprint(width(a)) + fingerprint(mag(a)) + fingerprint(mig(a)));
  note(std::to_string(contains(a, 0.1)) + std::to_string(contains(a, mpq_class(1, 3))) +
       std::to_string(subset(a, b)) + std::to_string(is_point(a)) + std::to_string(is_bounded(a)));
  for (Tri t : {cmp_lt(a, b), cmp_le(a, b), cmp_gt(a, b), cmp_ge(a, b), cmp_eq(a, b), cmp_ne(a, b)})
    note(symerr::to_string(t));
  note(fingerprint(D::from_rational(mpq_class(2, 3))) + fingerprint(D::point(0.1)));
  return s;
}

template <class D> void check_modes() {
  const std::vector<D> xs = operands<D>();
  for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    long differences = 0, mode_changes = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const D& a = xs[i];
      const D& b = xs[(i * 7 + 3) % xs.size()];
      bool kept_nearest = true, kept = true;
      const std::string reference = run_all(a, b, FE_TONEAREST, kept_nearest);
      std::fesetround(mode);
      const std::string under_mode = run_all(a, b, mode, kept);
      std::fesetround(FE_TONEAREST);
      if (under_mode != reference) {
        if (++differences <= 3) FAIL_CHECK("mode " << mode << "\n  a = " << a << "\n  b = " << b << "\n  nearest: "
                                                   << reference << "\n  mode:    " << under_mode);
      }
      mode_changes += !kept + !kept_nearest;
    }
    INFO("mode " << mode << ", " << xs.size() << " operand pairs");
    CHECK(differences == 0);
    CHECK(mode_changes == 0);
  }
}

}  // namespace

TEST_CASE("Caller rounding modes: Interval results and the caller's mode are unchanged", "[domains][rounding]") {
  check_modes<Interval>();
}

TEST_CASE("Caller rounding modes: MpfrInterval results and the caller's mode are unchanged", "[domains][rounding]") {
  check_modes<MpfrInterval>();
}

TEST_CASE("Caller rounding modes: RationalInterval results and the caller's mode are unchanged",
          "[domains][rounding]") {
  check_modes<RationalInterval>();
}
