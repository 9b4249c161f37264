// C's float and double as two symbolic types: CFloat and CDouble.
//
// A C kernel that mixes the two — data in float, a sum in double, `x * 0.1`
// (a double literal), sqrt/exp (the double functions) on a float — computes
// some of its operations in double and rounds to float on assignment. With
// one substituted type for both (REPLACE float double, WITH SymbolicError)
// every value keeps its own format and those conversions vanish: the model is
// of another program (float sums where C sums in double, float(0.1) where C
// multiplies by the double 0.1, no rounding where C narrows a double to a
// float). CNumber<D, K> is SymbolicDomainError<D> with the C type K attached,
// so that the C++ compiler applies C's rules (symerr_add_substituted_kernel
// with C_TYPES, or `#define float ::symerr::CFloat` by hand):
//
//   * a value of type K holds a value of K's format (FP32 / FP64): a
//     conversion to K — initialisation, assignment, argument, return, cast —
//     from another format is convert() in the value's rounding mode (C's
//     conversion in the current mode; a value already of K's format is kept,
//     input tag included);
//   * a number converted to K — `float x = 0.1;`, `CFloat(n)` — is the
//     number's exact value rounded to K's format in round-to-nearest (C
//     converts constants at translation time), its rounding the introduced
//     error; ±inf and NaN are K's;
//   * arithmetic (+ − × ÷, compound forms) follows C's usual arithmetic
//     conversions: float ∘ float, float ∘ integer and float ∘ float-literal
//     are float operations; any double operand (a CDouble, a double literal)
//     makes it a double operation, the float operand converted exactly;
//     integer operands are converted to the operation's type first (exact
//     below 2^24 / 2^53, else rounded as C does). The result has the C type;
//   * comparisons: float with double compares in double (the float exactly);
//     everything else is the drop-in comparison (a literal compared exactly,
//     as C compares a float with a double), operands of one type passed on as
//     the objects they are, so the branch driver still tightens them;
//   * <math.h>: sqrt, exp, fabs, fmax, pow, ... are the double functions
//     (a float argument converted exactly, the result a CDouble), sqrtf, expf,
//     fabsf, fmaxf, powf, ... the float ones (a double argument rounded to
//     float first); the long double names do not compile for these types;
//   * isnan/isinf/isfinite, fmin/fmax semantics, literals and the accuracy
//     model are those of SymbolicDomainError (<symerr/symbolic/dropin.hpp>).
//
// CNumber adds no data: it is trivially copyable and as large as
// SymbolicDomainError<D>. A buffer of SymbolicError (the kernel driver's
// spans) is passed to a kernel of CFloat by copying (CFloat(x) keeps an FP32
// input as it is); see docs/substitution.md, "C_TYPES: C's float and double".
#pragma once

#include <algorithm>
#include <limits>
#include <type_traits>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/elementary.hpp>

namespace symerr {

/// C's float or double.
enum class CType { Float, Double };

/// SymbolicDomainError<D> with C's type K (float or double) attached, so that the
/// C++ compiler applies C's rules: a value of type K holds a value of K's format
/// (FP32 / FP64), conversions to K are convert() in the value's rounding mode,
/// numbers converted to K are rounded to nearest, arithmetic follows C's usual
/// arithmetic conversions (any double operand makes a double operation), and
/// <math.h>'s double and float functions return CDouble / CFloat. Adds no data
/// (trivially copyable, as large as SymbolicDomainError<D>); see this header's
/// opening comment.
template <RealDomain D, CType K>
class CNumber : public SymbolicDomainError<D> {
 public:
  /// The symbolic value type it extends.
  using Base = SymbolicDomainError<D>;
  /// C's type.
  static constexpr CType kind = K;
  /// K's format: FP32 for float, FP64 for double.
  static const FloatFormat& c_format() noexcept { return K == CType::Float ? FP32 : FP64; }

  CNumber() = default;
  ///@{
  /// Copy.
  CNumber(const CNumber&) = default;
  CNumber& operator=(const CNumber&) = default;
  ///@}
  /// C's conversion to this type.
  CNumber(const Base& v) : Base(to_type(v)) {}  // NOLINT: implicit, as in C
  /// A number converted to K (as from_number()).
  template <class A>
    requires(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>)
  CNumber(A v) : Base(from_number(v)) {}  // NOLINT: implicit, as in C

  ///@{
  /// Compound assignment: the operation by C's rules, its result converted to K.
  template <class B>
  CNumber& operator+=(const B& b) {
    return *this = *this + b;
  }
  template <class B>
  CNumber& operator-=(const B& b) {
    return *this = *this - b;
  }
  template <class B>
  CNumber& operator*=(const B& b) {
    return *this = *this * b;
  }
  template <class B>
  CNumber& operator/=(const B& b) {
    return *this = *this / b;
  }
  ///@}

  /// A number converted to this type (see the header comment).
  template <class A>
    requires(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>)
  static Base from_number(A v) {
    static_assert(!std::is_same_v<A, long double>, "long double is not modelled: C would compute in long double");
    const FloatFormat& F = c_format();
    if constexpr (std::is_floating_point_v<A>) {
      if (std::isnan(v)) return Base::nan(F);
      if (std::isinf(v)) return Base::inf(v > 0 ? +1 : -1, F);
      return Base::literal(mpq_class(static_cast<double>(v)), F, RoundingMode::NearestEven);
    } else {
      return Base::literal(mpq_class(std::to_string(v)), F, RoundingMode::NearestEven);
    }
  }

 private:
  static Base to_type(const Base& v) {
    const FloatFormat& F = c_format();
    if (const auto* G = std::get_if<FloatFormat>(&v.format); G && *G == F && G->name == F.name) return v;
    return convert(v, Format{F}, v.is_real() ? RoundingMode::NearestEven : v.mode);
  }
};

/// C's float as a symbolic type.
using CFloat = CNumber<Interval, CType::Float>;
/// C's double as a symbolic type.
using CDouble = CNumber<Interval, CType::Double>;
static_assert(std::is_trivially_copyable_v<CFloat> && std::is_trivially_copyable_v<CDouble>);
static_assert(sizeof(CFloat) == sizeof(SymbolicError) && sizeof(CDouble) == sizeof(SymbolicError));

namespace c_types_detail {

template <class T>
struct CInfo {
  static constexpr bool c_number = false;
};
template <RealDomain D, CType K>
struct CInfo<CNumber<D, K>> {
  static constexpr bool c_number = true;
  using Domain = D;
};

template <class A>
inline constexpr bool is_c_number = CInfo<A>::c_number;

template <class A>
concept CNumberOrNumber = is_c_number<A> || (std::is_arithmetic_v<A> && !std::is_same_v<A, bool> &&
                                             !std::is_same_v<A, long double>);

// C's rank of an operand: 0 an integer, 1 float, 2 double.
template <class A>
constexpr int rank() {
  if constexpr (is_c_number<A>) return A::kind == CType::Double ? 2 : 1;
  else if constexpr (std::is_same_v<A, double>) return 2;
  else if constexpr (std::is_same_v<A, float>) return 1;
  else return 0;
}

template <class A, class B>
struct DomainOf {
  using type = typename CInfo<std::conditional_t<is_c_number<A>, A, B>>::Domain;
};

// The C type of a ∘ b (at least float: one operand is a CNumber).
template <class A, class B>
using Result = CNumber<typename DomainOf<A, B>::type, (std::max(rank<A>(), rank<B>()) == 2 ? CType::Double : CType::Float)>;

// A pair for C's arithmetic: one CNumber, the other a CNumber of the same
// domain or a number.
template <class A, class B>
concept Pair = CNumberOrNumber<A> && CNumberOrNumber<B> && (is_c_number<A> || is_c_number<B>) &&
               (!is_c_number<A> || !is_c_number<B> ||
                std::is_same_v<typename CInfo<A>::Domain, typename CInfo<B>::Domain>);

// An operand of an operation of type R: a CNumber of R's type as the object
// it is (a square x·x stays one object); another CNumber converted to R; a
// floating number as it is (a drop-in literal; a float of a float operation,
// any of a double one, is a value of R's format); an integer converted to R
// (C's conversion: exact below 2^24 / 2^53, else rounded).
template <class R, class A>
decltype(auto) operand(const A& a) {
  if constexpr (is_c_number<A>) {
    if constexpr (std::is_same_v<A, R>) return static_cast<const typename R::Base&>(a);
    else return typename R::Base(R(a));
  } else if constexpr (std::is_floating_point_v<A>) {
    return a;
  } else {
    return typename R::Base(R(a));
  }
}

}  // namespace c_types_detail

#define SYMERR_C_TYPES_ARITH(op)                                                                 \
  template <class A, class B>                                                                    \
    requires c_types_detail::Pair<A, B>                                                          \
  c_types_detail::Result<A, B> operator op(const A& a, const B& b) {                             \
    using R = c_types_detail::Result<A, B>;                                                      \
    return R(c_types_detail::operand<R>(a) op c_types_detail::operand<R>(b));                    \
  }
///@{
/// Arithmetic by C's usual arithmetic conversions: a double operand (CDouble or a
/// double literal) makes a double operation (the float operand converted exactly),
/// otherwise a float one; integers are converted to the operation's type first.
SYMERR_C_TYPES_ARITH(+)
SYMERR_C_TYPES_ARITH(-)
SYMERR_C_TYPES_ARITH(*)
SYMERR_C_TYPES_ARITH(/)
///@}
#undef SYMERR_C_TYPES_ARITH

/// Negation (exact).
template <RealDomain D, CType K>
CNumber<D, K> operator-(const CNumber<D, K>& x) {
  return CNumber<D, K>(-static_cast<const SymbolicDomainError<D>&>(x));
}
/// +x is x.
template <RealDomain D, CType K>
CNumber<D, K> operator+(const CNumber<D, K>& x) {
  return x;
}

// float compared with double: in double (the float converted exactly). Every
// other comparison is the drop-in one, on the objects themselves: a floating
// literal exactly (C compares a float with a double constant in double), an
// integer beyond 2^24 (float) or 2^53 (double) converted to the type first, as
// C does (detail::operand_literal).
#define SYMERR_C_TYPES_CMP(op)                                                                   \
  template <RealDomain D, CType K, CType L>                                                      \
    requires(K != L)                                                                             \
  Truth operator op(const CNumber<D, K>& a, const CNumber<D, L>& b) {                            \
    using R = CNumber<D, CType::Double>;                                                         \
    return c_types_detail::operand<R>(a) op c_types_detail::operand<R>(b);                       \
  }
///@{
/// float compared with double: in double (the float converted exactly); every other
/// comparison is the drop-in one.
SYMERR_C_TYPES_CMP(<)
SYMERR_C_TYPES_CMP(<=)
SYMERR_C_TYPES_CMP(>)
SYMERR_C_TYPES_CMP(>=)
SYMERR_C_TYPES_CMP(==)
SYMERR_C_TYPES_CMP(!=)
///@}
#undef SYMERR_C_TYPES_CMP


// <math.h>: `name` is the double function, `name##f` the float one.
#define SYMERR_C_TYPES_UNARY(name)                                                               \
  template <RealDomain D, CType K>                                                               \
  CNumber<D, CType::Double> name(const CNumber<D, K>& x) {                                       \
    using R = CNumber<D, CType::Double>;                                                         \
    return R(name(c_types_detail::operand<R>(x)));                                               \
  }                                                                                              \
  template <RealDomain D, CType K>                                                               \
  CNumber<D, CType::Float> name##f(const CNumber<D, K>& x) {                                     \
    using R = CNumber<D, CType::Float>;                                                          \
    return R(name(c_types_detail::operand<R>(x)));                                               \
  }                                                                                              \
  template <RealDomain D, CType K>                                                               \
  void name##l(const CNumber<D, K>& x) = delete; /* long double is not modelled */
///@{
/// <math.h>: `name` is the double function (a float argument converted exactly, the
/// result a CDouble), `name##f` the float one (a double argument rounded to float first).
SYMERR_C_TYPES_UNARY(sqrt)
SYMERR_C_TYPES_UNARY(fabs)
SYMERR_C_TYPES_UNARY(exp)
SYMERR_C_TYPES_UNARY(expm1)
SYMERR_C_TYPES_UNARY(exp2)
SYMERR_C_TYPES_UNARY(log)
SYMERR_C_TYPES_UNARY(log1p)
SYMERR_C_TYPES_UNARY(log2)
SYMERR_C_TYPES_UNARY(log10)
SYMERR_C_TYPES_UNARY(sin)
SYMERR_C_TYPES_UNARY(cos)
SYMERR_C_TYPES_UNARY(tan)
SYMERR_C_TYPES_UNARY(atan)
SYMERR_C_TYPES_UNARY(asin)
SYMERR_C_TYPES_UNARY(acos)
SYMERR_C_TYPES_UNARY(sinh)
SYMERR_C_TYPES_UNARY(cosh)
SYMERR_C_TYPES_UNARY(asinh)
SYMERR_C_TYPES_UNARY(acosh)
SYMERR_C_TYPES_UNARY(atanh)
SYMERR_C_TYPES_UNARY(tanh)
SYMERR_C_TYPES_UNARY(erf)
SYMERR_C_TYPES_UNARY(erfc)
SYMERR_C_TYPES_UNARY(floor)
SYMERR_C_TYPES_UNARY(ceil)
SYMERR_C_TYPES_UNARY(trunc)
SYMERR_C_TYPES_UNARY(round)
SYMERR_C_TYPES_UNARY(rint)
SYMERR_C_TYPES_UNARY(nearbyint)
SYMERR_C_TYPES_UNARY(cbrt)
///@}
#undef SYMERR_C_TYPES_UNARY

// fmin, fmax, pow, fmod, hypot, atan2, copysign, fdim, remainder (double) and fminf, fmaxf,
// powf, fmodf, hypotf, atan2f, copysignf, fdimf, remainderf (float): either argument a
// CNumber, the other a CNumber or a number, both converted to the function's type.
#define SYMERR_C_TYPES_BINARY(name)                                                              \
  template <class A, class B>                                                                    \
    requires c_types_detail::Pair<A, B>                                                          \
  auto name(const A& a, const B& b) {                                                            \
    using R = CNumber<typename c_types_detail::DomainOf<A, B>::type, CType::Double>;             \
    return R(name(typename R::Base(R(a)), typename R::Base(R(b))));                              \
  }                                                                                              \
  template <class A, class B>                                                                    \
    requires c_types_detail::Pair<A, B>                                                          \
  auto name##f(const A& a, const B& b) {                                                         \
    using R = CNumber<typename c_types_detail::DomainOf<A, B>::type, CType::Float>;              \
    return R(name(typename R::Base(R(a)), typename R::Base(R(b))));                              \
  }                                                                                              \
  template <class A, class B>                                                                    \
    requires c_types_detail::Pair<A, B>                                                          \
  void name##l(const A& a, const B& b) = delete; /* long double is not modelled */
///@{
/// The binary <math.h> functions (double) and their float names: either argument a
/// CNumber, the other a CNumber or a number, both converted to the function's type.
SYMERR_C_TYPES_BINARY(fmin)
SYMERR_C_TYPES_BINARY(fmax)
SYMERR_C_TYPES_BINARY(pow)
SYMERR_C_TYPES_BINARY(fmod)
SYMERR_C_TYPES_BINARY(hypot)
SYMERR_C_TYPES_BINARY(atan2)
SYMERR_C_TYPES_BINARY(copysign)
SYMERR_C_TYPES_BINARY(fdim)
SYMERR_C_TYPES_BINARY(remainder)
///@}
#undef SYMERR_C_TYPES_BINARY

// ldexp, scalbn (double) and ldexpf, scalbnf (float): x converted to the
// function's type, scaled by 2^n.
#define SYMERR_C_TYPES_SCALE(name)                                                               \
  template <RealDomain D, CType K>                                                               \
  CNumber<D, CType::Double> name(const CNumber<D, K>& x, int n) {                                \
    using R = CNumber<D, CType::Double>;                                                         \
    return R(name(c_types_detail::operand<R>(x), n));                                            \
  }                                                                                              \
  template <RealDomain D, CType K>                                                               \
  CNumber<D, CType::Float> name##f(const CNumber<D, K>& x, int n) {                              \
    using R = CNumber<D, CType::Float>;                                                          \
    return R(name(c_types_detail::operand<R>(x), n));                                            \
  }
///@{
/// ldexp, scalbn (double) and ldexpf, scalbnf (float): x converted to the function's type, scaled by 2^n.
SYMERR_C_TYPES_SCALE(ldexp)
SYMERR_C_TYPES_SCALE(scalbn)
///@}
#undef SYMERR_C_TYPES_SCALE

// frexp, modf (double) and frexpf, modff (float): x converted to the
// function's type; modf's integral part is of that type.
#define SYMERR_C_TYPES_DECOMPOSE(suffix, K)                                                       \
  template <RealDomain D, CType L>                                                                \
  CNumber<D, CType::K> frexp##suffix(const CNumber<D, L>& x, int* e) {                            \
    using R = CNumber<D, CType::K>;                                                               \
    return R(frexp(c_types_detail::operand<R>(x), e));                                            \
  }                                                                                               \
  template <RealDomain D, CType L>                                                                \
  CNumber<D, CType::K> modf##suffix(const CNumber<D, L>& x, CNumber<D, CType::K>* integral) {     \
    using R = CNumber<D, CType::K>;                                                               \
    typename R::Base i;                                                                           \
    const R f(modf(c_types_detail::operand<R>(x), &i));                                           \
    *integral = R(i);                                                                             \
    return f;                                                                                     \
  }
///@{
/// frexp, modf (double) and frexpf, modff (float): x converted to the function's type;
/// modf's integral part is of that type.
SYMERR_C_TYPES_DECOMPOSE(, Double)
SYMERR_C_TYPES_DECOMPOSE(f, Float)
///@}
#undef SYMERR_C_TYPES_DECOMPOSE

// fma (double) and fmaf (float): one rounding of a·b + c in the function's type.
namespace c_types_detail {
template <class A, class B, class C>
concept Triple = (is_c_number<A> || is_c_number<B> || is_c_number<C>) && CNumberOrNumber<A> && CNumberOrNumber<B> &&
                 CNumberOrNumber<C>;
template <CType K, class A, class B, class C>
auto fma_as(const A& a, const B& b, const C& c) {
  using D = typename DomainOf<std::conditional_t<is_c_number<A>, A, B>, C>::type;
  using R = CNumber<D, K>;
  return R(fma(typename R::Base(R(a)), typename R::Base(R(b)), typename R::Base(R(c))));
}
}  // namespace c_types_detail
///@{
/// fma (fmaf) with CNumber or number operands: C's fma in double (fmaf: in float),
/// the operands converted to that type first.
template <class A, class B, class C>
  requires c_types_detail::Triple<A, B, C>
auto fma(const A& a, const B& b, const C& c) {
  return c_types_detail::fma_as<CType::Double>(a, b, c);
}
template <class A, class B, class C>
  requires c_types_detail::Triple<A, B, C>
auto fmaf(const A& a, const B& b, const C& c) {
  return c_types_detail::fma_as<CType::Float>(a, b, c);
}
///@}

}  // namespace symerr

// std::numeric_limits of CFloat and CDouble: those of float and double, the
// values as CNumbers of their type (a C++ kernel's numeric_limits<T>::lowest()
// with T = CFloat is −FLT_MAX in FP32; without this the primary template's T()
// would be an exact 0).
namespace std {
/// std::numeric_limits of CFloat and CDouble: those of float and double, the
/// values as CNumbers of their type (lowest() of CFloat is −FLT_MAX in FP32).
template <symerr::RealDomain D, symerr::CType K>
struct numeric_limits<symerr::CNumber<D, K>>
    : numeric_limits<conditional_t<K == symerr::CType::Float, float, double>> {
 private:
  using C = symerr::CNumber<D, K>;
  using N = std::conditional_t<K == symerr::CType::Float, float, double>;

 public:
  ///@{
  /// As float's (double's); the values are CNumbers of the type.
  static constexpr bool has_signaling_NaN = false;
  static C min() { return C(std::numeric_limits<N>::min()); }
  static C max() { return C(std::numeric_limits<N>::max()); }
  static C lowest() { return C(std::numeric_limits<N>::lowest()); }
  static C epsilon() { return C(std::numeric_limits<N>::epsilon()); }
  static C round_error() { return C(std::numeric_limits<N>::round_error()); }
  static C infinity() { return C(std::numeric_limits<N>::infinity()); }
  static C quiet_NaN() { return C(std::numeric_limits<N>::quiet_NaN()); }
  static C denorm_min() { return C(std::numeric_limits<N>::denorm_min()); }
  ///@}
};
}  // namespace std
