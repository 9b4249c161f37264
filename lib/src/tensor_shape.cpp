#include <symerr/shape.hpp>
#include <symerr/tensor_errors.hpp>

#include <limits>

namespace symerr {

std::string to_string(const Shape& s) {
  std::string r = "[";
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (k) r += ',';
    r += std::to_string(s[k]);
  }
  return r + "]";
}

void check_rank(std::size_t rank, std::string_view what) {
  if (rank > kMaxRank)
    throw ShapeError(std::string(what) + ": rank " + std::to_string(rank) +
                     " exceeds the maximum rank " + std::to_string(kMaxRank));
}

std::size_t element_count(const Shape& s, std::string_view what) {
  check_rank(s.size(), what);
  std::size_t n = 1;
  bool zero = false;
  bool overflow = false;
  for (std::size_t d : s) {
    if (d == 0) zero = true;
    else if (n > std::numeric_limits<std::size_t>::max() / d) overflow = true;
    else n *= d;
  }
  if (zero) return 0;  // a zero dimension: no elements, whatever the others are
  if (overflow)
    throw ShapeError(std::string(what) + ": the element count of shape " + to_string(s) +
                     " overflows std::size_t");
  return n;
}

std::size_t flat_index(const Shape& s, const Index& i) {
  if (i.size() != s.size())
    throw IndexError("multi-index " + to_string(i) + " has rank " + std::to_string(i.size()) +
                     " but the tensor has shape " + to_string(s));
  std::size_t flat = 0;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (i[k] >= s[k])
      throw IndexError("multi-index " + to_string(i) + " out of range for shape " + to_string(s) +
                       " (axis " + std::to_string(k) + ")");
    flat = flat * s[k] + i[k];
  }
  return flat;
}

Index multi_index(const Shape& s, std::size_t flat) {
  Index i(s.size(), 0);
  for (std::size_t k = s.size(); k-- > 0;) {
    if (s[k] == 0) break;
    i[k] = flat % s[k];
    flat /= s[k];
  }
  return i;
}

Shape row_major_strides(const Shape& s) {
  Shape st(s.size(), 0);
  std::size_t acc = 1;
  for (std::size_t k = s.size(); k-- > 0;) {
    st[k] = acc;
    acc *= s[k] == 0 ? 1 : s[k];
  }
  return st;
}

}  // namespace symerr
