// The elementary functions on SymbolicDomainError, one header per function
// (each opens with its propagated-error identity), and the accuracy model
// that bounds their introduced error. Found by unqualified lookup (ADL):
// exp, expm1, exp2, log, log1p, log2, log10, sin, cos, tan, atan, asin, acos,
// sinh, cosh, asinh, acosh, atanh, tanh, sigmoid, erf, erfc, pow(x, c), powi(x, n), cbrt,
// hypot(x, y), atan2(y, x), ldexp(x, n) (scalbn, scalbln).
#pragma once

#include <symerr/symbolic.hpp>
#include <symerr/symbolic/accuracy.hpp>
#include <symerr/symbolic/elementary/cbrt.hpp>
#include <symerr/symbolic/elementary/erf.hpp>
#include <symerr/symbolic/elementary/exp.hpp>
#include <symerr/symbolic/elementary/exp2.hpp>
#include <symerr/symbolic/elementary/frexp_modf.hpp>
#include <symerr/symbolic/elementary/hyperbolic.hpp>
#include <symerr/symbolic/elementary/hypot_atan2.hpp>
#include <symerr/symbolic/elementary/inverse_trig.hpp>
#include <symerr/symbolic/elementary/ldexp.hpp>
#include <symerr/symbolic/elementary/log.hpp>
#include <symerr/symbolic/elementary/pow.hpp>
#include <symerr/symbolic/elementary/sigmoid.hpp>
#include <symerr/symbolic/elementary/tanh.hpp>
#include <symerr/symbolic/elementary/trig.hpp>
#include <symerr/symbolic/c_names.hpp>  // sqrtf, expf, fmaxf, powf, ... (the C99 float and long double names)
