// Type substitution: compile a C kernel file as C++ with its floating type
// replaced (by default by symerr::SymbolicError). Used by the CMake function
// symerr_add_substituted_kernel(), which generates, per C source,
//
//   #include <symerr/substitute.hpp>
//   namespace <ns> {
//   #include "/path/to/kernel.c"
//   }
//
// and compiled with SYMERR_SUBSTITUTE_DOUBLE (and/or SYMERR_SUBSTITUTE_FLOAT)
// defined to the replacement type (with C_TYPES: ::symerr::CDouble and
// ::symerr::CFloat, <symerr/c_types.hpp>, which convert between the two as C
// does). A C++ caller sees the kernel's declarations
// the same way (include this header, the kernel's header inside the same
// namespace, then <symerr/substitute_end.hpp>).
//
// What it handles of "C is not C++":
//   * `double` / `float` become the replacement type (a macro, defined after
//     every C standard header a kernel may include has been included here, so
//     that the library's own declarations keep their types);
//   * malloc/calloc/realloc return a pointer that converts to any T* (C's
//     implicit void* conversion) and construct the elements when T needs it
//     (SymbolicError: the exact value 0, so calloc'd buffers hold zeros);
//     free/memset/memcpy work on such buffers (memset(p, 0, n) writes zeros);
//   * the C math functions of a replaced value are symerr's: sqrt, fabs,
//     fmin, fmax, isnan, ... (<symerr/symbolic/dropin.hpp>), signbit,
//     copysign, fdim, isnormal, fpclassify (sign_functions.hpp), rounding,
//     fmod, remainder, fma, frexp, modf, and the elementary functions exp, expm1, log, log1p, tanh,
//     erf, erfc, pow, sin, ... (<symerr/elementary.hpp>, under the thread's
//     accuracy model), and their C99 float / long double names
//     (sqrtf, expf, fmaxf, powf, ..., <symerr/symbolic/c_names.hpp>) for a
//     kernel written for float, all found by argument-dependent lookup;
//   * `restrict` is GCC's __restrict; the kernel's functions get C++ linkage
//     in the namespace (no `extern "C"` needed, no clash with the same kernel
//     compiled as C).
// Not handled: printf/fprintf/sprintf/snprintf of a replaced value (a
// compile error naming the call, <symerr/symbolic/printf_guard.hpp>; other
// variadic functions receive the object's raw bytes); the address of a
// compound literal of the replaced type (g++: "taking address of temporary
// array"); memory from another allocator, or a pointer into a block, passed
// to free(), and memset() of a non-zero byte on a buffer of symbolic values
// (std::invalid_argument naming the call). VLAs of the replaced type work
// (g++'s extension constructs their elements). A
// block the kernel returns is the C library's own: its caller may release it
// with the plain free() (or with the substituted free, which also destroys
// elements that need it).
//
// Regions: the declarations below are read once per translation unit, the
// macros at the end at every inclusion, so a C++ caller may open several
// regions, each ended by <symerr/substitute_end.hpp>, e.g. one kernel header
// on SymbolicError and again on SymbolicDomainError<Affine> (redefine
// SYMERR_SUBSTITUTE_FLOAT/DOUBLE between them, and let the kernel header be
// read twice: its include guard, if any, undefined in between). The header is
// not `#pragma once`: with it, a second region would silently keep `float` as
// float.
#ifndef SYMERR_SUBSTITUTE_HPP_DECLARATIONS
#define SYMERR_SUBSTITUTE_HPP_DECLARATIONS

#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>

#include <symerr/domains/symbolic_interval.hpp>
// every domain, so that `WITH ::symerr::SymbolicDomainError<::symerr::Affine>`
// (or RationalInterval, MpfrInterval) needs no include of its own
#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/elementary.hpp>  // exp, log, tanh, ... of a replaced value, found by ADL (as sqrt)
#include <symerr/c_types.hpp>     // CFloat, CDouble: C_TYPES substitution
#include <symerr/lean.hpp>        // LeanDouble, LeanFloat: `WITH ::symerr::LeanDouble`

namespace symerr::substitute {

/// The substituted allocations: a block is the C library's own (malloc,
/// calloc), so that the caller of a kernel may release a block the kernel
/// returned with the plain free(); what the substitution needs of it (its byte
/// count, and how to destroy the elements it was converted to) is kept in a
/// process-wide table by address, not in a header in front of the block
/// (with such a header, a caller's plain free() of a kernel's result aborts in
/// glibc: "free(): invalid pointer"). A block released by
/// the plain free() leaves its entry until its address is handed out again
/// (the elements it held are then not destroyed: a SymbolicError needs no
/// destruction; an mpq_class or MPFR element leaks its limbs).
struct Block {
  /// The block's size in bytes.
  std::size_t bytes;
  ///@{
  /// set at the first conversion to an element type that needs construction:
  /// how to destroy the elements, and how to construct those of bytes [from, to)
  void (*destroy)(void*, std::size_t);
  void (*construct)(void*, std::size_t, std::size_t);
  ///@}
};
/// The table of live substituted blocks, by address.
struct BlockTable {
  /// Guards `blocks`.
  std::mutex mutex;
  /// Every live block.
  std::unordered_map<const void*, Block> blocks;
};
/// The process-wide block table.
inline BlockTable& block_table() {
  static BlockTable t;
  return t;
}
/// The message of a free(), realloc() or block_of() of a pointer that is not a substituted block.
inline const char* const kNotABlock =
    "free(): the pointer was not returned by the substituted malloc/calloc/realloc (memory from another "
    "allocator, a pointer into a block, or a block freed twice)";

/// Destroys the T elements of a block (its Block::destroy for T).
template <class T>
void destroy_elements(void* p, std::size_t bytes) {
  T* t = static_cast<T*>(p);
  for (std::size_t i = 0; i < bytes / sizeof(T); ++i) t[i].~T();
}
/// Constructs the T elements lying wholly in bytes [from, to) (its Block::construct for T).
template <class T>
void construct_elements(void* p, std::size_t from, std::size_t to) {
  T* t = static_cast<T*>(p);
  for (std::size_t i = (from + sizeof(T) - 1) / sizeof(T); i < to / sizeof(T); ++i) new (t + i) T();
}

/// The result of malloc/calloc/realloc: converts to any T*, constructing the
/// elements on first conversion when T is not trivially default-constructible.
class Allocation {
 public:
  /// Wraps the block p (null: an allocation failure).
  explicit Allocation(void* p) noexcept : p_(p) {}
  /// The block as T*, its elements constructed on the first conversion when T is
  /// not trivially default-constructible (null stays null).
  template <class T>
  operator T*() const {  // NOLINT: C's implicit void* conversion
    if (!p_) return nullptr;
    if constexpr (!std::is_void_v<T> && !std::is_trivially_default_constructible_v<T>) {
      BlockTable& t = block_table();
      const std::lock_guard<std::mutex> lock(t.mutex);
      const auto it = t.blocks.find(p_);
      if (it != t.blocks.end() && !it->second.destroy) {
        construct_elements<T>(p_, 0, it->second.bytes);
        if constexpr (!std::is_trivially_destructible_v<T>) it->second.destroy = &destroy_elements<T>;
        else it->second.destroy = [](void*, std::size_t) {};
        it->second.construct = &construct_elements<T>;
      }
    }
    return static_cast<T*>(p_);
  }

 private:
  void* p_;
};

/// malloc (zero: calloc) of `bytes` bytes as a substituted block (one byte at least);
/// the result of a failed allocation converts to null.
inline Allocation allocate(std::size_t bytes, bool zero) {
  // (one byte at least: every block has its own address)
  void* p = zero ? std::calloc(1, bytes ? bytes : 1) : std::malloc(bytes ? bytes : 1);
  if (!p) return Allocation(nullptr);
  BlockTable& t = block_table();
  const std::lock_guard<std::mutex> lock(t.mutex);
  t.blocks[p] = Block{bytes, nullptr, nullptr};  // (an entry left by a plain free() of this address is replaced)
  return Allocation(p);
}

/// A substituted block's entry (throws for any other pointer).
inline Block block_of(const void* p) {
  BlockTable& t = block_table();
  const std::lock_guard<std::mutex> lock(t.mutex);
  const auto it = t.blocks.find(p);
  if (it == t.blocks.end()) throw std::invalid_argument(kNotABlock);
  return it->second;
}

/// free: destroys the block's elements and releases it (null: nothing).
/// @throws std::invalid_argument when p is not a substituted block.
inline void release(void* p) {
  if (!p) return;
  Block b;
  {
    BlockTable& t = block_table();
    const std::lock_guard<std::mutex> lock(t.mutex);
    const auto it = t.blocks.find(p);
    if (it == t.blocks.end()) throw std::invalid_argument(kNotABlock);  // refuse to guess
    b = it->second;
    t.blocks.erase(it);
  }
  if (b.destroy) b.destroy(p, b.bytes);
  std::free(p);
}

/// realloc: a new block, the old elements copied over (as bytes for trivially
/// copyable types, by assignment otherwise), the old block released. Elements
/// beyond the old size are constructed as in a new block; the copied ones are
/// kept (constructing every element of the new block at its first conversion
/// would zero a SymbolicError buffer).
template <class T>
Allocation reallocate(T* p, std::size_t bytes) {
  if (!p) return allocate(bytes, false);
  const Block old_block = block_of(p);
  const std::size_t old = old_block.bytes;
  Allocation a = allocate(bytes, false);
  if (!static_cast<void*>(a)) return a;  // as C's realloc: the old block stays
  if constexpr (std::is_void_v<T> || std::is_trivially_copyable_v<T>) {
    void* q = a;
    std::memcpy(q, p, old < bytes ? old : bytes);
    if (old_block.construct) {  // the copies are elements already: the new block's are constructed
      old_block.construct(q, old < bytes ? old : bytes, bytes);
      BlockTable& t = block_table();
      const std::lock_guard<std::mutex> lock(t.mutex);
      Block& b = t.blocks[q];
      b.destroy = old_block.destroy;
      b.construct = old_block.construct;
    }
  } else {
    T* q = a;
    for (std::size_t i = 0; q && i < (old < bytes ? old : bytes) / sizeof(T); ++i) q[i] = p[i];
  }
  release(p);
  return a;
}

/// memset of a substituted buffer: bytes for trivially default-constructible T,
/// else only v = 0 (every element the exact value 0).
/// @throws std::invalid_argument for a non-zero v on symbolic elements.
template <class T>
void* set(T* p, int v, std::size_t bytes) {
  if constexpr (std::is_void_v<T> || std::is_trivially_default_constructible_v<T>) {
    return std::memset(p, v, bytes);
  } else {
    if (v != 0)  // a non-zero byte pattern has no meaning for a symbolic value
      throw std::invalid_argument("memset(p, " + std::to_string(v) + ", " + std::to_string(bytes) +
                                  "): a buffer of symbolic values can be set to 0 only (the exact value 0)");
    for (std::size_t i = 0; i < bytes / sizeof(T); ++i) p[i] = T(0);
    return p;
  }
}

/// memcpy: bytes for trivially copyable T, else element-wise assignment (U must be T).
template <class T, class U>
void* copy(T* d, const U* s, std::size_t bytes) {
  if constexpr (std::is_void_v<T> || std::is_trivially_copyable_v<T>) {
    return std::memcpy(d, s, bytes);
  } else {
    static_assert(std::is_same_v<std::remove_cv_t<U>, T>, "memcpy between different types");
    for (std::size_t i = 0; i < bytes / sizeof(T); ++i) d[i] = s[i];
    return d;
  }
}

}  // namespace symerr::substitute

#endif  // SYMERR_SUBSTITUTE_HPP_DECLARATIONS

// the region (at every inclusion)
#define malloc(n) ::symerr::substitute::allocate((n), false)
#define calloc(n, size) ::symerr::substitute::allocate((n) * (size), true)
#define realloc(p, n) ::symerr::substitute::reallocate((p), (n))
#define free(p) ::symerr::substitute::release(p)
#define memset(p, v, n) ::symerr::substitute::set((p), (v), (n))
#define memcpy(d, s, n) ::symerr::substitute::copy((d), (s), (n))
#define restrict __restrict
#ifdef SYMERR_SUBSTITUTE_DOUBLE
#define double SYMERR_SUBSTITUTE_DOUBLE
#endif
#ifdef SYMERR_SUBSTITUTE_FLOAT
#define float SYMERR_SUBSTITUTE_FLOAT
#endif
