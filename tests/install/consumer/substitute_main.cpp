// The installed symerr_add_substituted_kernel(): scale.c compiled on
// SymbolicError, with C_TYPES (double -> CDouble) and on the Affine domain, run
// through the branch driver; and on LeanDouble (no driver: inputs where the
// relu's comparison is decided).
#include <cstdio>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#define SYMERR_SUBSTITUTE_DOUBLE ::symerr::SymbolicError
#include <symerr/substitute.hpp>
namespace kernel {
#include "scale.h"
}  // namespace kernel
#include <symerr/substitute_end.hpp>
#include <symerr/substitute.hpp>
#undef double
#define double ::symerr::CDouble
namespace kernel_c {
#include "scale.h"
}  // namespace kernel_c
#include <symerr/substitute_end.hpp>
#include <symerr/substitute.hpp>
#undef double
#define double ::symerr::SymbolicDomainError<::symerr::Affine>
namespace kernel_aff {  // the Affine domain: no include of its own (substitute.hpp has it)
#include "scale.h"
}  // namespace kernel_aff
#include <symerr/substitute_end.hpp>
#include <symerr/substitute.hpp>
#undef double
#define double ::symerr::LeanDouble
namespace kernel_lean {
#include "scale.h"
}  // namespace kernel_lean
#include <symerr/substitute_end.hpp>

int main() {
  using symerr::SymbolicError;
  const std::vector<SymbolicError> in(8, SymbolicError::input(-1, 1, -1e-12, 1e-12, symerr::FP64));
  symerr::verify::DriverOptions opt;
  const std::size_t sizes[] = {8};
  symerr::verify::elementwise_lanes(opt, sizes, 8);
  const auto r = symerr::verify::run_kernel(
      [](std::span<SymbolicError> x, std::span<SymbolicError> y) {
        SymbolicError* out = kernel::scale_relu(x.data(), 8, 0.5, 0.25);
        for (int i = 0; i < 8; ++i) y[i] = out[i];
        kernel::release(out);
      },
      in, 8, opt);
  std::printf("substituted scale_relu: err bound %g (%s)\n", mag(r.outputs[0].err), r.report.summary().c_str());
  const auto c = symerr::verify::run_kernel(
      [](std::span<SymbolicError> x, std::span<SymbolicError> y) {
        symerr::verify::KernelBuffer<symerr::CDouble> xc(x);
        symerr::CDouble* out = kernel_c::scale_relu(xc.data(), 8, 0.5, 0.25);
        for (int i = 0; i < 8; ++i) y[i] = out[i];
        kernel_c::release(out);
      },
      in, 8, opt);
  std::printf("C_TYPES scale_relu: err bound %g (%s)\n", mag(c.outputs[0].err), c.report.summary().c_str());
  using SA = symerr::SymbolicDomainError<symerr::Affine>;
  symerr::AffineContext ctx;
  symerr::AffineScope scope(ctx);
  const std::vector<SA> ina(8, SA::input(-1, 1, -1e-12, 1e-12, symerr::FP64));
  const auto a = symerr::verify::run_kernel<symerr::Affine>(
      [](std::span<SA> x, std::span<SA> y) {
        SA* out = kernel_aff::scale_relu(x.data(), 8, 0.5, 0.25);
        for (int i = 0; i < 8; ++i) y[i] = out[i];
        kernel_aff::release(out);
      },
      ina, 8, opt);
  std::printf("Affine scale_relu: err bound %g (%s)\n", mag(a.outputs[0].err), a.report.summary().c_str());
  const std::vector<symerr::LeanDouble> inl(8, symerr::LeanDouble::input(0, 1, -1e-12, 1e-12));
  symerr::LeanDouble* outl = kernel_lean::scale_relu(inl.data(), 8, 0.5, 0.25);
  const double lean = outl[0].err().mag();
  kernel_lean::release(outl);
  std::printf("LeanDouble scale_relu on [0, 1]: err bound %g\n", lean);
  return !r.report.budget_exhausted && mag(r.outputs[0].err) < 1e-11 && !c.report.budget_exhausted &&
                 mag(c.outputs[0].err) < 1e-11 && !a.report.budget_exhausted && mag(a.outputs[0].err) < 1e-11 &&
                 lean > 0 && lean < 1e-11
             ? 0
             : 1;
}
