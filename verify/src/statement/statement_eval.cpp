// The statement language's evaluation (statement.hpp): every node enclosed
// in an MPFR interval at the caller's precision, rounded outward; decimal
// numbers read exactly (as rationals), the format's constants exact.
#include <symerr/verify/statement/statement.hpp>

#include <cctype>
#include <cmath>
#include <limits>
#include <optional>

#include <gmpxx.h>
#include <mpfr.h>

namespace symerr::verify {

namespace {

using E = StatementExpr;
using I = MpfrInterval;

// The exact value of a decimal text ("1e-12", "0.5", "3").
mpq_class decimal(const std::string& text) {
  std::string digits;
  long exponent = 0;
  std::size_t i = 0;
  bool point = false;
  for (; i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'); ++i) {
    if (text[i] == '.') point = true;
    else {
      digits += text[i];
      if (point) --exponent;
    }
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) exponent += std::stol(text.substr(i + 1));
  mpq_class q(mpz_class(digits.empty() ? "0" : digits, 10));  // base 10: "09" is not octal
  mpz_class p10;
  mpz_ui_pow_ui(p10.get_mpz_t(), 10, static_cast<unsigned long>(std::labs(exponent)));
  if (exponent >= 0) q *= p10;
  else q /= p10;
  q.canonicalize();
  return q;
}

// [f(lo), f(hi)] rounded outward for a nondecreasing f.
I monotone(const I& a, int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t), mpfr_prec_t prec) {
  mpfr_t lo, hi;
  mpfr_inits2(prec, lo, hi, static_cast<mpfr_ptr>(nullptr));
  f(lo, a.lower_mpfr(), MPFR_RNDD);
  f(hi, a.upper_mpfr(), MPFR_RNDU);
  I r = I::between(lo, hi, prec);
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  return r;
}

I extreme(const I& a, const I& b, bool is_max, mpfr_prec_t prec) {
  mpfr_t lo, hi;
  mpfr_inits2(prec, lo, hi, static_cast<mpfr_ptr>(nullptr));
  if (is_max) {
    mpfr_max(lo, a.lower_mpfr(), b.lower_mpfr(), MPFR_RNDD);
    mpfr_max(hi, a.upper_mpfr(), b.upper_mpfr(), MPFR_RNDU);
  } else {
    mpfr_min(lo, a.lower_mpfr(), b.lower_mpfr(), MPFR_RNDD);
    mpfr_min(hi, a.upper_mpfr(), b.upper_mpfr(), MPFR_RNDU);
  }
  I r = I::between(lo, hi, prec);
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  return r;
}

class Evaluator {
 public:
  Evaluator(const Statement& s, const StatementValues& v, std::span<const std::size_t> index, mpfr_prec_t prec)
      : s_(s), v_(v), prec_(prec), F_(v.format()) {
    for (std::size_t i = 0; i < s.indices.size() && i < index.size(); ++i) bound_.push_back({s.indices[i], index[i]});
  }

  I eval(const E& e) {
    switch (e.op) {
      case E::Op::Number: return I::from_rational(decimal(e.name), prec_);
      case E::Op::Constant: return constant(e.name);
      case E::Op::Dimension: return I::point(static_cast<double>(dimension(e.name)), prec_);
      case E::Op::Index: return I::point(static_cast<double>(index(e.name)), prec_);
      case E::Op::Element: return element(e);
      case E::Op::Neg: return -eval(e.args[0]);
      case E::Op::Add: return eval(e.args[0]) + eval(e.args[1]);
      case E::Op::Sub: return eval(e.args[0]) - eval(e.args[1]);
      case E::Op::Mul: return eval(e.args[0]) * eval(e.args[1]);
      case E::Op::Div: return eval(e.args[0]) / eval(e.args[1]);
      case E::Op::Pow: return power(e);
      case E::Op::Call: return call(e);
      case E::Op::Sum: return sum(e);
      case E::Op::Extremum: return extremum(e);
      default: fail(e, "a condition where a number is expected");
    }
  }

  Tri truth(const E& e) {
    if (e.op == E::Op::And) return truth(e.args[0]) && truth(e.args[1]);
    if (e.op == E::Op::Or) return truth(e.args[0]) || truth(e.args[1]);
    if (e.op != E::Op::Compare) fail(e, "a number where a condition is expected");
    const I a = eval(e.args[0]), b = eval(e.args[1]);
    if (e.name == "<") return cmp_lt(a, b);
    if (e.name == "<=") return cmp_le(a, b);
    if (e.name == ">") return cmp_gt(a, b);
    if (e.name == ">=") return cmp_ge(a, b);
    if (e.name == "==") return cmp_eq(a, b);
    return cmp_ne(a, b);
  }

 private:
  [[noreturn]] void fail(const E& e, const std::string& what) const {
    throw StatementError(s_.origin + ": column " + std::to_string(e.column + 1) + ": " + what);
  }

  I constant(const std::string& name) {
    if (name == "u") return I::point(F_.unit_roundoff(), prec_);
    if (name == "eps") return I::point(F_.epsilon(), prec_);
    if (name == "min_normal") return I::point(F_.min_normal(), prec_);
    if (name == "max_finite") return I::point(F_.max_finite(), prec_);
    if (name == "inf") return I::point(std::numeric_limits<double>::infinity(), prec_);
    mpfr_t lo, hi;  // pi
    mpfr_inits2(prec_, lo, hi, static_cast<mpfr_ptr>(nullptr));
    mpfr_const_pi(lo, MPFR_RNDD);
    mpfr_const_pi(hi, MPFR_RNDU);
    I r = I::between(lo, hi, prec_);
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    return r;
  }

  std::size_t dimension(const std::string& name) const {
    for (const auto& [tensor, dims] : s_.tensors)
      for (std::size_t a = 0; a < dims.size(); ++a)
        if (dims[a] == name) {
          const auto shape = v_.shape(tensor);
          if (shape.size() != dims.size())
            throw StatementError(s_.origin + ": tensor '" + tensor + "' has rank " + std::to_string(shape.size()) +
                                 ", the statement declares " + std::to_string(dims.size()));
          return shape[a];
        }
    throw StatementError(s_.origin + ": no tensor has the dimension '" + name + "'");
  }

  std::size_t index(const std::string& name) const {
    for (auto it = bound_.rbegin(); it != bound_.rend(); ++it)
      if (it->first == name) return it->second;
    throw StatementError(s_.origin + ": index '" + name + "' has no value");
  }

  std::size_t integer(const E& e) {
    const I v = eval(e);
    const double d = v.lower();
    if (!is_point(v) || d != std::floor(d) || d < 0) fail(e, "an index must be a non-negative integer");
    return static_cast<std::size_t>(d);
  }

  I element(const E& e) {
    const auto shape = v_.shape(e.name);
    std::size_t flat = 0;
    if (e.args.empty() && shape.empty()) {
      flat = 0;  // a rank-0 tensor
    } else if (e.args.empty()) {
      if (bare_ == std::numeric_limits<std::size_t>::max()) fail(e, "tensor '" + e.name + "' without indices");
      flat = bare_;
    } else {
      if (shape.size() != e.args.size()) fail(e, "tensor '" + e.name + "' has rank " + std::to_string(shape.size()));
      for (std::size_t a = 0; a < shape.size(); ++a) {
        const std::size_t k = integer(e.args[a]);
        if (k >= shape[a]) fail(e, "index " + std::to_string(k) + " out of range for '" + e.name + "'");
        flat = flat * shape[a] + k;
      }
    }
    return v_.element(e.name, e.err, flat, prec_);
  }

  I power(const E& e) {
    const I x = eval(e.args[0]), y = eval(e.args[1]);
    const double n = y.lower();
    if (is_point(y) && n == std::floor(n) && std::fabs(n) <= 4096) {
      const long k = static_cast<long>(std::fabs(n));
      const I base = k % 2 == 0 ? abs(x) : x;  // an even power of an interval holding 0 is >= 0
      I r = I::point(1.0, prec_);
      for (long i = 0; i < k; ++i) r = r * base;
      return n < 0 ? I::point(1.0, prec_) / r : r;
    }
    if (!(x.lower() > 0)) fail(e, "a real power needs a positive base");
    return monotone(y * monotone(x, mpfr_log, prec_), mpfr_exp, prec_);
  }

  I call(const E& e) {
    if (e.name == "min" || e.name == "max") return extreme(eval(e.args[0]), eval(e.args[1]), e.name == "max", prec_);
    const I x = eval(e.args[0]);
    if (e.name == "abs") return abs(x);
    if (e.name == "sqrt") return sqrt(x);
    if (e.name == "exp") return monotone(x, mpfr_exp, prec_);
    if (e.name == "tanh") return monotone(x, mpfr_tanh, prec_);
    if (e.name == "log") {
      if (!(x.lower() > 0)) fail(e, "log of a value that may be <= 0");
      return monotone(x, mpfr_log, prec_);
    }
    // ulp: nondecreasing in |x|, a step function
    if (!is_bounded(x)) fail(e, "ulp of an unbounded value");
    return I::between(symerr::ulp(mig(x), F_), symerr::ulp(std::min(mag(x), F_.max_finite()), F_), prec_);
  }

  I sum(const E& e) {
    const std::size_t n = dimension(e.extent);
    I total = I::point(0.0, prec_);
    bound_.push_back({e.name, 0});
    for (std::size_t k = 0; k < n; ++k) {
      bound_.back().second = k;
      total = total + eval(e.args[0]);
    }
    bound_.pop_back();
    return total;
  }

  // max / min of the body over every element of the tensors it names bare
  // (they have the same number of elements).
  I extremum(const E& e) {
    std::size_t n = 0;
    bare_sizes(e.args[0], n);
    const std::size_t saved = bare_;
    std::optional<I> r;
    for (std::size_t f = 0; f < n; ++f) {
      bare_ = f;
      const I v = eval(e.args[0]);
      r = r ? extreme(*r, v, e.name == "max", prec_) : v;
    }
    bare_ = saved;
    if (!r) fail(e, "max/min over an empty tensor");
    return *r;
  }
  void bare_sizes(const E& e, std::size_t& n) {
    if (e.op == E::Op::Element && e.args.empty()) {
      std::size_t size = 1;
      for (std::size_t d : v_.shape(e.name)) size *= d;
      if (n != 0 && n != size) fail(e, "the tensors of max/min have different sizes");
      n = size;
    }
    for (const E& a : e.args) bare_sizes(a, n);
  }

  const Statement& s_;
  const StatementValues& v_;
  mpfr_prec_t prec_;
  FloatFormat F_;
  std::vector<std::pair<std::string, std::size_t>> bound_;
  std::size_t bare_ = std::numeric_limits<std::size_t>::max();
};

}  // namespace

MpfrInterval evaluate_bound(const Statement& s, const StatementValues& v, std::span<const std::size_t> index,
                            mpfr_prec_t precision) {
  return Evaluator(s, v, index, precision).eval(s.bound);
}

Tri evaluate_where(const Statement& s, const StatementValues& v, std::span<const std::size_t> index,
                   mpfr_prec_t precision) {
  if (!s.where) return Tri::True;
  return Evaluator(s, v, index, precision).truth(*s.where);
}

// ---- tensors in memory ---------------------------------------------------------

void TensorStatementValues::set(const std::string& name, Tensor t) { tensors_[name] = std::move(t); }

void TensorStatementValues::set_points(const std::string& name, std::vector<std::size_t> shape, std::vector<double> v,
                                       std::vector<double> e) {
  Tensor t;
  t.shape = std::move(shape);
  t.lo = t.hi = v;
  if (e.empty()) e.assign(v.size(), 0.0);
  t.err_lo = t.err_hi = e;
  tensors_[name] = std::move(t);
}

MpfrInterval TensorStatementValues::element(const std::string& name, bool err, std::size_t flat,
                                            mpfr_prec_t precision) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw StatementError("no values for tensor '" + name + "'");
  const Tensor& t = it->second;
  if (flat >= t.lo.size()) throw StatementError("tensor '" + name + "': element " + std::to_string(flat) + " has no value");
  return err ? MpfrInterval::between(t.err_lo[flat], t.err_hi[flat], precision)
             : MpfrInterval::between(t.lo[flat], t.hi[flat], precision);
}

std::vector<std::size_t> TensorStatementValues::shape(const std::string& name) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) throw StatementError("no values for tensor '" + name + "'");
  return it->second.shape;
}

}  // namespace symerr::verify
