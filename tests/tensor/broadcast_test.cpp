// broadcast_plan / broadcast_shape: the shape rules, tested as pure functions.
#include <catch2/catch.hpp>

#include <symerr/broadcast.hpp>
#include <symerr/tensor_errors.hpp>

using namespace symerr;

namespace {
const OpConstraints kDiv{"Div", "[R1]/[C1]", "[R2]/[C2]"};
}

TEST_CASE("SONNX rule: identical shapes only, error names [R1]/[C1] and both shapes",
          "[broadcast]") {
  CHECK(broadcast_shape({2, 3}, {2, 3}, Sonnx{}, kDiv) == Shape{2, 3});
  CHECK(broadcast_shape({}, {}, Sonnx{}, kDiv) == Shape{});
  CHECK(broadcast_shape({0, 3}, {0, 3}, Sonnx{}, kDiv) == Shape{0, 3});
  try {
    broadcast_shape({2, 3}, {3}, Sonnx{}, kDiv);
    FAIL("no error");
  } catch (const ShapeError& e) {
    CHECK(std::string(e.what()) ==
          "Div [R1]/[C1] shape consistency violated: A has shape [2,3], B has shape [3]");
  }
  CHECK_THROWS_AS(broadcast_shape({2, 3}, {3, 2}, Sonnx{}, kDiv), ShapeError);
  CHECK_THROWS_AS(broadcast_shape({1}, {}, Sonnx{}, kDiv), ShapeError);
}

TEST_CASE("ONNX multidirectional (numpy) broadcasting", "[broadcast]") {
  const BroadcastRule r = OnnxMultidirectional{};
  // examples of ONNX Broadcasting.md / numpy
  CHECK(broadcast_shape({2, 3, 4, 5}, {}, r) == Shape{2, 3, 4, 5});
  CHECK(broadcast_shape({2, 3, 4, 5}, {5}, r) == Shape{2, 3, 4, 5});
  CHECK(broadcast_shape({4, 5}, {2, 3, 4, 5}, r) == Shape{2, 3, 4, 5});
  CHECK(broadcast_shape({1, 4, 5}, {2, 3, 1, 1}, r) == Shape{2, 3, 4, 5});
  CHECK(broadcast_shape({3, 4, 5}, {2, 1, 1, 1}, r) == Shape{2, 3, 4, 5});
  CHECK(broadcast_shape({8, 1, 6, 1}, {7, 1, 5}, r) == Shape{8, 7, 6, 5});
  CHECK(broadcast_shape({}, {}, r) == Shape{});
  // zero-size dimensions: 0 against 1 gives 0, 0 against 0 gives 0
  CHECK(broadcast_shape({0, 3}, {1, 3}, r) == Shape{0, 3});
  CHECK(broadcast_shape({0}, {1}, r) == Shape{0});
  CHECK(broadcast_shape({2, 0}, {0}, r) == Shape{2, 0});
  CHECK_THROWS_WITH(broadcast_shape({0, 3}, {2, 3}, r, kDiv),
                    Catch::Contains("output axis 0 has dimension 0 in A and 2 in B"));
  try {
    broadcast_shape({2, 3}, {4}, r, kDiv);
    FAIL("no error");
  } catch (const ShapeError& e) {
    CHECK(std::string(e.what()) ==
          "Div (ONNX multidirectional broadcasting): shapes are not broadcastable: A has shape "
          "[2,3], B has shape [4]; output axis 1 has dimension 3 in A and 4 in B");
  }
}

TEST_CASE("broadcast plan: stride 0 on stretched and missing axes", "[broadcast]") {
  const BroadcastPlan p = broadcast_plan({8, 1, 6, 1}, {7, 1, 5}, OnnxMultidirectional{});
  CHECK(p.out == Shape{8, 7, 6, 5});
  CHECK(p.stride_a == Shape{6, 0, 1, 0});
  CHECK(p.stride_b == Shape{0, 5, 0, 1});
}

TEST_CASE("ONNX opset 1/6 legacy broadcasting: the supported pairs of the ONNX page",
          "[broadcast]") {
  const Shape A{2, 3, 4, 5};
  const auto bc = [](std::optional<std::int64_t> axis = std::nullopt) {
    return BroadcastRule{OnnxLegacy{true, axis}};
  };
  // shape(B) = (,), i.e. B is a scalar tensor
  CHECK(broadcast_shape(A, {}, bc(), kDiv) == A);
  // shape(B) = (1, 1), i.e. B is an 1-element tensor
  CHECK(broadcast_shape(A, {1, 1}, bc(), kDiv) == A);
  // shape(B) = (5,)
  CHECK(broadcast_shape(A, {5}, bc(), kDiv) == A);
  // shape(B) = (4, 5)
  CHECK(broadcast_shape(A, {4, 5}, bc(), kDiv) == A);
  // shape(B) = (3, 4), with axis=1
  CHECK(broadcast_shape(A, {3, 4}, bc(1), kDiv) == A);
  // shape(B) = (2), with axis=0
  CHECK(broadcast_shape(A, {2}, bc(0), kDiv) == A);

  const BroadcastPlan p = broadcast_plan(A, {3, 4}, bc(1), kDiv);
  CHECK(p.stride_b == Shape{0, 4, 1, 0});
  CHECK(p.stride_a == Shape{60, 20, 5, 1});
  CHECK(broadcast_plan(A, {1, 1}, bc(), kDiv).stride_b == Shape{0, 0, 0, 0});
  CHECK(broadcast_shape(A, A, bc(), kDiv) == A);  // identical shapes: suffix of length 4
}

TEST_CASE("ONNX opset 1/6 legacy broadcasting: rejected shapes", "[broadcast][bad-input]") {
  const Shape A{2, 3, 4, 5};
  // "1-dim expansion doesn't work yet"
  CHECK_THROWS_WITH(broadcast_shape(A, {1, 5}, OnnxLegacy{true, {}}, kDiv),
                    Catch::Contains("1-dim expansion is not supported"));
  CHECK_THROWS_WITH(broadcast_shape(A, {3, 4}, OnnxLegacy{true, {}}, kDiv),
                    Catch::Contains("suffix matching"));
  CHECK_THROWS_WITH(broadcast_shape(A, {3, 4}, OnnxLegacy{true, 2}, kDiv),
                    Catch::Contains("starting at axis 2"));
  CHECK_THROWS_WITH(broadcast_shape(A, {3, 4}, OnnxLegacy{true, 3}, kDiv),
                    Catch::Contains("axis 3 out of range") && Catch::Contains("[0, 2]"));
  CHECK_THROWS_WITH(broadcast_shape(A, {5}, OnnxLegacy{true, -1}, kDiv),
                    Catch::Contains("negative axis -1"));
  CHECK_THROWS_WITH(broadcast_shape({4, 5}, {2, 4, 5}, OnnxLegacy{true, {}}, kDiv),
                    Catch::Contains("B has rank 3 greater than the rank 2 of A"));
  // B larger than A is never allowed (unidirectional)
  CHECK_THROWS_AS(broadcast_shape({5}, A, OnnxLegacy{true, {}}, kDiv), ShapeError);
  // 1-element B of a higher rank than A
  CHECK_THROWS_AS(broadcast_shape({5}, {1, 1}, OnnxLegacy{true, {}}, kDiv), ShapeError);
  // broadcast = 0: shapes must be equal
  CHECK(broadcast_shape(A, A, OnnxLegacy{}, kDiv) == A);
  try {
    broadcast_shape(A, {5}, OnnxLegacy{}, kDiv);
    FAIL("no error");
  } catch (const ShapeError& e) {
    CHECK(std::string(e.what()) ==
          "Div (ONNX opset 1/6 broadcast=0 axis unset): broadcasting is disabled, B must have the "
          "shape of A: A has shape [2,3,4,5], B has shape [5]");
  }
}

TEST_CASE("OpenVINO auto_broadcast none / numpy", "[broadcast]") {
  CHECK(broadcast_shape({256, 56}, {256, 56}, OpenVino{AutoBroadcast::None}) == Shape{256, 56});
  CHECK(broadcast_shape({8, 1, 6, 1}, {7, 1, 5}, OpenVino{AutoBroadcast::Numpy}) ==
        Shape{8, 7, 6, 5});
  try {
    broadcast_shape({8, 1, 6, 1}, {7, 1, 5}, OpenVino{AutoBroadcast::None}, {"Divide", "", ""});
    FAIL("no error");
  } catch (const ShapeError& e) {
    CHECK(std::string(e.what()) ==
          "Divide (OpenVINO auto_broadcast=none): shapes must be identical: A has shape "
          "[8,1,6,1], B has shape [7,1,5]");
  }
}

TEST_CASE("element type check names the constraint of the rule", "[broadcast][bad-input]") {
  CHECK_NOTHROW(check_same_element_type("FP32", "FP32", Sonnx{}, kDiv));
  CHECK_THROWS_WITH(check_same_element_type("FP32", "FP16", Sonnx{}, kDiv),
                    "Div [R2]/[C2] type consistency violated: A has type FP32, B has type FP16");
  CHECK_THROWS_WITH(check_same_element_type("INT8", "UINT8", OnnxMultidirectional{}, kDiv),
                    Catch::Contains("type constraint T violated") &&
                        Catch::Contains("A has type INT8, B has type UINT8"));
  CHECK_THROWS_AS(check_same_element_type("INT8", "UINT8", OnnxMultidirectional{}, kDiv),
                  TypeError);
}

TEST_CASE("rank overflow of an input is a ShapeError naming the rank", "[broadcast][bad-input]") {
  Shape big(kMaxRank + 1, 1);
  CHECK_THROWS_WITH(broadcast_shape(big, {1}, OnnxMultidirectional{}, kDiv),
                    "Div input A: rank 33 exceeds the maximum rank 32");
}
