// Black-box kernels for the concrete check (docs/design.md §3 "Concrete check"): a C or
// C++ callable over typed buffers, registered in-process or loaded from a
// shared library by symbol name.
//
// Storage types: FP16 and BF16 elements are their uint16_t bit patterns, FP32
// float, FP64 double, integers the C fixed-width type of the same width and
// signedness.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <symerr/format.hpp>
#include <symerr/operators.hpp>
#include <symerr/verify/kernel/sandbox.hpp>

namespace symerr::verify {

/// Operators are lib's (<symerr/operators.hpp>): OpId, to_string(OpId) (the
/// ONNX name), find_operator(name). The two-input concrete check judges
/// against exact rational results, so its kernels compute an operator whose
/// exact result is rational: Add, Sub, Mul, Div.
bool binary_kernel_operator(OpId op) noexcept;
/// The binary-kernel operator named `name` (case-insensitive); throws
/// std::invalid_argument naming `name` and the operators available.
OpId parse_binary_operator(std::string_view name);
/// "Add, Sub, Mul, Div": the names of the operators `accepts` keeps, in table order.
std::string operator_names(bool (*accepts)(OpId) noexcept);

/// The element types of black-box kernels (the format-table names).
enum class ElementType : unsigned char {
  FP16, BF16, FP32, FP64, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64,
};
const char* to_string(ElementType t) noexcept;  ///< the format name: "FP16", "INT8", ...
std::optional<ElementType> parse_element_type(std::string_view s) noexcept;  ///< via find_format
/// The format of an element type.
Format format_of(ElementType t) noexcept;
/// Whether it is a floating-point type.
bool is_float(ElementType t) noexcept;
std::size_t storage_size(ElementType t) noexcept;  ///< bytes per element

// Storage encodings as raw bits (zero-extended to 64): FP16/BF16 via
// encode_fp16/encode_bf16 (NaN payloads kept), FP32 through float (exact for
// values of FP32), integers in two's complement.
double decode_float(ElementType t, std::uint64_t bits);  ///< precondition: is_float(t)
std::uint64_t encode_float(ElementType t, double x);     ///< x a value of the format, ±inf or NaN
__int128 decode_int(ElementType t, std::uint64_t bits);  ///< precondition: !is_float(t)
std::uint64_t encode_int(ElementType t, __int128 v);     ///< v modulo 2^bits
/// The bits of element i of a buffer of type t (zero-extended to 64).
std::uint64_t load_bits(ElementType t, const void* buffer, std::size_t i) noexcept;
/// Stores `bits` as element i of a buffer of type t.
void store_bits(ElementType t, void* buffer, std::size_t i, std::uint64_t bits) noexcept;
/// "0x3c00", "0x3f800000", ...: the storage bits with the storage width.
std::string bits_text(ElementType t, std::uint64_t bits);

/// The storage type of an element type, checked at compile time by make_kernel.
template <class T>
constexpr bool is_storage_of(ElementType t) noexcept {
  switch (t) {
    case ElementType::FP16:
    case ElementType::BF16: return std::is_same_v<T, std::uint16_t>;
    case ElementType::FP32: return std::is_same_v<T, float>;
    case ElementType::FP64: return std::is_same_v<T, double>;
    case ElementType::INT8: return std::is_same_v<T, std::int8_t>;
    case ElementType::UINT8: return std::is_same_v<T, std::uint8_t>;
    case ElementType::INT16: return std::is_same_v<T, std::int16_t>;
    case ElementType::UINT16: return std::is_same_v<T, std::uint16_t>;
    case ElementType::INT32: return std::is_same_v<T, std::int32_t>;
    case ElementType::UINT32: return std::is_same_v<T, std::uint32_t>;
    case ElementType::INT64: return std::is_same_v<T, std::int64_t>;
    case ElementType::UINT64: return std::is_same_v<T, std::uint64_t>;
  }
  return false;
}

/// C signatures a kernel may have.
template <class T>
using ElementwiseFn = void (*)(const T* a, const T* b, T* y, std::size_t n);
/// Tensor form: shapes as int64 dimension arrays (row-major); y has the shape
/// of the inputs (the concrete check passes identical shapes, SONNX [R1]).
template <class T>
using TensorFn = void (*)(const T* a, const std::int64_t* a_shape, std::size_t a_rank,
                          const T* b, const std::int64_t* b_shape, std::size_t b_rank, T* y);

/// How a kernel takes its operands: n elements (ElementwiseFn), or tensors with shapes (TensorFn).
enum class KernelForm : unsigned char { Elementwise, Tensor };
const char* to_string(KernelForm f) noexcept;  ///< "elementwise" | "tensor"

/// The type-erased kernel: y[i] = a[i] op b[i] for i < n, over raw buffers of
/// the storage type of `type`.
struct Kernel {
  /// Its name in reports.
  std::string name;
  /// The operator it computes.
  OpId op = OpId::Div;
  /// Its element type.
  ElementType type = ElementType::FP32;
  /// Its C form.
  KernelForm form = KernelForm::Elementwise;
  /// Calls the kernel on raw buffers of n elements.
  std::function<void(const void* a, const void* b, void* y, std::size_t n)> run;
  ///@{
  /// Set by harnessed(): what the calls did to the FP state, and the child
  /// processes the calls run in (null: in-process).
  std::shared_ptr<FpStateLog> fp_log;
  std::shared_ptr<Sandbox> sandbox;
  ///@}
  // Where the kernel comes from (load_kernel fills them).
  std::string library;  ///< absolute path
  /// Its symbol.
  std::string symbol;
};

/// The kernel with its calls under the harness: every call starts in the
/// documented FP state (sandbox.hpp) and what the kernel leaves changed is
/// logged in fp_log; with `isolation`, calls run in child processes (a crash,
/// hang or exit() becomes a KernelFault), else in-process with the caller's
/// FP state restored after each call. Idempotent.
Kernel harnessed(Kernel k, std::optional<SandboxOptions> isolation);

/// The kernel's identity (no run yet), after checking that T stores `type`;
/// `maker` names the caller in the error.
template <class T>
Kernel typed_kernel(const char* maker, std::string name, OpId op, ElementType type, KernelForm form) {
  if (!is_storage_of<T>(type))
    throw std::invalid_argument(std::string(maker) + "(" + name + "): C element type does not store " +
                                to_string(type));
  Kernel k;
  k.name = std::move(name);
  k.op = op;
  k.type = type;
  k.form = form;
  return k;
}

/// A Kernel of the elementwise C function f on `type`.
/// @throws std::invalid_argument when T is not the storage type of `type`.
template <class T>
Kernel make_kernel(std::string name, OpId op, ElementType type, ElementwiseFn<T> f) {
  Kernel k = typed_kernel<T>("make_kernel", std::move(name), op, type, KernelForm::Elementwise);
  k.run = [f](const void* a, const void* b, void* y, std::size_t n) {
    f(static_cast<const T*>(a), static_cast<const T*>(b), static_cast<T*>(y), n);
  };
  return k;
}

/// The tensor form is called with a batch of n elements laid out as a tensor
/// of shape {n / cols, cols} when cols divides n and cols > 0, else {n}.
template <class T>
Kernel make_tensor_kernel(std::string name, OpId op, ElementType type, TensorFn<T> f,
                          std::int64_t cols = 0) {
  Kernel k = typed_kernel<T>("make_tensor_kernel", std::move(name), op, type, KernelForm::Tensor);
  k.run = [f, cols](const void* a, const void* b, void* y, std::size_t n) {
    const auto nn = static_cast<std::int64_t>(n);
    std::int64_t shape[2] = {nn, 1};
    std::size_t rank = 1;
    if (cols > 0 && nn % cols == 0) {
      shape[0] = nn / cols;
      shape[1] = cols;
      rank = 2;
    }
    f(static_cast<const T*>(a), shape, rank, static_cast<const T*>(b), shape, rank,
      static_cast<T*>(y));
  };
  return k;
}

/// What a symbol in a shared library is: "Div FP16", "Sub INT8 tensor".
struct KernelSignature {
  /// The operator.
  OpId op = OpId::Div;
  /// The element type.
  ElementType type = ElementType::FP32;
  /// The C form.
  KernelForm form = KernelForm::Elementwise;
};
/// Parses "<Operator> <type> [elementwise|tensor]" (case-insensitive, spaces or
/// colons); throws std::invalid_argument naming the bad word.
KernelSignature parse_signature(std::string_view text);

// Error of load_kernel: the message names the file and the symbol.
struct KernelLoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A symbol of a shared library: the library stays loaded while `library`
/// (or a copy) lives.
struct LoadedSymbol {
  /// The symbol's address.
  void* address;
  /// Keeps the library loaded.
  std::shared_ptr<void> library;
};
/// dlopen(path) + dlsym(symbol). Throws KernelLoadError, prefixed with `what`,
/// when the file is missing or cannot be loaded or the symbol is not defined.
/// The library is loaded in a child process first (its own process group):
/// constructors that crash, call exit() or do not finish within
/// `load_seconds` are a KernelLoadError naming what happened, and the harness
/// is untouched.
LoadedSymbol load_symbol(const std::string& path, const std::string& symbol, const std::string& what,
                         double load_seconds = 10);

/// dlopen(path) + dlsym(symbol); the library stays loaded as long as a copy of
/// the returned Kernel lives. Throws KernelLoadError when the file cannot be
/// loaded (missing, not a shared object, unresolved symbols) or the symbol is
/// missing.
Kernel load_kernel(const std::string& path, const std::string& symbol, const KernelSignature& sig,
                   double load_seconds = 10);

}  // namespace symerr::verify
