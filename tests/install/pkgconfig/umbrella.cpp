// A consumer of <symerr/symerr.hpp> alone, built by a Makefile through
// pkg-config: the value types with what they support — an elementary
// function of a SymbolicError, a lean product, the branch driver — and the
// one way to read a bound, mag(x.err).
#include <cstdio>
#include <vector>

#include <symerr/symerr.hpp>

int main() {
  using symerr::SymbolicError;
  const SymbolicError x = SymbolicError::input(0, 1, -0x1p-20, 0x1p-20, symerr::FP32);
  const SymbolicError y = exp(x);  // found by argument-dependent lookup, under the default accuracy model
  const symerr::LeanDouble l = symerr::LeanDouble::input(0, 1, -1e-12, 1e-12) * 0.5;
  const std::vector<SymbolicError> in(4, SymbolicError::input(-1, 1, -1e-12, 1e-12, symerr::FP64));
  symerr::verify::DriverOptions opt;
  const std::size_t sizes[] = {4};
  symerr::verify::elementwise_lanes(opt, sizes, 4);
  const auto r = symerr::verify::run_kernel(
      [](std::span<SymbolicError> a, std::span<SymbolicError> b) {
        for (std::size_t i = 0; i < a.size(); ++i) b[i] = a[i] < 0 ? SymbolicError(0) : a[i];
      },
      in, 4, opt);
  std::printf("symerr %s: exp |err| <= %g, lean |err| <= %g, relu |err| <= %g\n", symerr::version(), mag(y.err),
              mag(l.err()), mag(r.outputs[0].err));
  const bool ok = mag(y.err) > 0x1p-20 && mag(y.err) < 1e-5 && mag(l.err()) >= 0.5e-12 && mag(l.err()) < 1e-11 &&
                  mag(r.outputs[0].err) == 1e-12;
  return ok ? 0 : 1;
}
