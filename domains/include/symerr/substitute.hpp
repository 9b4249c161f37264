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
// Not handled: printf of a replaced value, VLAs and compound literals of the
// replaced type (compile errors); memory from another allocator, or a
// pointer into a block, passed to free(), and memset() of a non-zero byte on
// a buffer of symbolic values (std::invalid_argument naming the call).
//
// Regions: the declarations below are read once per translation unit, the
// macros at the end at every inclusion, so a C++ caller may open several
// regions, each ended by <symerr/substitute_end.hpp>, e.g. one kernel header
// on SymbolicError and again on SymbolicDomainError<Affine> (redefine
// SYMERR_SUBSTITUTE_FLOAT/DOUBLE between them, and let the kernel header be
// read twice: its include guard, if any, undefined in between). Before
// session 21 the header was `#pragma once` and a second region silently kept
// `float` as float.
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
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <symerr/domains/symbolic_interval.hpp>
// every domain, so that `WITH ::symerr::SymbolicDomainError<::symerr::Affine>`
// (or RationalInterval, MpfrInterval) needs no include of its own
#include <symerr/domains/affine.hpp>
#include <symerr/domains/mpfr_interval.hpp>
#include <symerr/domains/rational_interval.hpp>
#include <symerr/elementary.hpp>  // exp, log, tanh, ... of a replaced value, found by ADL (as sqrt)
#include <symerr/c_types.hpp>     // CFloat, CDouble: C_TYPES substitution

namespace symerr::substitute {

// The block header in front of every substituted allocation: the byte count
// and how to destroy the elements it was converted to.
struct alignas(std::max_align_t) Header {
  std::size_t bytes;
  std::size_t magic;
  void (*destroy)(void*, std::size_t);
};
inline constexpr std::size_t kMagic = 0x5e5e5b57u;

inline Header* header_of(const void* p) {
  return reinterpret_cast<Header*>(const_cast<char*>(static_cast<const char*>(p)) - sizeof(Header));
}

template <class T>
void destroy_elements(void* p, std::size_t bytes) {
  T* t = static_cast<T*>(p);
  for (std::size_t i = 0; i < bytes / sizeof(T); ++i) t[i].~T();
}

// The result of malloc/calloc/realloc: converts to any T*, constructing the
// elements on first conversion when T is not trivially default-constructible.
class Allocation {
 public:
  explicit Allocation(void* p) noexcept : p_(p) {}
  template <class T>
  operator T*() const {  // NOLINT: C's implicit void* conversion
    if (!p_) return nullptr;
    if constexpr (!std::is_void_v<T> && !std::is_trivially_default_constructible_v<T>) {
      Header* h = header_of(p_);
      if (!h->destroy) {
        T* t = static_cast<T*>(p_);
        for (std::size_t i = 0; i < h->bytes / sizeof(T); ++i) new (t + i) T();
        if constexpr (!std::is_trivially_destructible_v<T>) h->destroy = &destroy_elements<T>;
        else h->destroy = [](void*, std::size_t) {};
      }
    }
    return static_cast<T*>(p_);
  }

 private:
  void* p_;
};

inline Allocation allocate(std::size_t bytes, bool zero) {
  void* raw = zero ? std::calloc(1, sizeof(Header) + bytes) : std::malloc(sizeof(Header) + bytes);
  if (!raw) return Allocation(nullptr);
  Header* h = static_cast<Header*>(raw);
  h->bytes = bytes;
  h->magic = kMagic;
  h->destroy = nullptr;
  return Allocation(h + 1);
}

inline void release(void* p) {
  if (!p) return;
  Header* h = header_of(p);
  if (h->magic != kMagic)  // not from the substituted malloc: refuse to guess
    throw std::invalid_argument(
        "free(): the pointer was not returned by the substituted malloc/calloc/realloc (memory from another "
        "allocator, a pointer into a block, or a block freed twice)");
  if (h->destroy) h->destroy(p, h->bytes);
  h->magic = 0;
  std::free(h);
}

// realloc: a new block, the old elements copied over (as bytes for trivially
// copyable types, by assignment otherwise), the old block released.
template <class T>
Allocation reallocate(T* p, std::size_t bytes) {
  Allocation a = allocate(bytes, false);
  if (!p) return a;
  const std::size_t old = header_of(p)->bytes;
  if constexpr (std::is_void_v<T> || std::is_trivially_copyable_v<T>) {
    void* q = a;
    if (q) std::memcpy(q, p, old < bytes ? old : bytes);
  } else {
    T* q = a;
    for (std::size_t i = 0; q && i < (old < bytes ? old : bytes) / sizeof(T); ++i) q[i] = p[i];
  }
  release(p);
  return a;
}

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
