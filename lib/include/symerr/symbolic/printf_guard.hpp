// printf, fprintf, sprintf and snprintf refuse a symerr value at compile time.
//
// A symbolic value is a trivially copyable class (a C kernel keeps it in
// malloc'd buffers and copies it with memcpy), and C++ lets such a class pass
// through C's `...` with no diagnostic beyond -Wformat's warning: under
// `REPLACE float`, `printf("x = %f\n", x)` would read the first 8 bytes of the
// object as a double and print nonsense (0.000000 for an input). The function
// templates below are found for a call with a symerr value among its arguments
// — by argument-dependent lookup for an unqualified call (a C kernel's call,
// also inside a substituted file), by ordinary lookup inside namespace symerr
// — and match it better than the C function's `...`; their body is a
// static_assert that names the call and the alternative.
// <symerr/symbolic/std_math.hpp> (included by <symerr/symerr.hpp>) adds the
// same for the spellings std::printf, std::fprintf, std::sprintf, std::snprintf.
//
// Not refused (C++ has no way to refuse a trivially copyable class there): a
// call qualified with the global scope (::printf(...)), and every other
// variadic function (vprintf's va_list, syslog, a kernel's own
// `void log(const char*, ...)`): such a value arrives as raw bytes.
//
// A type opts in with a declaration, in its own namespace, of
//   void varargs_refused(const T*);
// (declared, never defined: RefusesVarargs only asks whether a call would
// compile). Declared here for every domain (RealDomain) and for Truth (a
// comparison's result: C's `printf("%d", x > 0)`); <symerr/symbolic.hpp> adds
// SymbolicDomainError<D> (and so the types derived from it, CFloat and
// CDouble), <symerr/lean.hpp> LeanError<F> and LeanInterval.
#pragma once

#include <cstddef>
#include <cstdio>
#include <type_traits>

#include <symerr/domain/concept.hpp>
#include <symerr/tribool.hpp>

namespace symerr {

///@{
/// Declared, never defined: the opt-in of a type to the printf guard (RefusesVarargs);
/// here every domain and Truth.
template <RealDomain D>
void varargs_refused(const D*);
void varargs_refused(const Truth*);
///@}

/// T is a symerr value that C's `...` must not receive.
template <class T>
concept RefusesVarargs = requires { varargs_refused(static_cast<const std::remove_cvref_t<T>*>(nullptr)); };
/// Whether any of the types A refuses C's `...` (RefusesVarargs).
template <class... A>
inline constexpr bool any_refuses_varargs_v = (RefusesVarargs<A> || ...);

// Inside namespace symerr an unqualified printf finds the templates below
// first; the C functions stay visible beside them.
using std::fprintf;
using std::printf;
using std::snprintf;
using std::sprintf;

#define SYMERR_VARARGS_REFUSED(fn)                                                                          \
  "symerr: a symbolic value cannot be passed to " fn ": C's `...` would receive the object's raw bytes "   \
  "(printf(\"%f\", x) prints 0.000000 for an input). Print it from C++ with std::cout << x (its "         \
  "enclosures), or print a bound such as mag(x.err); in an analysed C kernel, remove the call"

///@{
/// printf, fprintf, sprintf, snprintf with a symerr value among the arguments: a
/// compile error (static_assert) naming the call and what to do instead. Found by
/// argument-dependent lookup for an unqualified call; a call qualified with the global scope and other
/// variadic functions are not caught.
template <class... A>
  requires any_refuses_varargs_v<A...>
int printf(const char*, const A&...) {
  static_assert(!any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("printf"));
  return 0;
}
template <class... A>
  requires any_refuses_varargs_v<A...>
int fprintf(std::FILE*, const char*, const A&...) {
  static_assert(!any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("fprintf"));
  return 0;
}
template <class... A>
  requires any_refuses_varargs_v<A...>
int sprintf(char*, const char*, const A&...) {
  static_assert(!any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("sprintf"));
  return 0;
}
template <class... A>
  requires any_refuses_varargs_v<A...>
int snprintf(char*, std::size_t, const char*, const A&...) {
  static_assert(!any_refuses_varargs_v<A...>, SYMERR_VARARGS_REFUSED("snprintf"));
  return 0;
}
///@}

}  // namespace symerr
