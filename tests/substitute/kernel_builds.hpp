// The declarations of the fixture kernels (kernels/onnx_kernels.h) in every
// build tests/CMakeLists.txt makes of them, each in its namespace:
//   global  the C file compiled as C on double
//   ksym    SymbolicError                                 (test_kernels_sym)
//   kaff    SymbolicDomainError<Affine>                   (test_kernels_aff)
//   krat    SymbolicDomainError<RationalInterval>         (test_kernels_rat)
//   k32     float                                         (test_kernels_f32)
//   klean   LeanDouble                                    (test_kernels_lean)
//   klean32 LeanFloat                                     (test_kernels_lean32)
//   kq      mpq_class, the exact rational reference       (test_kernels_exact)
//   kmp     symref::Enclosure, the MPFR enclosure reference (test_kernels_mpfr)
// A caller declares a substituted kernel as README "A C kernel, by type
// substitution" shows: <symerr/substitute.hpp>, the header inside the
// namespace with `double` defined to the replacement, <symerr/substitute_end.hpp>.
#pragma once

#include <gmpxx.h>

#include <symerr/domains/affine.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/domains/symbolic_interval.hpp>

#include "substitute/enclosure_prelude.hpp"

#include <symerr/substitute.hpp>
#undef double
#define double ::symerr::SymbolicError
namespace ksym {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double ::symerr::SymbolicDomainError<::symerr::Affine>
namespace kaff {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double ::symerr::SymbolicDomainError<::symerr::RationalInterval>
namespace krat {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double ::symerr::LeanDouble
namespace klean {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double ::symerr::LeanFloat
namespace klean32 {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double float
namespace k32 {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double mpq_class
namespace kq {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#undef double
#define double ::symref::Enclosure
namespace kmp {
#include "kernels/onnx_kernels.h"
}
#undef ONNX_KERNELS_H
#include <symerr/substitute_end.hpp>
extern "C" {
#include "kernels/onnx_kernels.h"
}
