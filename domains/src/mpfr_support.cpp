#include <symerr/domains/mpfr_support.hpp>

namespace symerr::detail {
namespace {

// An mpfr_t owned for the duration of one function.
class ScopedMpfr {
 public:
  explicit ScopedMpfr(mpfr_prec_t precision) { mpfr_init2(x_, precision); }
  ~ScopedMpfr() { mpfr_clear(x_); }
  ScopedMpfr(const ScopedMpfr&) = delete;
  ScopedMpfr& operator=(const ScopedMpfr&) = delete;
  mpfr_ptr get() noexcept { return x_; }

 private:
  mpfr_t x_;
};

// Rounding q to 53 bits and then to double in the same direction equals one
// directed rounding to double: the double grid (subnormals included) is a
// subset of the 53-bit grid, and directed roundings are monotone.
double to_double(const mpq_class& q, mpfr_rnd_t direction) {
  MpfrStateGuard guard;
  ScopedMpfr t(53);
  mpfr_set_q(t.get(), q.get_mpq_t(), direction);
  return mpfr_get_d(t.get(), direction);
}

std::string format(mpfr_srcptr x, const char* spec) {
  char* text = nullptr;
  if (mpfr_asprintf(&text, spec, x) < 0) return "?";
  std::string s(text);
  mpfr_free_str(text);
  return s;
}

}  // namespace

double to_double_down(const mpq_class& q) { return to_double(q, MPFR_RNDD); }
double to_double_up(const mpq_class& q) { return to_double(q, MPFR_RNDU); }

std::string format_down(mpfr_srcptr x) { return format(x, "%.17RDg"); }
std::string format_up(mpfr_srcptr x) { return format(x, "%.17RUg"); }

std::string format_interval(mpfr_srcptr lo, mpfr_srcptr hi) {
  // Appended piecewise: GCC 12 reports a false -Wrestrict on chained
  // std::string operator+ with literals (GCC PR 105329).
  std::string s = "[";
  s.append(format_down(lo)).append(", ").append(format_up(hi)).append("]");
  return s;
}

std::string format_interval(double lo, double hi) {
  ScopedMpfr l(53), h(53);
  mpfr_set_d(l.get(), lo, MPFR_RNDN);  // exact: 53 bits hold every double
  mpfr_set_d(h.get(), hi, MPFR_RNDN);
  return format_interval(l.get(), h.get());
}

}  // namespace symerr::detail
