// symerr's own generic kernels as black boxes for the concrete check: the
// scalar rules of lib/ops (add_scalar, sub_scalar, mul_scalar, div_scalar) on
// the element type, wrapped over storage buffers (FP16/BF16 as bit patterns).
#include <symerr/verify/campaign/campaign.hpp>

#include <cstring>
#include <stdexcept>

#include <symerr/bfloat16.hpp>
#include <symerr/half.hpp>
#include <symerr/ops/add.hpp>
#include <symerr/ops/div.hpp>
#include <symerr/ops/mul.hpp>
#include <symerr/ops/sub.hpp>

namespace symerr::verify {

namespace {

// Storage <-> element: identity except for the 16-bit floats.
template <class E, class S>
E load(S s) {
  if constexpr (std::is_same_v<E, Half> || std::is_same_v<E, BFloat16>) return E::from_bits(s);
  else return s;
}
template <class E, class S>
S store(const E& e) {
  if constexpr (std::is_same_v<E, Half> || std::is_same_v<E, BFloat16>) return e.bits();
  else return e;
}

// Undefined results (integer x/0) are written as 0: the check does not judge them.
template <class E, class S>
Kernel generic(OpId op, ElementType type, IntegerDivision d) {
  Kernel k;
  k.name = "symerr::" + std::string(to_string(op));
  k.op = op;
  k.type = type;
  k.form = KernelForm::Elementwise;
  const DivOptions div{Sonnx{}, d, FloatDivisionByZero::Ieee};
  k.run = [op, div](const void* a, const void* b, void* y, std::size_t n) {
    const S* A = static_cast<const S*>(a);
    const S* B = static_cast<const S*>(b);
    S* Y = static_cast<S*>(y);
    for (std::size_t i = 0; i < n; ++i) {
      const E x = load<E>(A[i]), z = load<E>(B[i]);
      E r{};
      switch (op) {
        case OpId::Add: r = add_scalar(x, z); break;
        case OpId::Sub: r = sub_scalar(x, z); break;
        case OpId::Mul: r = mul_scalar(x, z); break;
        case OpId::Div: r = div_scalar(x, z, div).value_or(E{}); break;
        default: break;  // builtin_kernel accepts the binary-kernel operators only
      }
      Y[i] = store<E, S>(r);
    }
  };
  return k;
}

}  // namespace

Kernel builtin_kernel(OpId op, ElementType type, IntegerDivision d) {
  if (!binary_kernel_operator(op))
    throw std::invalid_argument("builtin_kernel: " + std::string(to_string(op)) + " has no two-input concrete check");
  switch (type) {
    case ElementType::FP16: return generic<Half, std::uint16_t>(op, type, d);
    case ElementType::BF16: return generic<BFloat16, std::uint16_t>(op, type, d);
    case ElementType::FP32: return generic<float, float>(op, type, d);
    case ElementType::FP64: return generic<double, double>(op, type, d);
    case ElementType::INT8: return generic<std::int8_t, std::int8_t>(op, type, d);
    case ElementType::UINT8: return generic<std::uint8_t, std::uint8_t>(op, type, d);
    case ElementType::INT16: return generic<std::int16_t, std::int16_t>(op, type, d);
    case ElementType::UINT16: return generic<std::uint16_t, std::uint16_t>(op, type, d);
    case ElementType::INT32: return generic<std::int32_t, std::int32_t>(op, type, d);
    case ElementType::UINT32: return generic<std::uint32_t, std::uint32_t>(op, type, d);
    case ElementType::INT64: return generic<std::int64_t, std::int64_t>(op, type, d);
    case ElementType::UINT64: return generic<std::uint64_t, std::uint64_t>(op, type, d);
  }
  throw std::invalid_argument("builtin_kernel: unknown element type");
}

}  // namespace symerr::verify
