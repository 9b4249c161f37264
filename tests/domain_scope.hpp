// Test support: the context a domain's values need while they live, for a
// test that runs the same code over several domains — for Affine a fresh
// AffineContext made current on this thread (one per box keeps its memo
// small), for the interval domains nothing.
#pragma once

#include <symerr/domains/affine.hpp>

namespace symerr::test {

template <class D>
struct DomainScope {};
template <>
struct DomainScope<Affine> {
  AffineContext ctx;
  AffineScope scope{ctx};
};

}  // namespace symerr::test
