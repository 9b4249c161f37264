// Runs elu.c, compiled with float replaced by symerr::SymbolicError, on every
// input in [-1, 1] with an input error of at most 2^-20, and prints a sound
// bound on the error of each output.
#include <iostream>
#include <vector>

#include <symerr/symerr.hpp>

// The kernel's declarations, with float replaced as in the compiled kernel.
#define SYMERR_SUBSTITUTE_FLOAT ::symerr::SymbolicError
#include <symerr/substitute.hpp>
namespace kernel {
#include "elu.h"
}  // namespace kernel
#include <symerr/substitute_end.hpp>

int main() {
  using symerr::SymbolicError;
  const int n = 4;
  const std::vector<SymbolicError> x(n, SymbolicError::input(-1, 1, -0x1p-20, 0x1p-20, symerr::FP32));

  symerr::verify::DriverOptions opt;
  const std::size_t sizes[] = {n};
  symerr::verify::elementwise_lanes(opt, sizes, n);  // y[i] depends on x[i] only
  const auto r = symerr::verify::run_kernel(
      [](std::span<SymbolicError> in, std::span<SymbolicError> out) {
        kernel::elu(in.data(), out.data(), static_cast<int>(in.size()));
      },
      x, n, opt);

  for (int i = 0; i < n; ++i) std::cout << "y[" << i << "]: |err| <= " << mag(r.outputs[i].err) << "\n";
  std::cout << r.report.summary() << "\n";
  return r.report.budget_exhausted ? 1 : 0;
}
