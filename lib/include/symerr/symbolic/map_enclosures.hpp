// The same value over another domain (or the same one): every enclosure —
// real, fp, err, rel_err, propagated, introduced — mapped by f, the metadata
// (format, mode, integer division, special flags, the mixed error bound,
// origin) kept. f must
// enclose its argument's set (e.g. an interval hull) for the result to stay
// sound.
#pragma once

#include <symerr/symbolic.hpp>

namespace symerr {

/// The same value over another domain (or the same one): every enclosure (real,
/// fp, err, rel_err, propagated, introduced) mapped by f, the metadata (format,
/// mode, integer division, special flags, the mixed error bound, origin) kept.
/// Precondition: f encloses its argument's set (e.g. an interval hull), else the result is unsound.
template <RealDomain E, RealDomain D, class F>
SymbolicDomainError<E> map_enclosures(const SymbolicDomainError<D>& x, F&& f) {
  SymbolicDomainError<E> r;
  r.real = f(x.real);
  r.fp = f(x.fp);
  r.err = f(x.err);
  r.rel_err = f(x.rel_err);
  r.propagated = f(x.propagated);
  r.introduced = f(x.introduced);
  r.format = x.format;
  r.mode = x.mode;
  r.int_division = x.int_division;
  r.specials = x.specials;
  r.mixed = x.mixed;  // a bound on the quantity itself, whatever the domain
  r.origin = x.origin;
  return r;
}

}  // namespace symerr
