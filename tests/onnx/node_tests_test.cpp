// The ONNX backend node tests of Debian's libonnx-testdata for Div, Sub, Add,
// Mul: load model + data sets with the real protobuf loader, evaluate with
// symerr's operators under the model's opset semantics, compare bit-exactly.
// A missing directory is a failure, not a skip.
#include <catch2/catch.hpp>

#include <symerr/onnx/node_test.hpp>
#include <symerr/onnx/tensor_proto.hpp>

#include <filesystem>

using namespace symerr;
namespace fs = std::filesystem;

namespace {

const fs::path kNodeDir = "/usr/share/libonnx-testdata/data/node";

void run_backend_test(const std::string& name, const std::string& op, std::size_t elements) {
  const fs::path dir = kNodeDir / name;
  INFO("ONNX backend test " << dir.string());
  REQUIRE(fs::is_directory(dir));  // libonnx-testdata must provide it
  const onnx::NodeTest t = onnx::load_node_test(dir);
  CHECK(t.model.op_type == op);
  CHECK(t.model.opset >= 7);  // multidirectional broadcasting
  REQUIRE(t.data_sets.size() >= 1);
  REQUIRE(t.data_sets[0].outputs.size() == 1);
  CHECK(element_count(shape_of(t.data_sets[0].outputs[0])) == elements);
  const onnx::NodeTestOutcome r = onnx::run_node_test(t);
  for (const std::string& m : r.mismatches) FAIL_CHECK(name << ": " << m);
  CHECK(r.passed());
  CHECK(r.outputs_compared == t.data_sets.size());
}

}  // namespace

TEST_CASE("onnx test_div", "[onnx]") { run_backend_test("test_div", "Div", 60); }
TEST_CASE("onnx test_div_bcast", "[onnx]") { run_backend_test("test_div_bcast", "Div", 60); }
TEST_CASE("onnx test_div_example", "[onnx]") { run_backend_test("test_div_example", "Div", 2); }
TEST_CASE("onnx test_div_uint8", "[onnx]") { run_backend_test("test_div_uint8", "Div", 60); }
TEST_CASE("onnx test_sub", "[onnx]") { run_backend_test("test_sub", "Sub", 60); }
TEST_CASE("onnx test_sub_bcast", "[onnx]") { run_backend_test("test_sub_bcast", "Sub", 60); }
TEST_CASE("onnx test_sub_example", "[onnx]") { run_backend_test("test_sub_example", "Sub", 3); }
TEST_CASE("onnx test_sub_uint8", "[onnx]") { run_backend_test("test_sub_uint8", "Sub", 60); }
TEST_CASE("onnx test_add", "[onnx]") { run_backend_test("test_add", "Add", 60); }
TEST_CASE("onnx test_add_bcast", "[onnx]") { run_backend_test("test_add_bcast", "Add", 60); }
TEST_CASE("onnx test_add_uint8", "[onnx]") { run_backend_test("test_add_uint8", "Add", 60); }
TEST_CASE("onnx test_mul", "[onnx]") { run_backend_test("test_mul", "Mul", 60); }
TEST_CASE("onnx test_mul_bcast", "[onnx]") { run_backend_test("test_mul_bcast", "Mul", 60); }
TEST_CASE("onnx test_mul_example", "[onnx]") { run_backend_test("test_mul_example", "Mul", 3); }
TEST_CASE("onnx test_mul_uint8", "[onnx]") { run_backend_test("test_mul_uint8", "Mul", 60); }

TEST_CASE("onnx: the Div/Sub/Add/Mul backend tests are exactly the 15 expected", "[onnx]") {
  std::vector<std::string> found;
  REQUIRE(fs::is_directory(kNodeDir));
  for (const auto& e : fs::directory_iterator(kNodeDir)) {
    const std::string n = e.path().filename().string();
    for (const char* op : {"test_div", "test_sub", "test_add", "test_mul"})
      if (n == op || n.rfind(std::string(op) + "_", 0) == 0) found.push_back(n);
  }
  std::sort(found.begin(), found.end());
  CHECK(found == std::vector<std::string>{"test_add", "test_add_bcast", "test_add_uint8",
                                          "test_div", "test_div_bcast", "test_div_example",
                                          "test_div_uint8", "test_mul", "test_mul_bcast",
                                          "test_mul_example", "test_mul_uint8", "test_sub",
                                          "test_sub_bcast", "test_sub_example", "test_sub_uint8"});
}

TEST_CASE("onnx test_div_uint8 is floor division (numpy //) and truncation alike", "[onnx]") {
  const onnx::NodeTest t = onnx::load_node_test(kNodeDir / "test_div_uint8");
  CHECK(onnx::run_node_test(t, IntegerDivision::Floor).passed());
  CHECK(onnx::run_node_test(t, IntegerDivision::Truncate).passed());
  // the data never divides by zero (y = randint(24) + 1)
  const auto& y = std::get<Tensor<std::uint8_t>>(t.data_sets[0].inputs[1]);
  for (std::uint8_t v : y) CHECK(v >= 1);
}

TEST_CASE("onnx: the node test fails when the operator is wrong", "[onnx]") {
  // tightness twin: the comparison is not vacuous
  onnx::NodeTest t = onnx::load_node_test(kNodeDir / "test_sub");
  t.model.op_type = "Add";
  const onnx::NodeTestOutcome r = onnx::run_node_test(t);
  CHECK_FALSE(r.passed());
  CHECK_FALSE(r.mismatches.empty());
}
