// Tensor<T>: a shape and its elements in row-major order.
//
// Invariants: rank() <= kMaxRank; values().size() == element_count(shape()).
// Rank 0 is a scalar (one element, indexed by the empty multi-index); a zero
// dimension gives a tensor with no elements (indexes() is then empty).
// T is any element type: float, double, Half, BFloat16, the integer types,
// Int4/UInt4, or a class type such as SymbolicDomainError.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <span>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include <symerr/shape.hpp>
#include <symerr/tensor_errors.hpp>

namespace symerr {

/// The multi-indexes of a shape in row-major order (the last axis varies fastest).
/// The iterators own a copy of the shape, so they stay valid on their own.
class IndexRange {
 public:
  /// A forward iterator over the multi-indexes (dereferences to the current Index).
  class iterator {
   public:
    ///@{
    /// Standard iterator types.
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::forward_iterator_tag;
    using value_type = Index;
    using difference_type = std::ptrdiff_t;
    using reference = const Index&;
    using pointer = const Index*;
    ///@}

    iterator() = default;
    /// The iterator at flat `position` of `shape` (only the index at 0 is computed: start at 0).
    iterator(Shape shape, std::size_t position)
        : shape_(std::move(shape)), index_(shape_.size(), 0), position_(position) {}
    ///@{
    /// The current multi-index.
    reference operator*() const noexcept { return index_; }
    pointer operator->() const noexcept { return &index_; }
    ///@}
    /// Advances to the next multi-index in row-major order.
    iterator& operator++() noexcept {
      ++position_;
      for (std::size_t ax = shape_.size(); ax-- > 0;) {
        if (++index_[ax] < shape_[ax]) return *this;
        index_[ax] = 0;
      }
      return *this;
    }
    /// Postfix increment.
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    /// The flat (row-major) position of the current multi-index.
    std::size_t position() const noexcept { return position_; }
    /// Iterators are equal at the same flat position.
    friend bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.position_ == b.position_;
    }

   private:
    Shape shape_;
    Index index_;
    std::size_t position_ = 0;
  };

  /// The multi-indexes of `shape`; throws ShapeError when it is invalid (rank above kMaxRank, element count overflowing).
  explicit IndexRange(Shape shape)
      : shape_(std::move(shape)), count_(element_count(shape_, "IndexRange")) {}
  ///@{
  /// The first and past-the-end iterators.
  iterator begin() const { return iterator(shape_, 0); }
  iterator end() const { return iterator(Shape{}, count_); }
  /// The number of multi-indexes.
  ///@}
  std::size_t size() const noexcept { return count_; }
  /// Whether the shape has no element.
  bool empty() const noexcept { return count_ == 0; }

 private:
  Shape shape_;
  std::size_t count_;
};

/// The multi-indexes of `s` in row-major order.
inline IndexRange indexes(const Shape& s) { return IndexRange(s); }

/// A shape and its elements in row-major order.
///
/// Invariants: rank() <= kMaxRank; values().size() == element_count(shape()).
/// Rank 0 is a scalar (one element, indexed by the empty multi-index); a zero
/// dimension gives a tensor with no elements (indexes() is then empty).
/// @tparam T any element type: float, double, Half, BFloat16, the integer types,
/// Int4/UInt4, or a class type such as SymbolicDomainError.
template <class T>
class Tensor {
 public:
  /// The element type.
  using value_type = T;

  // An empty tensor of shape [0].
  Tensor() : shape_{0} {}

  /// Every element equal to `fill`. (There is deliberately no one-argument shape
  /// constructor: Tensor<int>({2, 3}) is the rank-1 tensor [2, 3].)
  Tensor(Shape shape, const T& fill)
      : shape_(std::move(shape)), data_(element_count(shape_, "Tensor"), fill) {}

  /// Row-major values; their number must equal the shape's element count.
  Tensor(Shape shape, std::vector<T> values) : shape_(std::move(shape)), data_(std::move(values)) {
    const std::size_t n = element_count(shape_, "Tensor");
    if (n != data_.size())
      throw ShapeError("Tensor: shape " + to_string(shape_) + " has " + std::to_string(n) +
                       " elements but " + std::to_string(data_.size()) + " values were given");
  }

  ///@{
  /// Nested initializer lists, rank 1 to 4; ragged lists are a ShapeError.
  Tensor(std::initializer_list<T> v) : shape_{v.size()}, data_(v) {}
  Tensor(std::initializer_list<std::initializer_list<T>> v) { from_nested(v); }
  Tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> v) {
    from_nested(v);
  }
  Tensor(std::initializer_list<std::initializer_list<std::initializer_list<std::initializer_list<T>>>> v) {
    from_nested(v);
  }
  ///@}

  /// A rank-0 tensor holding `v`.
  static Tensor scalar(const T& v) { return Tensor(Shape{}, std::vector<T>{v}); }
  /// A tensor of `shape` with every element `v` (same as Tensor(shape, v)).
  static Tensor filled(Shape shape, const T& v) { return Tensor(std::move(shape), v); }

  /// The shape.
  const Shape& shape() const noexcept { return shape_; }
  /// The number of axes.
  std::size_t rank() const noexcept { return shape_.size(); }
  /// The number of elements.
  std::size_t size() const noexcept { return data_.size(); }
  /// Whether the tensor has no element.
  bool empty() const noexcept { return data_.empty(); }

  ///@{
  /// Flat (row-major) access; operator[] is unchecked, at() throws IndexError.
  T& operator[](std::size_t flat) noexcept { return data_[flat]; }
  const T& operator[](std::size_t flat) const noexcept { return data_[flat]; }
  T& at(std::size_t flat) { return data_[checked_flat(flat)]; }
  const T& at(std::size_t flat) const { return data_[checked_flat(flat)]; }
  ///@}

  ///@{
  /// Multi-index access (always checked: IndexError on a wrong rank or coordinate).
  T& operator[](const Index& i) { return data_[flat_index(shape_, i)]; }
  const T& operator[](const Index& i) const { return data_[flat_index(shape_, i)]; }
  T& at(const Index& i) { return data_[flat_index(shape_, i)]; }
  const T& at(const Index& i) const { return data_[flat_index(shape_, i)]; }
  template <class... I>
    requires(std::is_integral_v<I> && ...)
  T& operator()(I... i) {
    return at(Index{static_cast<std::size_t>(i)...});
  }
  template <class... I>
    requires(std::is_integral_v<I> && ...)
  const T& operator()(I... i) const {
    return at(Index{static_cast<std::size_t>(i)...});
  }
  ///@}

  /// The multi-indexes of the shape in row-major order.
  IndexRange indexes() const { return IndexRange(shape_); }

  ///@{
  /// The elements in row-major order.
  std::span<T> values() noexcept { return data_; }
  std::span<const T> values() const noexcept { return data_; }
  auto begin() noexcept { return data_.begin(); }
  auto end() noexcept { return data_.end(); }
  auto begin() const noexcept { return data_.begin(); }
  auto end() const noexcept { return data_.end(); }
  ///@}

  /// Same shape and element-wise operator== (so a float NaN makes tensors unequal).
  friend bool operator==(const Tensor& a, const Tensor& b)
    requires requires(const T& x) { x == x; }
  {
    return a.shape_ == b.shape_ && a.data_ == b.data_;
  }

 private:
  std::size_t checked_flat(std::size_t flat) const {
    if (flat >= data_.size())
      throw IndexError("Tensor: flat index " + std::to_string(flat) + " out of range for shape " +
                       to_string(shape_) + " (" + std::to_string(data_.size()) + " elements)");
    return flat;
  }

  template <class L>
  static constexpr std::size_t nesting_depth() {
    if constexpr (std::is_same_v<L, std::initializer_list<T>>) return 1;
    else return 1 + nesting_depth<typename L::value_type>();
  }

  // The shape is read along the first element of every level; flatten() then
  // checks every list against it.
  template <class L>
  static void nested_shape(const L& list, Shape& shape) {
    shape.push_back(list.size());
    if constexpr (!std::is_same_v<L, std::initializer_list<T>>) {
      using Inner = typename L::value_type;
      if (list.size() != 0) nested_shape(*list.begin(), shape);
      else shape.insert(shape.end(), nesting_depth<Inner>(), 0);  // {} : inner dims unknown, 0
    }
  }

  template <class L>
  void flatten(const L& list, std::size_t depth) {
    if (list.size() != shape_[depth])
      throw ShapeError("Tensor: ragged initializer list: axis " + std::to_string(depth) +
                       " has length " + std::to_string(list.size()) + " where " +
                       std::to_string(shape_[depth]) + " was expected (shape " +
                       to_string(shape_) + ")");
    if constexpr (std::is_same_v<L, std::initializer_list<T>>) {
      data_.insert(data_.end(), list.begin(), list.end());
    } else {
      for (const auto& inner : list) flatten(inner, depth + 1);
    }
  }

  template <class L>
  void from_nested(const L& list) {
    nested_shape(list, shape_);
    data_.reserve(element_count(shape_, "Tensor"));
    flatten(list, 0);
  }

  Shape shape_;
  std::vector<T> data_;
};

/// Element-wise conversion: static_cast<To>(x) for every element.
template <class To, class From>
Tensor<To> tensor_cast(const Tensor<From>& t) {
  std::vector<To> v;
  v.reserve(t.size());
  for (const From& x : t) v.push_back(static_cast<To>(x));
  return Tensor<To>(t.shape(), std::move(v));
}

}  // namespace symerr
