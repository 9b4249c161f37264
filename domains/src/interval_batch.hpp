// Private to domains/src (not installed): entry points of interval_batch.cpp
// beside FastArithmetic<Interval>.
#pragma once

#include <symerr/domains/interval.hpp>
#include <symerr/symbolic.hpp>

namespace symerr::detail {

// detail::round_float_result<Rule>(x, y, t, F, z) over Interval for the rule of
// op, with only the fields it reads (fp_x, fp_y; z's mode and specials) and
// the whole computation in one upward-rounding scope instead of a mode
// save/set/restore per interval operation: the same algorithms, so the same
// result (tests/core/test_symbolic_one_scope.cpp). Returns round(t) − t's
// enclosure; sets z.fp and z.specials as round_float_result does (t may be
// narrowed for point operands, as there).
Interval scoped_round_float_result(ArithOp op, const Interval& x_fp, const Interval& y_fp, Interval& t,
                                   const FloatFormat& F, SymbolicDomainError<Interval>& z);

}  // namespace symerr::detail
