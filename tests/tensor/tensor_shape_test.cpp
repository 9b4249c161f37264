// Tensor<T>, shapes and multi-indexes.
#include <catch2/catch.hpp>

#include <symerr/scalar_types.hpp>
#include <symerr/tensor.hpp>

#include <limits>
#include <vector>

using namespace symerr;

TEST_CASE("Tensor: nested initializer lists give shape and row-major order", "[tensor]") {
  Tensor<int> r1{1, 2, 3};
  CHECK(r1.shape() == Shape{3});
  CHECK(r1.rank() == 1);
  Tensor<int> r2{{1, 2, 3}, {4, 5, 6}};
  CHECK(r2.shape() == Shape{2, 3});
  CHECK(r2(1, 0) == 4);
  CHECK(r2[5] == 6);
  Tensor<double> r3{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}, {{9, 10}, {11, 12}}};
  CHECK(r3.shape() == Shape{3, 2, 2});
  CHECK(r3(2, 1, 0) == 11);
  CHECK(r3[Index{1, 0, 1}] == 6);
  Tensor<float> r4{{{{1.f, 2.f}}, {{3.f, 4.f}}}};
  CHECK(r4.shape() == Shape{1, 2, 1, 2});
  CHECK(r4(0, 1, 0, 0) == 3.f);
}

TEST_CASE("Tensor: shape + values, fill, scalar", "[tensor]") {
  Tensor<int> t({2, 3}, std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(t.size() == 6);
  CHECK(t.at(Index{1, 2}) == 5);
  Tensor<int> f(Shape{2, 2}, 7);
  CHECK(f.size() == 4);
  CHECK(f[3] == 7);
  auto s = Tensor<double>::scalar(2.5);
  CHECK(s.rank() == 0);
  CHECK(s.size() == 1);
  CHECK(s[Index{}] == 2.5);
  CHECK(s() == 2.5);
  Tensor<int> empty;
  CHECK(empty.shape() == Shape{0});
  CHECK(empty.size() == 0);
}

TEST_CASE("Tensor: size mismatch names the shape and both counts", "[tensor][bad-input]") {
  try {
    Tensor<int> t({2, 3}, std::vector<int>{1, 2, 3, 4, 5});
    FAIL("no error");
  } catch (const ShapeError& e) {
    CHECK(std::string(e.what()) == "Tensor: shape [2,3] has 6 elements but 5 values were given");
  }
}

TEST_CASE("Tensor: ragged initializer list is a ShapeError", "[tensor][bad-input]") {
  try {
    Tensor<int> t{{1, 2, 3}, {4, 5}};
    FAIL("no error");
  } catch (const ShapeError& e) {
    CHECK_THAT(e.what(), Catch::Contains("ragged") && Catch::Contains("axis 1 has length 2"));
  }
}

TEST_CASE("Tensor: rank limit and element-count overflow", "[tensor][bad-input]") {
  Shape ok(kMaxRank, 1);
  CHECK_NOTHROW(Tensor<int>(ok, 0));
  Shape too_big(kMaxRank + 1, 1);
  try {
    Tensor<int> t(too_big, 0);
    FAIL("no error");
  } catch (const ShapeError& e) {
    CHECK_THAT(e.what(), Catch::Contains("rank 33 exceeds the maximum rank 32"));
  }
  const std::size_t big = std::numeric_limits<std::size_t>::max() / 2;
  CHECK_THROWS_WITH(element_count(Shape{big, 3}), Catch::Contains("overflows"));
  // a zero dimension makes the count 0 even next to huge ones
  CHECK(element_count(Shape{big, 3, 0}) == 0);
}

TEST_CASE("Tensor: checked access names the index and the shape", "[tensor][bad-input]") {
  Tensor<int> t{{1, 2}, {3, 4}};
  CHECK_THROWS_AS(t.at(4), IndexError);
  CHECK_THROWS_WITH(t.at(Index{0, 2}), "multi-index [0,2] out of range for shape [2,2] (axis 1)");
  CHECK_THROWS_WITH(t.at(Index{0}), Catch::Contains("has rank 1 but the tensor has shape [2,2]"));
  CHECK_THROWS_AS(t(2, 0), IndexError);
}

TEST_CASE("indexes(): row-major multi-indexes, rank 0 and zero-size", "[tensor]") {
  Tensor<int> t({2, 3}, std::vector<int>{0, 1, 2, 3, 4, 5});
  std::vector<Index> seen;
  for (const Index& i : t.indexes()) seen.push_back(i);
  REQUIRE(seen.size() == 6);
  CHECK(seen[0] == Index{0, 0});
  CHECK(seen[2] == Index{0, 2});
  CHECK(seen[3] == Index{1, 0});
  CHECK(seen[5] == Index{1, 2});
  std::size_t k = 0;
  for (const Index& i : t.indexes()) CHECK(t[i] == static_cast<int>(k++));

  auto s = Tensor<int>::scalar(9);
  int count = 0;
  for (const Index& i : s.indexes()) {
    CHECK(i.empty());
    CHECK(s[i] == 9);
    ++count;
  }
  CHECK(count == 1);

  Tensor<int> z(Shape{3, 0, 2}, 0);
  CHECK(z.size() == 0);
  count = 0;
  for (const Index& i : z.indexes()) { (void)i; ++count; }
  CHECK(count == 0);
  CHECK(z.indexes().empty());

  // flat <-> multi round trip on an odd shape
  const Shape sh{3, 1, 4, 2};
  std::size_t flat = 0;
  for (auto it = indexes(sh).begin(); it != indexes(sh).end(); ++it, ++flat) {
    CHECK(it.position() == flat);
    CHECK(flat_index(sh, *it) == flat);
    CHECK(multi_index(sh, flat) == *it);
  }
  CHECK(flat == 24);
}

TEST_CASE("Tensor: to_string of shapes, tensor_cast", "[tensor]") {
  CHECK(to_string(Shape{}) == "[]");
  CHECK(to_string(Shape{2, 0, 3}) == "[2,0,3]");
  Tensor<double> d{{0.1, 1e10}, {-2.5, 65520.0}};
  auto h = tensor_cast<Half>(d);
  CHECK(h.shape() == Shape{2, 2});
  CHECK(h[2].bits() == 0xC100);  // -2.5
  CHECK(std::isinf(static_cast<double>(h[1])));  // 1e10 overflows FP16
  CHECK(std::isinf(static_cast<double>(h[3])));  // 65520 rounds (tie, to even) to inf
  auto i4 = tensor_cast<Int4>(Tensor<int>{7, 8, -9});
  CHECK(i4[0].value() == 7);
  CHECK(i4[1].value() == -8);  // 8 wraps modulo 16
  CHECK(i4[2].value() == 7);
}
